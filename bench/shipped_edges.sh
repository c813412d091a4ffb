#!/bin/bash
# Per-edge cost of the exact `adaptive` checker against `discrete` at 1% of
# the C-space extent on every shipped problem, in one run (ratios, since
# these machines are noisy). For the MotionBenchMaker Panda problems see
# bench/panda_edges.sh; for misses against a ground truth,
# bench/adaptive_vs_discrete.sh.
#
#   bench/shipped_edges.sh [EDGES]        (default: 2000 edges per problem)
#   PROBLEMS="boxes3000 house"            only these shipped problems
#   REPEATS=3                             each check this many times, interleaved
#   BASELINE=/path/to/older/prmkit        the same checks with another build,
#                                         interleaved with this one's
#   MORE="spheres swept"                  more strategies, each a column and its ratio to discrete
#
# Per problem: EDGES random edges (seed 1) between valid configurations, at
# most 10% of the C-space extent long; the median and the mean of the
# checker's own time per edge (the median over the repeats of each). Needs
# a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
EDGES=${1:-2000}
REPEATS=${REPEATS:-1}
BASELINE=${BASELINE:-}
if [ -n "${PROBLEMS:-}" ]; then
  problems=()
  for name in $PROBLEMS; do problems+=("configs/problems/$name.yaml"); done
else
  problems=(configs/problems/*.yaml)
fi
read -r -a more <<<"${MORE:-}"
builds=("$PRMKIT")
[ -n "$BASELINE" ] && builds+=("$BASELINE")

times_us() {  # build problem checker -> "mean median" us per edge
  "$1" check "$2" --random "$EDGES" --max-length-fraction 0.1 --seed 1 --checker "$3" | awk '
    /us per edge/ { n = 0; for (i = 1; i <= NF; i++) if ($i == "us") { if (n++ == 0) mean = $(i - 1); else median = $(i - 1) } }
    END { print mean, median }'
}

{
  for problem in "${problems[@]}"; do
    for repeat in $(seq "$REPEATS"); do
      for build in "${builds[@]}"; do
        for checker in discrete adaptive "${more[@]}"; do
          echo "$(basename "$problem" .yaml) $build $checker $(times_us "$build" "$problem" "$checker")"
        done
      done
    done
  done
} | MORE="${MORE:-}" python3 -c '
import os, statistics, sys
more = os.environ["MORE"].split()
runs = {}
for line in sys.stdin:
    problem, build, checker, mean, median = line.split()
    runs.setdefault((problem, build, checker), []).append((float(mean), float(median)))
builds = list(dict.fromkeys(b for (_, b, _) in runs))
head = "| problem | discrete 1%: median / mean us per edge | adaptive: median / mean | adaptive / discrete: median, mean |"
rule = "|---|---|---|---|"
for checker in more:
    head += f" {checker}: median / mean | {checker} / discrete: median, mean |"
    rule += "---|---|"
if len(builds) > 1:
    head += " baseline adaptive / discrete: median, mean |"
    rule += "---|"
print(head)
print(rule)
for problem in dict.fromkeys(p for (p, _, _) in runs):
    cells = []
    for i, build in enumerate(builds):
        d = runs[(problem, build, "discrete")]
        a = runs[(problem, build, "adaptive")]
        dm, dmean = statistics.median(x[1] for x in d), statistics.median(x[0] for x in d)
        am, amean = statistics.median(x[1] for x in a), statistics.median(x[0] for x in a)
        if i == 0:
            cells += [f"{dm:.1f} / {dmean:.1f}", f"{am:.1f} / {amean:.1f}", f"{am / dm:.2f}, {amean / dmean:.2f}"]
            for checker in more:
                o = runs[(problem, build, checker)]
                om, omean = statistics.median(x[1] for x in o), statistics.median(x[0] for x in o)
                cells += [f"{om:.1f} / {omean:.1f}", f"{om / dm:.2f}, {omean / dmean:.2f}"]
        else:
            cells.append(f"{am / dm:.2f}, {amean / dmean:.2f}")
    print("| " + problem + " | " + " | ".join(cells) + " |")
'
