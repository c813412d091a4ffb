#!/bin/bash
# How much of lazy PRM's planning time its graph searches take (search_time_s
# in stats.json: the incremental repairs after colliding edges and the
# component sweeps) against the checker's, per shipped problem, median of
# three seeds on one thread with `adaptive`.
#
#   bench/search_share.sh [PROBLEM.yaml...]   (default: the shipped bug trap,
#                                              large maze, twisted slot, boxes3000)
#   SEEDS="1 2 3" PLANNER=lazy_prm TIME_LIMIT=60: what is run
# One row per problem: solved runs, median roadmap size, searches, planning
# time, and the shares of the searches and of the checker in it.
# Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
SEEDS=${SEEDS:-1 2 3}
PLANNER=${PLANNER:-lazy_prm}
TIME_LIMIT=${TIME_LIMIT:-60}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(configs/problems/bug_trap3d.yaml configs/problems/maze2d_large.yaml
  configs/problems/twisted_slot.yaml configs/problems/boxes3000.yaml)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for problem in "${problems[@]}"; do
  name=$(basename "$problem" .yaml)
  for seed in $SEEDS; do
    "$PRMKIT" plan "$problem" --planner "$PLANNER" --checker adaptive --seed "$seed" --threads 1 \
      --set "limits.time=$TIME_LIMIT" --out "$work/$name-$seed" >/dev/null 2>&1 || true
  done
done
python3 - "$work" "$PLANNER" "${problems[@]}" <<'PY'
import json, pathlib, statistics, sys
work, planner, problems = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
print(f"{planner} + adaptive, one thread, median of the seeds")
print(f"{'problem':16} {'solved':>6} {'vertices':>9} {'searches':>9} {'time (s)':>9} {'search %':>9} {'checker %':>9}")
for problem in problems:
    name = pathlib.Path(problem).stem
    runs = [json.loads(p.read_text()) for p in sorted(work.glob(f"{name}-*/stats.json"))]
    if not runs:
        print(f"{name:16} no run finished")
        continue
    med = lambda key: statistics.median(r[key] for r in runs)
    share = lambda key: statistics.median(100 * r[key] / r["time_s"] if r["time_s"] > 0 else 0 for r in runs)
    solved = sum(r["solved"] for r in runs)
    print(f"{name:16} {solved:>3}/{len(runs):<2} {med('roadmap_vertices'):>9.0f} {med('graph_searches'):>9.0f} "
          f"{med('time_s'):>9.2f} {share('search_time_s'):>9.1f} {share('check_time_s'):>9.1f}")
PY
