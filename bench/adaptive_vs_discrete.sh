#!/bin/bash
# Cost and safety of the exact `adaptive` checker against the `discrete`
# checker it replaces, on every shipped problem, measured in one run (ratios,
# since these machines are noisy).
#
#   bench/adaptive_vs_discrete.sh [EDGES] [SEEDS]     (defaults: 2000 edges, 10 seeds)
#
# Edge level: EDGES random edges (seed 1) of at most 10% of the C-space
# extent, checked by discrete at 1% of the extent (OMPL's default), discrete
# with a workspace step of 1% of the scene size, discrete with the largest
# step (1% of the scene size halved as often as needed) that misses none of
# these edges, and adaptive; misses are counted against a dense ground truth
# (no robot point moves more than 1e-3 of the scene size between checks);
# times are the median of the checker's own time per edge. Adaptive runs on
# both geometries: `convex` (the default: convex pieces, coherent GJK, then
# BVHs) and `mesh` (BVH traversals alone, checker.geometry=mesh).
# The last column is adaptive with SSL's lever motion bound alone
# (checker.adaptive.motion_bound=lever).
# Planning level: lazy_prm on seeds 1..SEEDS with discrete 1% and adaptive;
# median planning and checking time, and how many paths `prmkit verify` rejects.
# Needs a Release build (make demo) and python3 (stats.json).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
EDGES=${1:-2000}
SEEDS=${2:-10}
PROBLEMS=${PROBLEMS:-"maze2d chain5 thin_wall spring_spring gear_spindle arm6_shelf"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

edge_row() {  # problem checker-args... -> "us_per_edge misses"
  local problem=$1; shift
  "$PRMKIT" check "configs/problems/$problem.yaml" --random "$EDGES" --max-length-fraction 0.1 --seed 1 \
      --truth-eps "$truth" "$@" | awk '
    /us per edge/ { for (i = 1; i <= NF; i++) if ($i == "us") us = $(i - 1) }
    /misses/ { for (i = 1; i <= NF; i++) if ($i == "misses") m = $(i - 1) }
    END { printf "%s %s", us, m }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| problem | discrete 1% C-space: us/edge, misses | discrete 1% of scene in workspace: us/edge, misses | discrete missing nothing: step (m), us/edge, misses | adaptive (convex): us/edge, misses | adaptive (mesh): us/edge, misses | adaptive / discrete 1% | adaptive / discrete missing nothing | adaptive mesh / convex | adaptive, lever bounds only: us/edge, misses |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for p in $PROBLEMS; do
  size=$("$PRMKIT" validate "configs/problems/$p.yaml" | sed -n 's/.*scene size \([0-9.e+-]*\) m.*/\1/p')
  truth=$(python3 -c "print(1e-3 * $size)")
  coarse=$(python3 -c "print(1e-2 * $size)")
  read -r d_us d_miss <<<"$(edge_row "$p" --checker discrete)"
  read -r w_us w_miss <<<"$(edge_row "$p" --checker discrete --set checker.discrete.eps="$coarse")"
  # The workspace step at which discrete misses none of these edges: halve 1% of the scene size until it does.
  # (At most 8 halvings: by then the step is below the ground truth's.)
  step=$coarse; z_us=$w_us; z_miss=$w_miss; halvings=0
  while [ "$z_miss" != 0 ] && [ "$halvings" -lt 8 ]; do
    step=$(python3 -c "print($step / 2)"); halvings=$((halvings + 1))
    read -r z_us z_miss <<<"$(edge_row "$p" --checker discrete --set checker.discrete.eps="$step")"
  done
  read -r a_us a_miss <<<"$(edge_row "$p" --checker adaptive)"
  read -r m_us m_miss <<<"$(edge_row "$p" --checker adaptive --set checker.geometry=mesh)"
  read -r l_us l_miss <<<"$(edge_row "$p" --checker adaptive --set checker.adaptive.motion_bound=lever)"
  python3 -c "print('| $p | $d_us, $d_miss | $w_us, $w_miss | %.3g, $z_us, $z_miss | $a_us, $a_miss | $m_us, $m_miss | %.1f | %.2f | %.1f | $l_us, $l_miss |' % ($step, $a_us / $d_us, $a_us / $z_us, $m_us / $a_us))"
done

echo
echo "| problem | discrete 1%: median plan / check time (s), rejected paths | adaptive: median plan / check time (s), rejected paths | plan time ratio |"
echo "|---|---|---|---|"
for p in $PROBLEMS; do
  row="| $p"
  for c in discrete adaptive; do
    : >"$work/times"
    rejected=0
    for s in $(seq 1 "$SEEDS"); do
      "$PRMKIT" plan "configs/problems/$p.yaml" --planner lazy_prm --checker "$c" --seed "$s" --out "$work/run" >/dev/null || true
      python3 -c "import json; d = json.load(open('$work/run/stats.json')); print(d['time_s'], d['check_time_s'])" >>"$work/times"
      if [ -f "$work/run/path.csv" ] && ! "$PRMKIT" verify "configs/problems/$p.yaml" "$work/run/path.csv" >/dev/null; then
        rejected=$((rejected + 1))
      fi
    done
    plan=$(cut -d' ' -f1 "$work/times" | median)
    check=$(cut -d' ' -f2 "$work/times" | median)
    row="$row | $(printf '%.3f / %.3f, %d of %d' "$plan" "$check" "$rejected" "$SEEDS")"
    eval "plan_$c=$plan"
  done
  echo "$row | $(python3 -c "print('%.1f' % ($plan_adaptive / $plan_discrete))") |"
done
