#!/bin/bash
# Per-edge cost of the exact `adaptive` checker against `discrete` at 1% of
# the C-space extent (OMPL's and MoveIt's default) on the MotionBenchMaker
# Panda problems of ../shared/benchdata (third-party data, not shipped), in
# one run, so the ratios compare like with like.
#
#   bench/panda_edges.sh [EDGES] [PROBLEM_FOLDERS...]
#       (defaults: 300 edges per problem; the 35 extracted problems)
#
# Per problem: EDGES random edges (seed 1) between valid configurations, at
# most 10% of the C-space extent long; the median of the checker's own time
# per edge for discrete 1%, adaptive on the default `convex` geometry and
# adaptive on `mesh` (BVH traversals alone); misses of discrete against
# adaptive's exact verdicts are not counted here (bench/adaptive_vs_discrete.sh
# and the MotionBenchMaker table of docs/results.md do that). Prints one row per
# problem and the median of the per-problem ratios.
# Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
EDGES=${1:-300}
shift || true
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
if [ ! -d "$B" ]; then
  echo "panda_edges: $B is absent (set PRMKIT_BENCHDATA)" >&2
  exit 2
fi
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=("$B"/problems/*/)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median_us() {  # request checker-args... -> median us per edge
  local request=$1; shift
  "$PRMKIT" check "$request" --urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf" --random "$EDGES" \
      --max-length-fraction 0.1 --seed 1 "$@" | awk '
    /us per edge/ { for (i = 1; i <= NF; i++) if ($i == "us") us = $(i - 1) }
    END { print us }'
}

echo "| problem | discrete 1%: median us/edge | adaptive (convex): median us/edge | adaptive (mesh): median us/edge | convex / discrete | mesh / discrete |"
echo "|---|---|---|---|---|---|"
: >"$work/ratios"
for folder in "${folders[@]}"; do
  for request in "$folder"/request*.yaml; do
    name="$(basename "$folder")/$(basename "$request" .yaml)"
    d=$(median_us "$request" --checker discrete)
    a=$(median_us "$request" --checker adaptive)
    m=$(median_us "$request" --checker adaptive --set checker.geometry=mesh)
    python3 -c "print('| $name | $d | $a | $m | %.2f | %.2f |' % ($a / $d, $m / $d))"
    python3 -c "print($a / $d, $m / $d)" >>"$work/ratios"
  done
done
python3 - "$work/ratios" <<'EOF'
import statistics, sys
rows = [tuple(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
convex = [r[0] for r in rows]
mesh = [r[1] for r in rows]
print(f"\n{len(rows)} problems: median ratio to discrete 1%: convex {statistics.median(convex):.2f} "
      f"(range {min(convex):.2f}-{max(convex):.2f}), mesh {statistics.median(mesh):.2f} "
      f"(range {min(mesh):.2f}-{max(mesh):.2f})")
EOF
