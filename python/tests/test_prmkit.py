"""The Python module against the command line: the same seed gives the same
path and counters, check_edges gives the verdicts of `prmkit check --edges`.
Run by CTest (python_module) with PYTHONPATH at the built module and
PRMKIT_BINARY, PRMKIT_SOURCE_DIR set."""
import csv
import json
import os
import subprocess
import threading

import numpy as np
import pytest

import prmkit

BINARY = os.environ["PRMKIT_BINARY"]
SOURCE = os.environ["PRMKIT_SOURCE_DIR"]


def problem_file(name):
    return os.path.join(SOURCE, "configs", "problems", name + ".yaml")


def cli(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, check=False)


# Timings and the process's memory differ between two runs; everything else must not.
VARYING = {"time_s", "setup_time_s", "search_time_s", "check_time_s", "peak_memory_bytes", "time_us"}


def counters(stats):
    return {k: v for k, v in stats.items() if k not in VARYING and not k.endswith("_time_s")}


@pytest.mark.parametrize("name,planner", [("maze2d", "lazy_prm"), ("thin_wall", "prm"), ("maze2d", "ompl:RRTConnect")])
def test_plan_matches_the_command_line(tmp_path, name, planner):
    problem = prmkit.Problem.load(problem_file(name))
    result = problem.plan(planner=planner, seed=3, threads=1, time_limit=3600)
    assert result.solved
    assert result.status == "solved"
    assert result.path.shape[1] == len(problem.coordinates)
    assert problem.verify(result.path)["valid"]

    out = tmp_path / "cli"
    run = cli("plan", problem_file(name), "--planner", planner, "--seed", "3", "--threads", "1", "--time-limit", "3600",
              "--out", str(out))
    assert run.returncode == 0, run.stderr
    with open(out / "path.csv") as f:
        rows = list(csv.reader(f))
    assert rows[0] == problem.coordinates
    cli_path = np.array([[float(x) for x in row] for row in rows[1:]])
    np.testing.assert_array_equal(result.path, cli_path)
    with open(out / "stats.json") as f:
        cli_stats = json.load(f)
    assert set(result.stats) == set(cli_stats)
    assert counters(result.stats) == counters(cli_stats)


def test_check_edges_matches_prmkit_check(tmp_path):
    problem = prmkit.Problem.load(problem_file("thin_wall"))
    rng = np.random.default_rng(7)
    n = 1000
    # Random poses in the problem's bounds (unit quaternions); some endpoints collide.
    lower, upper = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 1.0, 1.0])
    def poses():
        xyz = lower + (upper - lower) * rng.random((n, 3))
        q = rng.normal(size=(n, 4))
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        return np.hstack([xyz, q])
    starts, ends = poses(), poses()
    # Short edges too, so that some are free.
    ends[: n // 2] = starts[: n // 2] + 0.05 * (ends[: n // 2] - starts[: n // 2])
    ends[: n // 2, 3:] /= np.linalg.norm(ends[: n // 2, 3:], axis=1, keepdims=True)
    edges = tmp_path / "edges.csv"
    names = problem.coordinates
    with open(edges, "w") as f:
        f.write(",".join(["a." + c for c in names] + ["b." + c for c in names]) + "\n")
        for a, b in zip(starts, ends):
            f.write(",".join(repr(float(x)) for x in np.concatenate([a, b])) + "\n")
    for checker in ["adaptive", "discrete"]:
        got = problem.check_edges(starts, ends, checker=checker)
        out = tmp_path / f"{checker}.csv"
        run = cli("check", problem_file("thin_wall"), "--checker", checker, "--edges", str(edges), "--out", str(out))
        assert run.returncode == 0, run.stderr
        with open(out) as f:
            expected = list(csv.DictReader(f))
        assert len(expected) == n
        assert got["verdict"] == [row["verdict"] for row in expected]
        assert np.allclose(got["confidence"], [float(row["confidence"]) for row in expected])
        kinds = set(got["verdict"])
        assert "free" in kinds and "colliding" in kinds


def test_is_valid_start_goal_and_a_wall():
    problem = prmkit.Problem.load(problem_file("thin_wall"))
    in_wall = problem.start.copy()
    in_wall[0, 0] = 0.0  # the 2 cm wall's plane, 1.5 m from its 0.3 m slot
    in_slot = in_wall.copy()
    in_slot[0, 1:3] = 0.0
    configs = np.vstack([problem.start, problem.goal, in_wall, in_slot])
    for checker in prmkit.checkers:
        assert problem.is_valid(configs, checker=checker).tolist() == [True, True, False, True]


def test_bad_input_is_a_value_error_with_the_command_lines_message():
    with pytest.raises(ValueError, match="unknown planner 'lazyprm'.*did you mean 'lazy_prm'"):
        prmkit.Problem.load(problem_file("maze2d")).plan(planner="lazyprm")
    with pytest.raises(ValueError, match="expected an array of shape"):
        prmkit.Problem.load(problem_file("maze2d")).is_valid(np.zeros((2, 5)))
    with pytest.raises(ValueError):
        prmkit.Problem.load(os.path.join(SOURCE, "no_such_problem.yaml"))


def test_planning_releases_the_gil():
    # Two plans on two Python threads: each releases the GIL while it runs,
    # so both finish and agree with a plan run alone.
    problem = prmkit.Problem.load(problem_file("maze2d"))
    alone = problem.plan(seed=5, threads=1, time_limit=3600)
    results = [None, None]

    def work(i):
        results[i] = problem.plan(seed=5, threads=1, time_limit=3600)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r.path, alone.path)


def test_compare_returns_rows(tmp_path):
    problem = prmkit.Problem.load(problem_file("maze2d"))
    rows = prmkit.compare(problem, planners=["lazy_prm"], checkers=["adaptive", "discrete"], runs=2,
                          time_limit=3600, out=tmp_path / "compare")
    records = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert len(records) == 4
    assert sorted(r["checker"] for r in records) == ["adaptive", "adaptive", "discrete", "discrete"]
    assert all(r["solved"] for r in records)
    assert not any(r["unsafe"] for r in records if r["checker"] == "adaptive")
