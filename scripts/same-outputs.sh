#!/usr/bin/env bash
# Plans every shipped problem (configs/problems/*.yaml, seed 1, the wall-clock
# limit lifted so only the seed and the sample limits decide) with two prmkit
# binaries and diffs what must not change when code is reorganised: path.csv,
# path.txt and every counter of stats.json (times and memory left out; a key
# only the new binary writes is an addition, not a difference).
#   [PLANNER=NAME] [CHECKER=NAME] scripts/same-outputs.sh OLD_PRMKIT NEW_PRMKIT [PROBLEM.yaml...]
# PLANNER and CHECKER plan every problem with that planner or checker instead of its own.
# Exits 0 when every output agrees, 1 otherwise (printing the differences).
set -uo pipefail
old=${1:?old prmkit binary}
new=${2:?new prmkit binary}
shift 2
cd "$(dirname "$0")/.."
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(configs/problems/*.yaml)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for problem in "${problems[@]}"; do
  name=$(basename "$problem" .yaml)
  for side in old new; do
    binary=$old
    [ "$side" = new ] && binary=$new
    mkdir -p "$work/$side/$name"
    "$binary" plan "$problem" --seed 1 ${PLANNER:+--planner "$PLANNER"} ${CHECKER:+--checker "$CHECKER"} --set limits.time=3600 --out "$work/$side/$name" \
      >"$work/$side-$name.log" 2>&1
    echo $? >"$work/$side/$name.code"
  done
  if ! /usr/bin/python3 - "$work/old/$name" "$work/new/$name" "$name" <<'PY'
import json, pathlib, re, sys
old, new, name = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
volatile = re.compile(r"(time|_s$|bytes|resident)")
# The command line names each binary's own output folder.
where = {"command_line"}
def counters(folder):
    path = folder / "stats.json"
    if not path.exists():
        return None
    return {k: v for k, v in json.loads(path.read_text()).items() if not volatile.search(k) and k not in where}
problems = []
if (old.parent / f"{name}.code").read_text() != (new.parent / f"{name}.code").read_text():
    problems.append("exit codes differ")
for file in ("path.csv", "path.txt"):
    a, b = old / file, new / file
    if a.exists() and b.exists() and a.read_text() != b.read_text():
        problems.append(f"{file} differs")
    elif a.exists() != b.exists() and file == "path.csv":
        problems.append(f"{file} written by one binary only")
a, b = counters(old), counters(new)
# A key the new binary adds is new output, not a changed one; a key it drops or changes is reported.
if (a is None) != (b is None) or any(k not in (b or {}) or (b or {})[k] != v for k, v in (a or {}).items()):
    keys = sorted(set(a or {}) | set(b or {}))
    diff = [k for k in keys if k in (a or {}) and (a or {}).get(k) != (b or {}).get(k)]
    problems.append("stats.json differs in " + ", ".join(f"{k} ({(a or {}).get(k)} -> {(b or {}).get(k)})" for k in diff))
print(f"{name}: " + ("same" if not problems else "; ".join(problems)))
sys.exit(1 if problems else 0)
PY
  then
    status=1
  fi
done
exit $status
