#!/bin/bash
# Static checks per second on the MotionBenchMaker Panda scenes of
# ../shared/benchdata (third-party data, not shipped): prmkit's exact static
# check against FCL's `collide` set up as MoveIt's FCL environment sets it up
# (bench/static_checks.cpp), on the same configurations in one run.
#
#   bench/static_checks.sh [COUNT] [PROBLEM_FOLDERS...]
#       (defaults: 20000 configurations; the first request of every scene)
#
# One row per problem: configurations, colliding ones, verdicts that differ,
# both rates and the time ratio; then the median ratio.
# Needs a Release build with the benchmarks (make release).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=${BENCH:-build/release/bench/prmkit_static_checks}
COUNT=${1:-20000}
shift || true
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
if [ ! -d "$B" ]; then
  echo "static_checks: $B is absent (set PRMKIT_BENCHDATA)" >&2
  exit 2
fi
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=("$B"/problems/*/)
urdf=$(realpath "$B/panda/panda.urdf")
srdf=$(realpath "$B/panda/panda.srdf")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for folder in "${folders[@]}"; do
  request=$(find "$folder" -maxdepth 1 -name 'request*.yaml' | sort | head -1)
  "$BENCH" "$request" "$COUNT" 1 "robot.file=$urdf" "robot.srdf=$srdf" >>"$work/lines"
done
python3 - "$work/lines" <<'PY'
import re, statistics, sys
print("| problem | configurations | colliding | verdicts differing | prmkit (checks/s) | FCL collide (checks/s) | prmkit / FCL time |")
print("|---|---|---|---|---|---|---|")
ratios = []
for line in open(sys.argv[1]):
    m = re.match(r"(\S+): (\d+) configurations \((\d+) colliding, (\d+) verdicts differ.*prmkit (\d+) checks/s"
                 r".*FCL (\d+) checks/s.*prmkit / FCL time ([0-9.]+)", line)
    name, n, colliding, differ, ours, theirs, ratio = m.groups()
    ratios.append(float(ratio))
    print(f"| {name} | {n} | {colliding} | {differ} | {ours} | {theirs} | {ratio} |")
print(f"\nmedian prmkit / FCL time: {statistics.median(ratios):.3f}")
PY
