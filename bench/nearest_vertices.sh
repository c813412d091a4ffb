#!/bin/bash
# The roadmap's nearest-neighbour queries against OMPL's GNAT with the same
# metric (bench/nearest_vertices.cpp), on the same configurations in one
# run: shipped problems of each kind of robot, and the Panda of
# ../shared/benchdata when present (third-party data, not shipped).
#
#   bench/nearest_vertices.sh [VERTICES]      (default 20000; k = 11)
#
# One row per problem: the structure, microseconds per vertex (an insertion
# and a k-nearest query, as a PRM makes them) for both, their ratio, and the
# answers that differ (always 0: the program exits 1 otherwise).
# Needs a Release build with the benchmarks (make release).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH=${BENCH:-build/release/bench/prmkit_nearest_vertices}
VERTICES=${1:-20000}
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for problem in maze2d bug_trap3d chain5 arm6_shelf; do
  "$BENCH" "configs/problems/$problem.yaml" "$VERTICES" 11 >>"$work/lines"
done
if [ -d "$B" ]; then
  request=$(find "$B/problems/box_panda" -maxdepth 1 -name 'request*.yaml' | sort | head -1)
  [ -n "$request" ] && "$BENCH" "$request" "$VERTICES" 11 1 "robot.file=$(realpath "$B/panda/panda.urdf")" \
      "robot.srdf=$(realpath "$B/panda/panda.srdf")" >>"$work/lines"
fi
python3 - "$work/lines" <<'PY'
import re, sys
print("| problem | vertices | structure | prmkit (us per vertex) | OMPL GNAT (us per vertex) | prmkit / GNAT time | answers differing |")
print("|---|---:|---|---:|---:|---:|---:|")
for line in open(sys.argv[1]):
    m = re.match(r"(\S+): (\d+) vertices, \d+ nearest each, (\d+) answers differ.*prmkit \(([^)]*)\) ([0-9.]+) us"
                 r".*OMPL GNAT ([0-9.]+) us.*prmkit / GNAT time ([0-9.]+)", line)
    if m:
        name, n, differ, structure, ours, theirs, ratio = m.groups()
        print(f"| {name} | {n} | {structure} | {ours} | {theirs} | {ratio} | {differ} |")
PY
