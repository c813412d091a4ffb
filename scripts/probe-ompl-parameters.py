#!/usr/bin/env python3
"""Every OMPL planner's every parameter at hostile values, on one problem.

For each `ompl:NAME` planner and each of its parameters (`prmkit list planners
--json`), plans PROBLEM with the parameter at 0, -1, +-1e300, nan, +-inf,
1e-300, 1e-7, 1e9, integers past 32 and 64 bits and the ends of OMPL's own
range suggestion, with `planner.first_solution` true and false, a 1 s time
limit, one thread and 4 GB of address space. Prints one JSON line per run
(planner, parameter, value, first_solution, exit code, seconds, last line of
standard error), `BAD` in front of a run that crashed (exit code not 0, 1 or
2) or ended more than 4 s past its limit; exits 1 if any did.

  scripts/probe-ompl-parameters.py PRMKIT [PROBLEM.yaml] [--planner ompl:NAME]... [--workers N]
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

LIMIT = 1.0
GRACE = 4.0
VALUES = ["0", "-1", "1e300", "-1e300", "nan", "inf", "-inf", "1e-300", "4294967297", "2147483648",
          "18446744073709551615", "-2147483649", "0.0000001", "1e9"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prmkit")
    parser.add_argument("problem", nargs="?", default="configs/problems/maze2d.yaml")
    parser.add_argument("--planner", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    listed = subprocess.run([args.prmkit, "list", "planners", "--json"], capture_output=True, text=True, check=True)
    runs = []
    for planner in json.loads(listed.stdout):
        name = planner["name"]
        if not name.startswith("ompl:") or (args.planner and name not in args.planner):
            continue
        for setting in planner["settings"]:
            values = list(VALUES)
            accepts = setting.get("accepts", "")
            if accepts.startswith("suggested "):
                suggestion = accepts.split()[1]
                parts = suggestion.split(":") if ":" in suggestion else suggestion.split(",")
                values += [parts[0], parts[-1]]
            for value in values:
                for first in ("true", "false"):
                    runs.append((name, setting["name"], value, first))
    out = tempfile.mkdtemp(prefix="prmkit-probe-")

    def run(job):
        name, parameter, value, first = job
        folder = f"{out}/{name[5:]}-{parameter}-{len(value)}-{abs(hash(value))}-{first}"
        command = ["bash", "-c", 'ulimit -v 4194304; exec "$@"', "probe", args.prmkit, "plan", args.problem,
                   "--planner", name, "--time-limit", str(LIMIT), "--threads", "1", "--out", folder,
                   "--set", f"planner.parameters.{parameter}={value}", "--set", f"planner.first_solution={first}"]
        started = time.monotonic()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=LIMIT + 60)
            code, last = done.returncode, (done.stderr.strip().splitlines() or [""])[-1]
        except subprocess.TimeoutExpired:
            code, last = "timeout", ""
        return [name, parameter, value, first, code, round(time.monotonic() - started, 2), last[:200]]

    bad = 0
    with ThreadPoolExecutor(args.workers) as pool:
        for result in pool.map(run, runs):
            failed = result[4] not in (0, 1, 2) or result[5] > LIMIT + GRACE
            bad += failed
            print(("BAD " if failed else "ok  ") + json.dumps(result), flush=True)
    shutil.rmtree(out, ignore_errors=True)
    print(f"probe: {len(runs) - bad} of {len(runs)} runs ended cleanly", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
