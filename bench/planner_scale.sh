#!/bin/bash
# Where planning time goes as the roadmap grows: the checker's own time
# against everything else (nearest neighbours, searches, components, the
# sampler's bookkeeping), for lazy_prm and prm with `adaptive` on one thread.
#
#   bench/planner_scale.sh [SAMPLE_LIMITS...]      (default: 1000 10000 100000)
#   ARM_LIMIT_MAX=N: skip the arm above N samples (default 10000: prm checks
#   every edge, about 10 ms of checker time per Panda vertex)
#
# Rigid body: the shipped bug_trap3d with a rod 0.22 m square in section,
# which cannot pass the 0.2 m exit, so the roadmap grows until the sample
# limit. Arm: the MotionBenchMaker Panda cage problem of ../shared/benchdata
# (third-party data, not shipped; skipped when absent), which neither
# planner solves quickly, so the roadmap grows as well (a run that solves
# it stops early; its row says how big the roadmap was). One row per run:
# roadmap size, planning time, checker time and the share outside the checker,
# roadmap bytes per vertex and per edge, peak resident memory.
# Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
limits=("$@")
[ ${#limits[@]} -gt 0 ] || limits=(1000 10000 100000)
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

row() {  # label stats.json
  python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
outside = 1 - s["check_time_s"] / s["time_s"] if s["time_s"] > 0 else 0
print(f'{sys.argv[1]:<28} {s["roadmap_vertices"]:>9} {s["roadmap_edges"]:>10} {s["time_s"]:>9.2f} '
      f'{s["check_time_s"]:>9.2f} {100 * outside:>8.1f} {s["roadmap_bytes_per_vertex"]:>8.0f} '
      f'{s["roadmap_bytes_per_edge"]:>8.0f} {s["peak_resident_bytes"] / 2**20:>8.0f}  {s["status"]}')
PY
}

printf '%-28s %9s %10s %9s %9s %8s %8s %8s %8s  %s\n' run vertices edges "time s" "check s" "out %" "B/vert" "B/edge" "RSS MiB" status
for planner in lazy_prm prm; do
  for limit in "${limits[@]}"; do
    "$PRMKIT" plan configs/problems/bug_trap3d.yaml --planner "$planner" --checker adaptive --sampler uniform --threads 1 \
        --time-limit 3600 --out "$work/rigid" --set "limits.samples=$limit" \
        --set "robot.geometry.box=[0.7, 0.22, 0.22]" > /dev/null || true
    row "rigid $planner $limit" "$work/rigid/stats.json"
    if [ -d "$B" ] && [ "$limit" -le "${ARM_LIMIT_MAX:-10000}" ]; then
      "$PRMKIT" plan --urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf" \
          --request "$B/problems/cage_panda/request0001.yaml" --planner "$planner" --checker adaptive --threads 1 \
          --time-limit 3600 --out "$work/arm" --set "limits.samples=$limit" > /dev/null || true
      row "panda $planner $limit" "$work/arm/stats.json"
    fi
  done
done
