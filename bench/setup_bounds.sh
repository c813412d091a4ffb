#!/bin/bash
# Setup at the documented size bounds (docs/problem-format.md): the time and
# peak memory of `prmkit plan` on generated scenes at those bounds, under a
# 4 GiB address-space limit, as hostile input would bring them.
#
#   bench/setup_bounds.sh      (TIME_LIMIT=20: each plan's limit, setup included)
#
# Problems (written to a temporary folder): 40 000 random polygons as
# separate obstacles, the same 40 000 in one mesh, and a spring of 10^6
# triangles. One line each: wall time, peak resident memory, exit code and
# the run's last line of output. Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=$(realpath "${PRMKIT:-build/release/app/prmkit}")
TIME_LIMIT=${TIME_LIMIT:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

problem() {  # name obstacle-geometry bound
  cat >"$work/$1.yaml" <<EOF
robot:
  type: rigid3d
  geometry: {box: [0.1, 0.1, 0.1]}
bounds: {lower: [-$3, -$3, -$3], upper: [$3, $3, $3]}
scene:
  obstacles:
    - {name: o, $2}
start: {xyz: [-$3, -$3, -$3], rpy: [0, 0, 0]}
goal: {xyz: [$3, $3, $3], rpy: [0, 0, 0]}
limits: {time: $TIME_LIMIT}
EOF
}
random="generator: {type: random, count: 40000, polygons: true, region_min: [-49, -49, -49], region_max: [49, 49, 49], min_size: 0.1, max_size: 1"
problem random_separate "$random, separate: true}" 50
problem random_one_mesh "$random, separate: false}" 50
problem spring "generator: {type: spring, turns: 10, segments: 31250, sides: 16}" 5
# The spring's ends lie inside its coil's bounds: start and goal at the corners.
sed -i 's/\[-5, -5, -5\], rpy/[-4.5, -4.5, -4.5], rpy/; s/\[5, 5, 5\], rpy/[4.5, 4.5, 4.5], rpy/' "$work/spring.yaml"

for name in random_separate random_one_mesh spring; do
  code=0
  (ulimit -v 4194304; exec /usr/bin/time -f "%e s %M KB" -o "$work/time.txt" \
    "$PRMKIT" plan "$work/$name.yaml" --threads 1 --out "$work/out_$name") >"$work/log.txt" 2>&1 || code=$?
  printf '%-16s %-20s exit %s  %s\n' "$name" "$(tail -1 "$work/time.txt")" "$code" \
    "$(grep -v '^wrote ' "$work/log.txt" | grep -v '^Command exited' | tail -1)"
done
