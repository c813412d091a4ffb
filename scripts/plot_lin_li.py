#!/usr/bin/python3
"""Plots the tables `prmkit experiment configs/experiments/lin_li.yaml` wrote.

usage: scripts/plot_lin_li.py DIR   (reads DIR/table1.csv and DIR/table2.csv, writes DIR/lin_li.png and .svg)
Needs Debian's python3-matplotlib for /usr/bin/python3 (`make lin-li` installs it).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(folder):
    with open(f"{folder}/table1.csv") as f:
        table1 = list(csv.DictReader(f))
    with open(f"{folder}/table2.csv") as f:
        table2 = list(csv.DictReader(f))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    budgets = [int(r["budget_bv_tests"]) for r in table1]
    left.plot(budgets, [float(r["bf_mean_confidence_percent"]) for r in table1], "o-", label="best-first (coherence)")
    left.plot(budgets, [float(r["df_mean_confidence_percent"]) for r in table1], "s--", label="depth-first")
    left.set_xlabel("budget (BV tests per check)")
    left.set_ylabel("mean confidence of checks out of budget (%)")
    left.set_title("Table 1")
    left.legend()
    buckets = [r["confidence_percent"] for r in table2]
    positions = range(len(buckets))
    for offset, prefix, label in ((-0.2, "bf", "best-first"), (0.2, "df", "depth-first")):
        free = [int(r[f"{prefix}_free"]) for r in table2]
        colliding = [int(r[f"{prefix}_colliding"]) for r in table2]
        right.bar([p + offset for p in positions], free, width=0.4, label=f"{label}: free")
        right.bar([p + offset for p in positions], colliding, width=0.4, bottom=free, label=f"{label}: colliding")
    right.set_xticks(list(positions))
    right.set_xticklabels(buckets, rotation=45)
    right.set_xlabel("confidence (%)")
    right.set_ylabel("checks out of budget (count)")
    right.set_title("Table 2 (FCL's exact verdict)")
    right.legend(fontsize=7)
    fig.tight_layout()
    for extension in ("png", "svg"):
        fig.savefig(f"{folder}/lin_li.{extension}")
        print(f"wrote {folder}/lin_li.{extension}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
