#!/bin/bash
# VAMP (Thomason, Kingston & Kavraki, ICRA 2024) beside prmkit on
# MotionBenchMaker's Panda problems, one run, one thread each: VAMP's
# RRT-Connect on its spheres (built from ../shared/peers/vamp, offline), then
# prmkit's `spheres` strategy on VAMP's spheres and VAMP's step (1/32 rad:
# resolution 0.0024 of the Panda's 13 rad extent) with prmkit's rrt_connect,
# uncertified, with `certify: path` and with `certify: containing`, lazy_prm
# with both, and the default lazy_prm + adaptive. The stacks take turns
# problem folder by problem folder (a scenario each), so that a machine that
# slows down for a while slows every stack alike and same-run ratios hold.
# Every returned path, VAMP's raw and simplified ones included, is judged by
# `prmkit verify` on the Panda's collision meshes. Prints a Markdown table
# (solved, median planning time, unsafe paths, ratio of medians to VAMP's)
# and leaves everything in OUT (each stack's runs in OUT/STACK/runs.jsonl).
#
#   bench/vamp_peer.sh [OUT] [PROBLEM_FOLDERS...]
#       (defaults: out/vamp_peer; all 700 problems, extracted from the archive)
#   STACKS="spheres_rrt_connect lazy_prm_adaptive ...": only these prmkit
#       stacks (default: all six, named as in run below)
#   BASELINE=REV: also the default lazy_prm + adaptive of prmkit at git
#       revision REV (built once into OUT/baseline from a worktree of this
#       repository), in the same turns: the default as it was, beside today's
#
# Needs a Release build (make demo), ../shared/benchdata and ../shared/peers
# (third-party data and source, never copied here; set PRMKIT_BENCHDATA and
# PRMKIT_PEERS elsewhere). Takes about 50 minutes for the 700 and four stacks on
# two cores (BASELINE's build adds about 15).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=$(realpath "${PRMKIT:-build/release/app/prmkit}")
OUT=${1:-out/vamp_peer}
shift || true
B=$(realpath "${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp")
PEER=$(realpath "${PRMKIT_PEERS:-../shared/peers}/vamp")
for needed in "$B" "$PEER"; do
  [ -d "$needed" ] || { echo "vamp_peer: $needed is absent (set PRMKIT_BENCHDATA, PRMKIT_PEERS)" >&2; exit 2; }
