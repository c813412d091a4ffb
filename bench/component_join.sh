#!/bin/bash
# Lazy PRM with and without RRT-Connect between the start's and the goal's
# components (`planner.lazy_prm.join`), the same seeds, in one run: per
# problem and setting, solved runs, median planning time (unsolved runs
# count as the limit), median roadmap size and join nodes.
#
#   bench/component_join.sh [PROBLEM.yaml...]   (default: the shipped bug
#                                                traps, alpha puzzles, twisted slot, house)
#   SEEDS="1 2 3 4 5" JOINS="0 20" TIME_LIMIT=60 JOBS=2: what is run
# Runs of a seed with every setting are queued one after the other, so
# machine load falls on the settings alike. Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
SEEDS=${SEEDS:-1 2 3 4 5}
JOINS=${JOINS:-0 20}
TIME_LIMIT=${TIME_LIMIT:-60}
JOBS=${JOBS:-2}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(configs/problems/bug_trap3d.yaml configs/problems/bug_trap_baffle.yaml
  configs/problems/alpha_puzzle.yaml configs/problems/alpha_puzzle_tight.yaml configs/problems/twisted_slot.yaml
  configs/problems/house.yaml)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for problem in "${problems[@]}"; do
  for seed in $SEEDS; do
    for join in $JOINS; do
      printf '%s\0%s\0%s\0' "$problem" "$seed" "$join"
    done
  done
done | xargs -0 -n 3 -P "$JOBS" sh -c '
  "$1" plan "$4" --checker adaptive --seed "$5" --threads 1 --set "limits.time=$2" \
    --set "planner.lazy_prm.join=$6" --out "$3/$(basename "$4" .yaml)-$5-$6" >/dev/null 2>&1 || true
' sh "$PRMKIT" "$TIME_LIMIT" "$work"
python3 - "$work" "$TIME_LIMIT" "$JOINS" "${problems[@]}" <<'PY'
import json, pathlib, statistics, sys
work, limit, joins, problems = pathlib.Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3].split(), sys.argv[4:]
print(f"lazy_prm + adaptive, one thread per run, limit {limit:g} s; unsolved runs count as the limit")
print(f"{'problem':20} {'join':>5} {'solved':>7} {'median time (s)':>16} {'vertices':>9} {'join nodes':>11}")
for problem in problems:
    name = pathlib.Path(problem).stem
    for join in joins:
        runs = [json.loads(p.read_text()) for p in sorted(work.glob(f"{name}-*-{join}/stats.json"))]
        if not runs:
            print(f"{name:20} {join:>5} no run finished")
            continue
        times = [r["time_s"] if r["solved"] else limit for r in runs]
        solved = sum(r["solved"] for r in runs)
        med = lambda key: statistics.median(r[key] for r in runs)
        print(f"{name:20} {join:>5} {solved:>4}/{len(runs):<2} {statistics.median(times):>16.2f} "
              f"{med('roadmap_vertices'):>9.0f} {med('join_nodes'):>11.0f}")
PY
