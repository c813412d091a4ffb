#!/bin/bash
# The shipped imitations of OMPL.app's public puzzles (alpha_tube: the alpha
# puzzle's shape with the fixed piece at 1.5x; bug_trap_flared: a long rod
# and a funnel exit), as a new user runs them: the default `plan` (lazy PRM +
# adaptive on two threads, so lazy PRM races its rival) beside OMPL's
# BKPIECE1 on prmkit's adaptive checker and OMPL's stock LazyPRM with FCL's
# 1 % discretized checks (ompl_fcl_default), one thread each, the same seeds
# in one run, unsafe paths counted (returned paths `prmkit verify` rejects).
#
#   bench/public_puzzles.sh [PROBLEM.yaml...]   (default: the two imitations)
#   RUNS=10 TIME_LIMIT=60: seeds 1..RUNS, seconds per run (one run at a time)
# Writes out/public_puzzles/<problem>/{default,peers}/ (compare's tables,
# CSV and logs) and prints each problem's tables. Needs a Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
RUNS=${RUNS:-10}
TIME_LIMIT=${TIME_LIMIT:-60}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(configs/problems/alpha_tube.yaml configs/problems/bug_trap_flared.yaml)
for problem in "${problems[@]}"; do
  name=$(basename "$problem" .yaml)
  out="out/public_puzzles/$name"
  # `plan`'s default takes both cores; compare runs one thread a run unless told.
  "$PRMKIT" compare "$problem" --checkers adaptive --planners lazy_prm --set planner.threads=2 --runs "$RUNS" \
    --time-limit "$TIME_LIMIT" --no-plots --out "$out/default" >/dev/null
  "$PRMKIT" compare "$problem" --checkers adaptive --planners ompl:BKPIECE1,ompl_fcl_default --runs "$RUNS" \
    --time-limit "$TIME_LIMIT" --no-plots --out "$out/peers" >/dev/null
  echo "## $name ($RUNS seeds, $TIME_LIMIT s each)"
  head -n 3 "$out/default/summary.md"
  tail -n +3 "$out/peers/summary.md" | grep '^|'
done