done
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
folders=("$@")
if [ ${#folders[@]} -eq 0 ]; then
  mkdir -p "$OUT/problems"
  [ -d "$OUT/problems/problems" ] || tar xjf "$B/problems.tar.bz2" -C "$OUT/problems"
  folders=("$OUT"/problems/problems/*/)
fi
[ -x "$OUT/vamp/vamp_mbm" ] || "$PEER/build.sh" "$OUT/vamp" >"$OUT/vamp_build.log" 2>&1
requests=()
for folder in "${folders[@]}"; do requests+=("${folder%/}"/request*.yaml); done
robot=(--urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf")
spheres=(--checker spheres --set "robot.spheres=$B/panda/panda_spherized.urdf" --set checker.spheres.resolution=0.0024)

if [ -n "${BASELINE:-}" ] && [ ! -x "$OUT/baseline/prmkit" ]; then
  echo "baseline: building prmkit at $BASELINE" >&2
  rm -rf "$OUT/baseline"
  mkdir -p "$OUT/baseline"
  git worktree add --detach "$OUT/baseline/src" "$BASELINE" >"$OUT/baseline/build.log" 2>&1
  cmake -S "$OUT/baseline/src" -B "$OUT/baseline/build" -DCMAKE_BUILD_TYPE=Release -DPRMKIT_BUILD_TESTS=OFF \
    >>"$OUT/baseline/build.log" 2>&1
  cmake --build "$OUT/baseline/build" --target prmkit -j"$(nproc)" >>"$OUT/baseline/build.log" 2>&1
  cp "$OUT/baseline/build/app/prmkit" "$OUT/baseline/prmkit"
  git worktree remove --force "$OUT/baseline/src"
fi

STACKS=${STACKS:-spheres_rrt_connect spheres_rrt_connect_certified spheres_lazy_prm_certified
  spheres_rrt_connect_containing spheres_lazy_prm_containing lazy_prm_adaptive}
[ -n "${BASELINE:-}" ] && STACKS="$STACKS lazy_prm_adaptive_baseline"
run() {  # folder, stack name, binary, prmkit benchmark-set arguments...
  local folder=$1 name=$2 binary=$3; shift 3
  [[ " $(echo $STACKS) " == *" $name "* ]] || return 0
  local part
  part=$(basename "$folder")
  "$binary" benchmark-set "$folder" "${robot[@]}" --jobs 1 --time-limit 10 --out "$OUT/$name/parts/$part" "$@" \
    >>"$OUT/$name.log" 2>&1
}
# VAMP's driver allows a million iterations; rrt_connect's dynamic domains
# pass over samples too, and each counts against limits.samples.
tree=(--planner rrt_connect --set limits.samples=1000000)
: >"$OUT/vamp.jsonl"
mkdir -p "$OUT/vamp_paths"
for stack in $STACKS; do rm -rf "${OUT:?}/$stack"; : >"$OUT/$stack.log"; done
for folder in "${folders[@]}"; do
  folder=${folder%/}
  echo "$(basename "$folder"): VAMP and prmkit's stacks" >&2
  "$OUT/vamp/vamp_mbm" plan "$OUT/vamp_paths" "$folder"/request*.yaml >>"$OUT/vamp.jsonl"
  run "$folder" spheres_rrt_connect "$PRMKIT" "${spheres[@]}" "${tree[@]}"
  run "$folder" spheres_rrt_connect_certified "$PRMKIT" "${spheres[@]}" "${tree[@]}" --set checker.spheres.certify=path
  run "$folder" spheres_lazy_prm_certified "$PRMKIT" "${spheres[@]}" --set checker.spheres.certify=path
  run "$folder" spheres_rrt_connect_containing "$PRMKIT" "${spheres[@]}" "${tree[@]}" \
    --set checker.spheres.certify=containing
  run "$folder" spheres_lazy_prm_containing "$PRMKIT" "${spheres[@]}" --set checker.spheres.certify=containing
  run "$folder" lazy_prm_adaptive "$PRMKIT" --checker adaptive
  run "$folder" lazy_prm_adaptive_baseline "$OUT/baseline/prmkit" --checker adaptive
done
for stack in $STACKS; do
  [ -d "$OUT/$stack/parts" ] || continue
  cat "$OUT/$stack"/parts/*/runs.jsonl >"$OUT/$stack/runs.jsonl"
done

echo "verify: VAMP's paths" >&2
: >"$OUT/vamp_verify.txt"
for request in "${requests[@]}"; do
  folder=$(basename "$(dirname "$request")")
  id=$(basename "$request" .yaml); id=${id#request}
  for kind in raw simplified; do
    path="$OUT/vamp_paths/$folder-$id.$kind.csv"
    [ -f "$path" ] || continue
    # Exit 1 is a collision; anything else (bad input, a binary that did not
    # start) is no verdict, kept apart so that it is not counted as unsafe.
    status=0
    "$PRMKIT" verify "$request" "${robot[@]}" "$path" >/dev/null 2>&1 || status=$?
    case $status in
      0) verdict=safe ;;
      1) verdict=unsafe ;;
      *) verdict=error; echo "vamp_peer: verify exited $status on $path" >&2 ;;
    esac
    echo "$folder-$id $kind $verdict" >>"$OUT/vamp_verify.txt"
  done
done

/usr/bin/python3 - "$OUT" "${BASELINE:-}" <<'PY'
import json, pathlib, statistics, sys
out = pathlib.Path(sys.argv[1])
baseline = sys.argv[2]
vamp = [json.loads(line) for line in (out / "vamp.jsonl").read_text().splitlines() if line.startswith("{")]
problems = len(vamp)
vamp = [r for r in vamp if "planning_ns" in r]  # the problems VAMP planned (it skips what it calls invalid)
verdicts = {}
errors = 0
for line in (out / "vamp_verify.txt").read_text().splitlines():
    problem, kind, verdict = line.split()
    errors += verdict == "error"
    verdicts.setdefault(kind, []).append(verdict == "unsafe")
if errors:
    print(f"vamp_peer: {errors} of VAMP's paths got no verdict (verify did not run; see vamp_verify.txt): "
          "their unsafe counts are too low", file=sys.stderr)
vamp_median = statistics.median(r["planning_ns"] * 1e-9 for r in vamp)
rows = [("VAMP RRT-Connect, its spheres (raw paths)", sum(r["solved"] for r in vamp), problems, vamp_median,
         sum(verdicts.get("raw", []))),
        ("VAMP, after its simplification", sum(r["solved"] for r in vamp), problems, None,
         sum(verdicts.get("simplified", [])))]
names = {"spheres_rrt_connect": "prmkit rrt_connect + spheres (VAMP's spheres and step)",
         "spheres_rrt_connect_certified": "prmkit rrt_connect + spheres, certify: path",
         "spheres_lazy_prm_certified": "prmkit lazy_prm + spheres, certify: path",
         "spheres_rrt_connect_containing": "prmkit rrt_connect + spheres, certify: containing",
         "spheres_lazy_prm_containing": "prmkit lazy_prm + spheres, certify: containing",
         "lazy_prm_adaptive": "prmkit lazy_prm + adaptive (the default)",
         "lazy_prm_adaptive_baseline": f"prmkit lazy_prm + adaptive at {baseline} (the default then)"}
for name, label in names.items():
    if not (out / name / "runs.jsonl").exists():
        continue  # a stack left out (STACKS)
    runs = [json.loads(line) for line in (out / name / "runs.jsonl").read_text().splitlines()]
    rows.append((label, sum(r["solved"] for r in runs), len(runs), statistics.median(r["time_s"] for r in runs),
                 sum(bool(r.get("unsafe")) for r in runs)))
print("| stack (one thread) | solved | median planning time (us) | unsafe paths | median / VAMP's |")
print("|---|---|---|---|---|")
for label, solved, count, median, unsafe in rows:
    time = f"{median * 1e6:.0f}" if median is not None else "-"
    ratio = f"{median / vamp_median:.1f}" if median is not None else "-"
    print(f"| {label} | {solved}/{count} | {time} | {unsafe} | {ratio} |")
PY
