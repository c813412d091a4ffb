#!/bin/bash
# The exact checkers' zero-miss claim at scale: N random edges in all
# (default 1 000 000), split evenly over the shipped problems, half of them
# short (at most 10% of the C-space extent, like PRM edges) and half of any
# length, each checked by every strategy of CHECKERS and by two ground truths: the dense
# motion-bound one (no robot point moves more than 1e-3 of the scene size
# between checks) and the independent one (plain FCL every INDEPENDENT of the
# C-space extent, translation and rotation each; no motion bound, no prmkit
# distance code), so that a wrong bound cannot fool the checker and its
# judge together. A miss is an edge a checker calls free that either truth
# finds colliding. Prints the misses per problem and checker and in all;
# exits 1 if an exact strategy (adaptive, swept, containing) has any. An
# approximate one (spheres, discrete) has its misses counted, not judged.
#
#   bench/million_edges.sh [N] [JOBS]        (defaults: 1000000 edges, 2 threads)
#   CHECKERS="adaptive" (default; e.g. "adaptive swept spheres containing";
#     `containing` is `spheres` with `certify: containing`)
#   INDEPENDENT=1e-3 (default; 0 turns the independent truth off)
#   SCALE=1 (default): every problem in other units, e.g. SCALE=1e-5 (10 um
#     for a metre) or SCALE=1e4, through the problems' `scale`; the truths
#     are relative to the scene, so the same edges get the same verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
TOTAL=${1:-1000000}
JOBS=${2:-2}
INDEPENDENT=${INDEPENDENT:-1e-3}
SCALE=${SCALE:-1}
read -r -a CHECKER_LIST <<<"${CHECKERS:-adaptive}"
PROBLEMS=(maze2d chain5 thin_wall spring_spring gear_spindle arm6_shelf)
per=$((TOTAL / ${#PROBLEMS[@]}))
exact_misses=0
for checker in "${CHECKER_LIST[@]}"; do
  strategy=(--checker "$checker")
  [ "$checker" = containing ] && strategy=(--checker spheres --set checker.spheres.certify=containing)
  all_edges=0
  all_misses=0
  all_unresolved=0
  for p in "${PROBLEMS[@]}"; do
    size=$("$PRMKIT" validate "configs/problems/$p.yaml" --set "scale=$SCALE" | sed -n 's/.*scene size \([0-9.e+-]*\) m.*/\1/p')
    truth=$(awk -v s="$size" 'BEGIN { printf "%.6g", 1e-3 * s }')
    for half in short any; do
      n=$((per / 2))
      args=(--seed 1)
      if [ "$half" = short ]; then args=(--seed 2 --max-length-fraction 0.1); n=$((per - per / 2)); fi
      out=$("$PRMKIT" check "configs/problems/$p.yaml" --set "scale=$SCALE" "${strategy[@]}" --random "$n" "${args[@]}" \
              --truth-eps "$truth" --independent-truth "$INDEPENDENT" --jobs "$JOBS")
      # With the independent truth its line counts the misses against either truth.
      misses=$(sed -n 's/.*: \([0-9]*\) misses.*/\1/p' <<<"$out" | tail -1)
      disagreements=$(sed -n 's/.*, \([0-9]*\) disagreements.*/\1/p' <<<"$out")
      unresolved=$(sed -n 's/.*colliding (\([0-9]*\) unresolved.*/\1/p' <<<"$out")
      us=$(sed -n 's/.*, \([0-9.]*\) us per edge.*/\1/p' <<<"$out")
      printf '%-14s %-5s edges %7d  misses %d  unresolved %d  truth disagreements %s  %s %s us/edge  (truth eps %s m)\n' \
        "$p" "$half" "$n" "$misses" "$unresolved" "${disagreements:--}" "$checker" "$us" "$truth"
      all_edges=$((all_edges + n))
      all_misses=$((all_misses + misses))
      all_unresolved=$((all_unresolved + unresolved))
    done
  done
  echo "$checker in all: $all_edges edges, $all_misses misses, $all_unresolved unresolved below eta"
  case "$checker" in adaptive | swept | containing) exact_misses=$((exact_misses + all_misses)) ;; esac
done
[ "$exact_misses" -eq 0 ]
