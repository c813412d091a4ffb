"""Plots of a prmkit compare/sweep result folder (runs.csv): per problem, the
planning-time distribution and the median checking work per combination.
Run with Debian's /usr/bin/python3 and python3-matplotlib:
    /usr/bin/python3 plot_runs.py RESULT_DIR
Writes RESULT_DIR/plot_<problem>.png and .svg."""
import csv
import os
import statistics
import sys
import tempfile
from collections import OrderedDict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def file_stem(name):
    """The file name stem prmkit's fileStem makes (io/output_text.h), byte by byte
    over the UTF-8 name: a problem's name comes from input, so it may not point
    outside the folder."""
    stem = "".join(chr(b) if (b < 128 and chr(b).isalnum()) or chr(b) in "-_." else "_"
                   for b in name.encode("utf-8")[:100])
    stem = "_" * (len(stem) - len(stem.lstrip("."))) + stem.lstrip(".")
    return stem or "unnamed"


def save(fig, path):
    """Written under a fresh name beside `path` (O_EXCL, prmkit's temporary
    prefix) and renamed over it: a symlink planted at `path` is replaced, never
    followed, and a killed run leaves no half-written picture."""
    fd, temporary = tempfile.mkstemp(prefix=".prmkit-tmp-", dir=path.parent)
    try:
        os.fchmod(fd, 0o644)  # as prmkit's other outputs (mkstemp makes 0600)
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=path.suffix[1:], dpi=120)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def main(folder):
    folder = Path(folder)
    with open(folder / "runs.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if not r["failure"]]
    problems = OrderedDict()
    for r in rows:
        problems.setdefault(r["problem"], OrderedDict()).setdefault(r["combination"], []).append(r)
    for problem, combos in problems.items():
        names = list(combos)
        fig, (times_ax, work_ax) = plt.subplots(1, 2, figsize=(6 + 0.9 * len(names), 5))
        times = [[float(r["time_s"]) for r in combos[n]] for n in names]
        times_ax.boxplot(times, labels=names, showfliers=True)
        times_ax.set_yscale("log")
        times_ax.set_ylabel("planning time (s), all runs")
        labels = []
        for n in names:
            runs = combos[n]
            solved = sum(r["solved"] == "1" for r in runs)
            unsafe = sum(r["unsafe"] == "1" for r in runs)
            labels.append(f"{n}\n{solved}/{len(runs)} solved, {unsafe} unsafe")
        times_ax.set_xticks(range(1, len(names) + 1), labels, rotation=35, ha="right", fontsize=7)
        times_ax.set_title(f"{problem}: time per run")
        width = 0.4
        for offset, (column, label) in enumerate([("static_queries", "static checks"), ("bv_tests", "BV tests")]):
            medians = [statistics.median(float(r[column]) for r in combos[n]) for n in names]
            work_ax.bar([i + (offset - 0.5) * width for i in range(len(names))], [max(m, 0.5) for m in medians],
                        width, label=label)
        work_ax.set_yscale("log")
        work_ax.set_ylabel("median count per run")
        work_ax.set_xticks(range(len(names)), names, rotation=35, ha="right", fontsize=7)
        work_ax.legend()
        work_ax.set_title(f"{problem}: checking work per run")
        fig.tight_layout()
        for ext in ("png", "svg"):
            out = folder / f"plot_{file_stem(problem)}.{ext}"
            save(fig, out)
            print(f"wrote {out}")
        plt.close(fig)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: plot_runs.py RESULT_DIR")
    main(sys.argv[1])
