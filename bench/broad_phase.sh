#!/bin/bash
# The broad phases of `swept` side by side (scene.broadphase: none, FCL's
# dynamic AABB tree and sort-and-sweep, Mirtich's hierarchical hash), in one
# run: on the shipped boxes3000 (3000 separate boxes) and, when
# ../shared/benchdata is there, on the first problem of each
# MotionBenchMaker Panda scenario; then bench/broad_phase.cpp's build and
# query costs on boxes3000 (Mirtich 1997: maintaining the hash is several
# times faster than rebuilding it).
#
#   bench/broad_phase.sh [EDGES]     (default: 1000 random edges per problem)
#
# Per problem and broad phase: the median of the checker's own time per edge
# and the (link, obstacle) pairs handed to the narrow phase per edge, for
# EDGES random edges (seed 1, at most 10% of the C-space extent); `adaptive`
# (which visits every pair) for reference. Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
EDGES=${1:-1000}
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp

cells() {  # checker-args... -> "median_us pairs_per_edge"
  "$PRMKIT" check "$@" --random "$EDGES" --max-length-fraction 0.1 --seed 1 | awk -v n="$EDGES" '
    /us per edge/ { for (i = 1; i <= NF; i++) if ($i == "us") us = $(i - 1) }
    $1 == "broad_phase_pairs" { pairs = $2 }
    END { printf "%s %.1f", us, pairs / n }'
}

row() {  # name problem-args...
  local name=$1; shift
  local line="| $name"
  for bp in none aabb_tree sort_and_sweep hash; do
    read -r us pairs <<<"$(cells "$@" --checker swept --set scene.broadphase=$bp)"
    line="$line | $us, $pairs"
  done
  read -r us _ <<<"$(cells "$@" --checker adaptive)"
  echo "$line | $us |"
}

echo "| problem | none: us/edge, pairs/edge | aabb_tree | sort_and_sweep | hash | adaptive: us/edge |"
echo "|---|---|---|---|---|---|"
row boxes3000 configs/problems/boxes3000.yaml
if [ -d "$B" ]; then
  for folder in "$B"/problems/*/; do
    request=$(ls "$folder"request*.yaml | head -1)
    row "$(basename "$folder")/$(basename "$request" .yaml)" "$request" --urdf "$B/panda/panda.urdf" \
        --srdf "$B/panda/panda.srdf"
  done
fi
echo
build/release/bench/prmkit_broad_phase configs/problems/boxes3000.yaml 2000 0.1
echo
build/release/bench/prmkit_broad_phase configs/problems/boxes3000.yaml 2000 0.01
