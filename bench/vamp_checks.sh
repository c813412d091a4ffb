#!/bin/bash
# Per motion: VAMP's own motion checks against prmkit's `spheres` (VAMP's
# spheres and step) and `adaptive` on the same motions, in one run: the
# first problem of each MotionBenchMaker scenario, motions between free
# random configurations at most 1 rad long, as VAMP's driver draws them from
# N configurations and writes them for `prmkit check --edges`. Prints a
# Markdown table of medians per motion and the ratios to VAMP's; then one of
# static checks: the free configurations VAMP's driver times one at a time
# (and in its batches of 8), checked by `prmkit check --configs` with
# `spheres`, with the exact `adaptive` (the check `certify: path`
# certifies with) and with `spheres` at `certify: containing` (exact: the
# certified filter), each configuration judged again on the collision meshes.
#
#   bench/vamp_checks.sh [N] [OUT]   (defaults: 2000 configurations; out/vamp_checks)
#
# Needs a Release build, ../shared/benchdata and ../shared/peers (set
# PRMKIT_BENCHDATA and PRMKIT_PEERS elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=$(realpath "${PRMKIT:-build/release/app/prmkit}")
N=${1:-2000}
OUT=${2:-out/vamp_checks}
B=$(realpath "${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp")
PEER=$(realpath "${PRMKIT_PEERS:-../shared/peers}/vamp")
for needed in "$B" "$PEER"; do
  [ -d "$needed" ] || { echo "vamp_checks: $needed is absent (set PRMKIT_BENCHDATA, PRMKIT_PEERS)" >&2; exit 2; }
done
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
[ -x "$OUT/vamp/vamp_mbm" ] || "$PEER/build.sh" "$OUT/vamp" >"$OUT/vamp_build.log" 2>&1
requests=("$B"/problems/*/request0001.yaml)
"$OUT/vamp/vamp_mbm" checks "$OUT" "$N" 1 "${requests[@]}" >"$OUT/vamp.jsonl"
robot=(--urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf" --set "robot.spheres=$B/panda/panda_spherized.urdf")
median_us() {  # request edges-file checker-args... -> median us per edge
  local request=$1 edges=$2; shift 2
  "$PRMKIT" check "$request" "${robot[@]}" --edges "$edges" --out "$OUT/verdicts.csv" "$@" | awk '
    /us per edge/ { for (i = 1; i <= NF; i++) if ($i == "us") us = $(i - 1) }
    END { print us }'
}
: >"$OUT/prmkit.txt"
: >"$OUT/static.txt"
for request in "${requests[@]}"; do
  name="$(basename "$(dirname "$request")")-1"
  for kind in edges; do
    spheres=$(median_us "$request" "$OUT/$name.$kind.csv" --checker spheres --set checker.spheres.resolution=0.0024)
    adaptive=$(median_us "$request" "$OUT/$name.$kind.csv" --checker adaptive)
    containing=$(median_us "$request" "$OUT/$name.$kind.csv" --checker spheres --set checker.spheres.certify=containing)
    echo "$name $kind $spheres $adaptive $containing" >>"$OUT/prmkit.txt"
  done
  # VAMP's free configurations (the a ends of its zero-length edges) as a configurations CSV.
  cut -d, -f1-7 "$OUT/$name.zero.csv" | sed '1s/a\.//g' >"$OUT/$name.configs.csv"
  for checker in spheres adaptive containing; do
    args=(--checker "$checker")
    [ "$checker" = spheres ] && args+=(--set checker.spheres.resolution=0.0024)
    [ "$checker" = containing ] && args=(--checker spheres --set checker.spheres.certify=containing)
    "$PRMKIT" check "$request" "${robot[@]}" --configs "$OUT/$name.configs.csv" "${args[@]}" | awk -v name="$name" \
      -v checker="$checker" '
      /us per configuration/ { for (i = 1; i <= NF; i++) if ($i == "median") us = $(i + 1) }
      /^verdicts:/ { invalid = $4 }
      /exact check on the meshes/ { for (i = 1; i <= NF; i++) if ($i == "misses") misses = $(i - 1) }
      END { print name, checker, us, misses, invalid }' >>"$OUT/static.txt"
  done
done
/usr/bin/python3 - "$OUT" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
vamp = {r["problem"].rsplit("-", 1)[0] + "-1": r for r in map(json.loads, (out / "vamp.jsonl").read_text().splitlines())}
print("| problem | VAMP (us) | spheres (us) | adaptive (us) | containing (us) | spheres / VAMP | adaptive / VAMP | "
      "containing / VAMP |")
print("|---|---|---|---|---|---|---|---|")
rows = {}
for line in (out / "prmkit.txt").read_text().splitlines():
    name, kind, spheres, adaptive, containing = line.split()
    rows.setdefault(name, {})[kind] = (float(spheres), float(adaptive), float(containing))
for name, kinds in rows.items():
    v = vamp[name]
    vm = v["motion_median_ns"] / 1000
    ms, ma, mc = kinds["edges"]
    print(f"| {name} | {vm:.2f} | {ms:.2f} | {ma:.2f} | {mc:.2f} | {ms / vm:.1f} | {ma / vm:.1f} | {mc / vm:.1f} |")
print()
print("| problem | VAMP-free configurations | VAMP one at a time (us) | VAMP in batches of 8 (us each) | spheres (us) | "
      "adaptive (us) | containing (us) | spheres / VAMP | adaptive / VAMP | containing / VAMP | invalid for adaptive | "
      "spheres' misses | containing's misses |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
static = {}
for line in (out / "static.txt").read_text().splitlines():
    name, checker, us, misses, invalid = line.split()
    static.setdefault(name, {})[checker] = (float(us), int(misses), int(invalid))
for name, checkers in static.items():
    v = vamp[name]
    single, raked = v["single_free_ns"] / 1000, v["raked_ns_per_config"] / 1000
    (ss, sm, _), (sa, _, ai), (sc, cm, _) = checkers["spheres"], checkers["adaptive"], checkers["containing"]
    # adaptive is exact: what it calls invalid, VAMP called free (links in obstacles, or the SRDF's self pairs
    # VAMP leaves out); the spheres' misses are configurations spheres calls free that collide on the meshes.
    print(f"| {name} | {v['free_configs']} | {single:.3f} | {raked:.3f} | {ss:.3f} | {sa:.3f} | {sc:.3f} | "
          f"{ss / single:.1f} | {sa / single:.1f} | {sc / single:.1f} | {ai} | {sm} | {cm} |")
PY
