#!/bin/bash
# Instructions a stack spends, counted by callgrind (the same on a loaded
# machine as on an idle one, so two builds or two settings compare run by
# run), on MotionBenchMaker Panda problems of ../shared/benchdata (third-party
# data, not shipped), seeds 1-3, one thread, through the Python module.
#
#   bench/certification_profile.sh SELECTION [SETTING=VALUE...]
#     SELECTION: box10           box_panda's first ten problems
#                per-scenario:N  the first N problems of each of the 7 scenarios
#                median:OUT      25 problems whose times in a bench/vamp_peer.sh
#                                output OUT are within a fifth of the medians of
#                                both its rrt_connect + spheres stacks
#     SETTING=VALUE: problem settings, e.g. checker.adaptive.distance_relative_error=4
#   STACK=certified (default): rrt_connect + spheres with certify: path, on
#       VAMP's spheres and step, as bench/vamp_peer.sh runs it;
#       STACK=lazy_adaptive: lazy_prm + adaptive (the default)
#   COUNT=certification (default): Planner::confirmTentative alone;
#       COUNT=run: the whole of Planner::solve
#
# Prints the instructions counted, the solved runs and the verification
# failures; the callgrind file is left in $OUT (default: a temporary folder)
# for callgrind_annotate. Needs a Release build (make demo) and valgrind
# (apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
SELECTION=${1:?"usage: bench/certification_profile.sh SELECTION [SETTING=VALUE...]"}
shift
B=$(realpath "${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp")
[ -d "$B" ] || { echo "certification_profile: $B is absent (set PRMKIT_BENCHDATA)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "certification_profile: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
STACK=${STACK:-certified}
case ${COUNT:-certification} in
  certification) toggle='prmkit::Planner::confirmTentative*' ;;
  run) toggle='prmkit::Planner::solve*' ;;
  *) echo "certification_profile: COUNT is certification or run" >&2; exit 2 ;;
esac
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT/problems"
[ -d "$OUT/problems/problems" ] || tar xjf "$B/problems.tar.bz2" -C "$OUT/problems"

valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" --toggle-collect="$toggle" \
  /usr/bin/python3 - "$B" "$OUT/problems/problems" "$SELECTION" "$STACK" "$@" 2>"$OUT/valgrind.log" <<'PY'
import glob, json, pathlib, statistics, sys
sys.path.insert(0, "build/release/python")
import prmkit

bench, problems, selection, stack, *settings = sys.argv[1:]
scenarios = sorted(glob.glob(problems + "/*"))
if selection == "box10":
    requests = sorted(glob.glob(problems + "/box_panda/request*.yaml"))[:10]
elif selection.startswith("per-scenario:"):
    count = int(selection.split(":", 1)[1])
    requests = [r for s in scenarios for r in sorted(glob.glob(s + "/request*.yaml"))[:count]]
elif selection.startswith("median:"):
    out = pathlib.Path(selection.split(":", 1)[1])
    def times(name):
        runs = [json.loads(line) for line in (out / name / "runs.jsonl").read_text().splitlines()]
        return {pathlib.Path(r["problem_id"]).parent.name + "/" + pathlib.Path(r["problem_id"]).name: r["time_s"]
                for r in runs}
    plain, certified = times("spheres_rrt_connect"), times("spheres_rrt_connect_certified")
    mp, mc = statistics.median(plain.values()), statistics.median(certified.values())
    near = sorted(k for k in plain if abs(plain[k] / mp - 1) < 0.2 and abs(certified.get(k, 0) / mc - 1) < 0.2)
    requests = [problems + "/" + k for k in near[::max(1, len(near) // 25)][:25]]
else:
    sys.exit("certification_profile: SELECTION is box10, per-scenario:N or median:OUT")

values = {"limits.samples": "1000000"}
if stack == "certified":
    planner, checker = "rrt_connect", "spheres"
    values.update({"robot.spheres": bench + "/panda/panda_spherized.urdf", "checker.spheres.resolution": "0.0024",
                   "checker.spheres.certify": "path"})
elif stack == "lazy_adaptive":
    planner, checker = "lazy_prm", "adaptive"
    del values["limits.samples"]
else:
    sys.exit("certification_profile: STACK is certified or lazy_adaptive")
for setting in settings:
    key, value = setting.split("=", 1)
    values[key] = value

solved = failures = runs = 0
for request in requests:
    problem = prmkit.Problem.load(request, urdf=bench + "/panda/panda.urdf", srdf=bench + "/panda/panda.srdf",
                                  scene=request.replace("request", "scene"), settings=values)
    for seed in (1, 2, 3):
        result = problem.plan(planner=planner, checker=checker, seed=seed, threads=1)
        runs += 1
        solved += int(result.solved)
        failures += result.stats["verification_failures"]
print(f"{len(requests)} problems, {runs} runs: {solved} solved, {failures} verification failures")
PY
collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$OUT/valgrind.log")
echo "instructions ($STACK, ${COUNT:-certification}): $collected"
echo "callgrind file: $OUT/callgrind.out"
