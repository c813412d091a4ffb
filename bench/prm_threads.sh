#!/bin/bash
# prm (or lazy_prm) + adaptive on one thread against two (planner.threads),
# same seeds, in one run: the summed planning time per problem and its ratio,
# and whether the paths and roadmap sizes are the same (they must be).
#
#   bench/prm_threads.sh [SEEDS]      (default 5 seeds per problem)
#   REPS=N: run each seed N times on each thread count (default 1): runs of
#   a few milliseconds vary by tens of percent from one run to the next
#   PLANNER=lazy_prm: lazy PRM instead (its batches' sampling and
#   neighbour searches run on every thread, its path checks on one), alone
#   (planner.race=none: two threads would otherwise race a second planner,
#   docs/results.md "Racing BKPIECE1"); the shipped bug_trap3d joins the problems
#
# Problems: the shipped arm6_shelf and five MotionBenchMaker Panda problems
# of ../shared/benchdata (third-party data, not shipped; skipped when absent)
# that prm solves in well under the time limit; PROBLEMS="bug_trap_baffle
# house ..." (shipped problem names) runs those instead. Runs of the two thread
# counts alternate, so a load change on the machine hits both.
# Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/problem_args.sh
PRMKIT=${PRMKIT:-build/release/app/prmkit}
SEEDS=${1:-5}
REPS=${REPS:-1}
PLANNER=${PLANNER:-prm}
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

problems=("arm6_shelf")
[ "$PLANNER" = lazy_prm ] && problems+=("bug_trap3d")
if [ -n "${PROBLEMS:-}" ]; then
  read -r -a problems <<< "$PROBLEMS"
elif [ -d "$B" ]; then
  problems+=(box_panda/request0002 box_panda/request0003 table_under_pick_panda/request0003
             bookshelf_thin_panda/request0002 bookshelf_tall_panda/request0003)
fi

run() {  # problem seed threads -> time_s vertices
  local args
  problem_args "$1"
  local alone=()
  [ "$PLANNER" = lazy_prm ] && alone=(--set planner.race=none)
  "$PRMKIT" plan "${args[@]}" --planner "$PLANNER" --checker adaptive --seed "$2" --threads "$3" --time-limit 60 \
      "${alone[@]}" --out "$work/t$3" > /dev/null || true
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["time_s"], s["roadmap_vertices"], s["status"])' \
      "$work/t$3/stats.json"
}

printf '%-36s %10s %10s %8s  %s\n' problem "1 thread s" "2 threads s" speedup "same results"
total1=0; total2=0
for p in "${problems[@]}"; do
  sum1=0; sum2=0; same=yes
  for seed in $(seq 1 "$SEEDS"); do
    for _ in $(seq 1 "$REPS"); do
      read -r t1 v1 s1 < <(run "$p" "$seed" 1)
      read -r t2 v2 s2 < <(run "$p" "$seed" 2)
      [ "$v1" = "$v2" ] && [ "$s1" = "$s2" ] || same=no
      if [ -f "$work/t1/path.csv" ] || [ -f "$work/t2/path.csv" ]; then
        cmp -s "$work/t1/path.csv" "$work/t2/path.csv" || same=no
      fi
      sum1=$(python3 -c "print($sum1 + $t1)"); sum2=$(python3 -c "print($sum2 + $t2)")
    done
  done
  total1=$(python3 -c "print($total1 + $sum1)"); total2=$(python3 -c "print($total2 + $sum2)")
  printf '%-36s %10.3f %10.3f %7.2fx  %s\n' "$p" "$sum1" "$sum2" "$(python3 -c "print($sum1 / $sum2)")" "$same"
done
printf '%-36s %10.3f %10.3f %7.2fx\n' "all" "$total1" "$total2" "$(python3 -c "print($total1 / $total2)")"
