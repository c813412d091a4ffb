#!/bin/bash
# Where planning time goes as the roadmap grows: the checker's own time
# against everything else (nearest neighbours, searches, components, the
# sampler's bookkeeping), for lazy_prm and prm with `adaptive` on one thread.
#
#   bench/planner_scale.sh [SAMPLE_LIMITS...]      (default: 1000 10000 100000)
#   ARM_LIMIT_MAX=N: skip the arm above N samples (default 10000: prm checks
#   every edge, about 10 ms of checker time per Panda vertex)
#   PLOT=file.png: also draw planning time split into the checker's and the
#   rest, the share outside the checker, and the time outside it per vertex,
#   against roadmap size (matplotlib)
#
# Rigid body: the shipped bug_trap3d with a rod 0.22 m square in section,
# which cannot pass the 0.2 m exit, so the roadmap grows until the sample
# limit. Arm: the MotionBenchMaker Panda cage problem of ../shared/benchdata
# (third-party data, not shipped; skipped when absent), which neither
# planner solves quickly with seed 2, so the roadmap grows as well (a run
# that solves it stops early; its row says how big the roadmap was; seed 1's
# lazy_prm solves it at about 2 200 vertices). One row per run:
# roadmap size, planning time, checker time and the share outside the checker,
# the time outside the checker per roadmap vertex (microseconds),
# roadmap bytes per vertex and per edge, peak resident memory.
# Needs a Release build (make demo).
set -euo pipefail
cd "$(dirname "$0")/.."
PRMKIT=${PRMKIT:-build/release/app/prmkit}
limits=("$@")
[ ${#limits[@]} -gt 0 ] || limits=(1000 10000 100000)
B=${PRMKIT_BENCHDATA:-../shared/benchdata}/mbm_panda_vamp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rows="$work/rows.jsonl"
row() {  # label stats.json
  python3 - "$1" "$2" "$rows" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
with open(sys.argv[3], "a") as rows:
    rows.write(json.dumps({"run": sys.argv[1], "vertices": s["roadmap_vertices"], "time_s": s["time_s"],
                           "check_time_s": s["check_time_s"]}) + "\n")
outside = 1 - s["check_time_s"] / s["time_s"] if s["time_s"] > 0 else 0
# The planner's own cost per vertex, which a faster checker leaves unchanged (its share grows).
outside_per_vertex = 1e6 * (s["time_s"] - s["check_time_s"]) / max(1, s["roadmap_vertices"])
print(f'{sys.argv[1]:<28} {s["roadmap_vertices"]:>9} {s["roadmap_edges"]:>10} {s["time_s"]:>9.2f} '
      f'{s["check_time_s"]:>9.2f} {100 * outside:>8.1f} {outside_per_vertex:>11.1f} {s["roadmap_bytes_per_vertex"]:>8.0f} '
      f'{s["roadmap_bytes_per_edge"]:>8.0f} {s["peak_resident_bytes"] / 2**20:>8.0f}  {s["status"]}')
PY
}

printf '%-28s %9s %10s %9s %9s %8s %11s %8s %8s %8s  %s\n' run vertices edges "time s" "check s" "out %" "out us/vert" "B/vert" "B/edge" "RSS MiB" status
for planner in lazy_prm prm; do
  for limit in "${limits[@]}"; do
    "$PRMKIT" plan configs/problems/bug_trap3d.yaml --planner "$planner" --checker adaptive --sampler uniform --threads 1 \
        --time-limit 3600 --out "$work/rigid" --set "limits.samples=$limit" \
        --set "robot.geometry.box=[0.7, 0.22, 0.22]" > /dev/null || true
    row "rigid $planner $limit" "$work/rigid/stats.json"
    if [ -d "$B" ] && [ "$limit" -le "${ARM_LIMIT_MAX:-10000}" ]; then
      "$PRMKIT" plan --urdf "$B/panda/panda.urdf" --srdf "$B/panda/panda.srdf" \
          --request "$B/problems/cage_panda/request0001.yaml" --planner "$planner" --checker adaptive --threads 1 --seed 2 \
          --time-limit 3600 --out "$work/arm" --set "limits.samples=$limit" > /dev/null || true
      row "panda $planner $limit" "$work/arm/stats.json"
    fi
  done
done
if [ -n "${PLOT:-}" ] && [ -s "$rows" ]; then
  # Debian's matplotlib, for Debian's python3 (scripts/install-deps.sh).
  /usr/bin/python3 - "$rows" "$PLOT" <<'PY'
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = [json.loads(line) for line in open(sys.argv[1])]
series = sorted({" ".join(r["run"].split()[:2]) for r in rows})
fig, (left, right, own) = plt.subplots(1, 3, figsize=(13, 3.6))
for name in series:
    mine = sorted((r for r in rows if r["run"].startswith(name + " ")), key=lambda r: r["vertices"])
    vertices = [r["vertices"] for r in mine]
    line, = left.plot(vertices, [r["time_s"] for r in mine], marker="o", label=f"{name}: planning")
    left.plot(vertices, [r["check_time_s"] for r in mine], marker="x", linestyle="--", color=line.get_color(),
              label=f"{name}: in the checker")
    right.plot(vertices, [100 * (1 - r["check_time_s"] / r["time_s"]) if r["time_s"] > 0 else 0 for r in mine],
               marker="o", color=line.get_color(), label=name)
    own.plot(vertices, [1e6 * (r["time_s"] - r["check_time_s"]) / max(1, r["vertices"]) for r in mine],
             marker="o", color=line.get_color(), label=name)
left.set_xscale("log")
left.set_yscale("log")
left.set_xlabel("roadmap vertices")
left.set_ylabel("time (s)")
left.legend(fontsize=6)
right.axhline(25, color="grey", linestyle=":", label="target 25%")
right.set_xscale("log")
right.set_ylim(0, 100)
right.set_xlabel("roadmap vertices")
right.set_ylabel("share outside the checker (%)")
right.legend(fontsize=7)
own.set_xscale("log")
own.set_ylim(bottom=0)
own.set_xlabel("roadmap vertices")
own.set_ylabel("outside the checker per vertex (us)")
own.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
print(f"wrote {sys.argv[2]}")
PY
fi
