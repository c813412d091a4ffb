#!/bin/bash
# The four checker strategies side by side on every shipped problem, in one
# run (ratios, since these machines are noisy), with Xavier 1997's claim for
# swept queries beside ours.
#
#   bench/swept_table.sh [EDGES] [OUT]     (defaults: 2000 edges, out/swept_table)
#
# Planning: the shipped sweep configs/sweeps/swept.yaml (lazy_prm, 3 seeds,
# --jobs 2): median planning time and the returned paths dense verification
# rejects. Edges: EDGES random edges (seed 1) of at most 10% of the C-space
# extent per problem: the median of the checker's own time per edge, and
# misses against a dense ground truth (no robot point moves more than 1e-3
# of the scene size between checks). Queries: bench/swept_queries.cpp on
# steps of 1% of the extent: a swept-hull distance (DS) and interference
# test (IS) against the basic ones (D, I) on the same pairs (Xavier's Table 1:
# swept queries cost up to 1.3-1.5x the basic ones).
# Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
QUERIES=${QUERIES:-build/release/bench/prmkit_swept_queries}
EDGES=${1:-2000}
OUT=${2:-out/swept_table}
CHECKERS="discrete adaptive budgeted swept"
mkdir -p "$OUT"

"$PRMKIT" sweep configs/sweeps/swept.yaml --out "$OUT/sweep" --jobs 2 >"$OUT/sweep.log"

edge_cells() {  # problem checker -> "us misses"
  "$PRMKIT" check "configs/problems/$1.yaml" --random "$EDGES" --max-length-fraction 0.1 --seed 1 \
      --truth-eps "$truth" --checker "$2" | awk '
    /us per edge/ { for (i = 1; i <= NF; i++) if ($i == "us") us = $(i - 1) }
    /misses/ { for (i = 1; i <= NF; i++) if ($i == "misses") m = $(i - 1) }
    END { printf "%s %s", us, m }'
}

plan_cells() {  # problem checker -> "median_s unsafe" from the sweep's summary
  awk -F'|' -v p="$1" -v c="lazy_prm+$2" '
    { gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3) }
    $2 == p && $3 == c { gsub(/ /, "", $6); gsub(/ /, "", $12); print $6, $12 }' "$OUT/sweep/summary.md"
}

echo "| problem | median us per edge: discrete / adaptive / budgeted / swept | misses | median planning time (s) | unsafe paths (of 3) | swept query cost: DS / D, IS / I, IS / D |"
echo "|---|---|---|---|---|---|"
for problem in maze2d chain5 thin_wall spring_spring gear_spindle arm6_shelf arm6_pillars lin_li_springs \
               maze_corridor twisted_slot maze2d_large bug_trap3d; do
  size=$("$PRMKIT" validate "configs/problems/$problem.yaml" | sed -n 's/.*scene size \([0-9.e+-]*\) m.*/\1/p')
  truth=$(python3 -c "print(1e-3 * $size)")
  us=(); misses=(); times=(); unsafe=()
  for checker in $CHECKERS; do
    read -r u m <<<"$(edge_cells "$problem" "$checker")"
    read -r t x <<<"$(plan_cells "$problem" "$checker")"
    us+=("$u"); misses+=("$m"); times+=("${t:--}"); unsafe+=("${x:--}")
  done
  queries=$("$QUERIES" "configs/problems/$problem.yaml" 2000 0.01 | tail -1 | awk -F'|' '{ gsub(/ /, ""); print $7 ", " $8 ", " $9 }')
  join() { local IFS=/; echo "$*" | sed 's#/# / #g'; }
  echo "| $problem | $(join "${us[@]}") | $(join "${misses[@]}") | $(join "${times[@]}") | $(join "${unsafe[@]}") | $queries |"
done
