#!/bin/bash
# The hard shipped puzzles with their own sampler (the default mix where the
# file names none): lazy_prm + adaptive
# against OMPL's LazyPRM with FCL's 1 % discretized motion checks
# (ompl_fcl_default), the same seeds in one run, unsafe paths counted
# (returned paths that `prmkit verify` rejects).
#
#   bench/hard_puzzles.sh [PROBLEM.yaml...]   (default: the shipped bug traps)
#   RUNS=10 TIME_LIMIT=60 JOBS=1: seeds 1..RUNS, seconds per run, worker processes
# Writes out/hard_puzzles/<problem>/ (compare's table, CSV and logs) and
# prints each problem's table. Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
RUNS=${RUNS:-10}
TIME_LIMIT=${TIME_LIMIT:-60}
JOBS=${JOBS:-1}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(configs/problems/bug_trap_baffle.yaml configs/problems/bug_trap3d.yaml)
for problem in "${problems[@]}"; do
  name=$(basename "$problem" .yaml)
  "$PRMKIT" compare "$problem" --checkers adaptive --planners lazy_prm,ompl_fcl_default --runs "$RUNS" \
    --time-limit "$TIME_LIMIT" --jobs "$JOBS" --no-plots --out "out/hard_puzzles/$name" >/dev/null
  echo "## $name ($RUNS seeds, $TIME_LIMIT s each)"
  cat "out/hard_puzzles/$name/summary.md" 2>/dev/null || ls "out/hard_puzzles/$name"
done
