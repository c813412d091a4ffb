#!/bin/bash
# Per-edge cost of the exact `adaptive` checker against `discrete` at 1% of
# the C-space extent on every shipped problem, in one run (ratios, since
# these machines are noisy). For the MotionBenchMaker Panda problems see
# bench/panda_edges.sh; for misses against a ground truth,
# bench/adaptive_vs_discrete.sh.
#
#   bench/shipped_edges.sh [EDGES]        (default: 2000 edges per problem)
#
# Per problem: EDGES random edges (seed 1) between valid configurations, at
# most 10% of the C-space extent long; the median of the checker's own time
# per edge. Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
EDGES=${1:-2000}

median_us() {  # problem checker -> median us per edge
  "$PRMKIT" check "$1" --random "$EDGES" --max-length-fraction 0.1 --seed 1 --checker "$2" | awk '
    /us per edge/ { for (i = 1; i <= NF; i++) if ($i == "us") us = $(i - 1) }
    END { print us }'
}

echo "| problem | discrete 1%: median us/edge | adaptive: median us/edge | adaptive / discrete |"
echo "|---|---|---|---|"
for problem in configs/problems/*.yaml; do
  d=$(median_us "$problem" discrete)
  a=$(median_us "$problem" adaptive)
  python3 -c "print('| $(basename "$problem" .yaml) | $d | $a | %.2f |' % ($a / $d))"
done
