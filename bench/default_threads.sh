#!/bin/bash
# `plan`'s default thread count (every core) against --threads 1, in one run,
# on an idle machine and with a busy loop on every other core: the median of
# the per-run time ratios (default / one thread) per problem group, and
# whether the paths are the same (they must be: a seed's result does not
# depend on the thread count).
#
#   bench/default_threads.sh [SEEDS]     (default 3 seeds per problem)
#
# Problems: the 35 extracted MotionBenchMaker Panda problems of
# ../shared/benchdata (third-party data, not shipped; skipped when absent),
# runs of milliseconds, and the shipped puzzles bug_trap_baffle, twisted_slot
# and house, runs of seconds. The two thread counts alternate run by run, so
# a load change hits both. PUZZLES="..." names other shipped problems (empty:
# none). Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/problem_args.sh
PRMKIT=${PRMKIT:-build/release/app/prmkit}
SEEDS=${1:-3}
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
work=$(mktemp -d)
busy=()
stop_busy() { for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done; busy=(); }
trap 'stop_busy; rm -rf "$work"' EXIT

panda=()
if [ -d "$B" ]; then
  for r in "$B"/problems/*/request*.yaml; do panda+=("$r"); done
fi
read -r -a puzzles <<< "${PUZZLES-bug_trap_baffle twisted_slot house}"

run() {  # problem seed threads -> time_s status
  local args
  problem_args "$1"
  local threads=()
  [ "$3" = default ] || threads=(--threads "$3")
  "$PRMKIT" plan "${args[@]}" --seed "$2" "${threads[@]}" --time-limit 60 --out "$work/t$3" > /dev/null || true
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["time_s"], s["status"])' "$work/t$3/stats.json"
  cat "$work/t$3/path.csv" 2>/dev/null | md5sum | cut -c1-12
}

group() {  # label problems... -> one row
  local label=$1; shift
  local ratios=() same=yes t1s=() tds=()
  for p in "$@"; do
    for seed in $(seq 1 "$SEEDS"); do
      { read -r t1 s1; read -r h1; } < <(run "$p" "$seed" 1)
      { read -r td sd; read -r hd; } < <(run "$p" "$seed" default)
      [ "$s1" = "$sd" ] && [ "$h1" = "$hd" ] || same=no
      ratios+=("$(python3 -c "print($td / max($t1, 1e-9))")")
      t1s+=("$t1"); tds+=("$td")
    done
  done
  python3 - "$label" "$same" "${#ratios[@]}" "${ratios[@]}" "${t1s[@]}" "${tds[@]}" <<'PY'
import statistics, sys
label, same, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
values = [float(x) for x in sys.argv[4:]]
ratios, t1, td = values[:n], values[n:2 * n], values[2 * n:]
print(f"| {label} | {n} | {statistics.median(t1) * 1e3:.2f} | {statistics.median(td) * 1e3:.2f} | "
      f"{statistics.median(ratios):.2f} | {max(ratios):.2f} | {same} |")
PY
}

echo "| problems, machine | runs | median --threads 1 (ms) | median default (ms) | median ratio default / 1 | largest ratio | same paths |"
echo "|---|---:|---:|---:|---:|---:|---|"
for load in idle busy; do
  if [ "$load" = busy ]; then
    # A busy loop on every core but one: the planner's helper threads get no core of their own.
    for _ in $(seq 2 "$(nproc)"); do (while :; do :; done) & busy+=($!); done
  fi
  [ ${#panda[@]} -gt 0 ] && group "MotionBenchMaker Panda (35), $load" "${panda[@]}"
  [ ${#puzzles[@]} -gt 0 ] && group "puzzles ($(IFS=,; echo "${puzzles[*]}")), $load" "${puzzles[@]}"
  stop_busy
done
