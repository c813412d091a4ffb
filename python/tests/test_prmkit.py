"""The Python module against the command line: the same seed gives the same
path and counters, check_edges gives the verdicts of `prmkit check --edges`.
Run by CTest (python_module) with PYTHONPATH at the built module and
PRMKIT_BINARY, PRMKIT_SOURCE_DIR set."""
import csv
import json
import os
import signal
import subprocess
import sys
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
VARYING = {"time_s", "setup_time_s", "search_time_s", "check_time_s", "peak_memory_bytes", "peak_resident_bytes",
           "time_us"}


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
    # The command line is the command line's alone; everything else is shared.
    assert cli_stats.pop("command_line")[:2] == ["plan", problem_file(name)]
    assert set(result.stats) == set(cli_stats)
    assert counters(result.stats) == counters(cli_stats)


@pytest.mark.parametrize("planner", ["lazy_prm", "prm"])
def test_a_planner_answers_many_queries_on_one_roadmap(tmp_path, planner):
    problem = prmkit.Problem.load(problem_file("maze2d"))
    made = problem.planner(planner=planner, seed=3, threads=1)
    assert made.roadmap_vertices == 0
    first = made.solve()
    # The first query is the one plan answers.
    alone = problem.plan(planner=planner, seed=3, threads=1)
    assert first.solved and np.array_equal(first.path, alone.path)
    assert counters(first.stats) == counters(alone.stats)
    vertices = made.roadmap_vertices
    # Another query on the same roadmap, with its own time limit.
    start, goal = np.array([1.0, 3.0, 0.0]), [9.0, 7.0, 0.0]
    other = made.solve(start=start, goal=goal, time_limit=30)
    assert other.solved
    assert other.stats["roadmap_vertices_reused"] == vertices and other.stats["earlier_queries"] == 1
    assert np.array_equal(other.path[0], start) and np.array_equal(other.path[-1], goal)
    query = prmkit.Problem.load(problem_file("maze2d"), settings={"start": start.tolist(), "goal": goal})
    assert query.verify(other.path)["valid"]
    # Saved and read back: the problem's own query again, without a sample.
    saved = tmp_path / "maze.roadmap"
    made.save(saved)
    assert saved.read_text().startswith("prmkit roadmap 1\n")
    again = problem.planner(planner=planner, roadmap=saved).solve()
    assert again.solved and again.stats["samples_drawn"] == 0
    assert again.stats["roadmap_vertices_reused"] == made.roadmap_vertices
    # What cannot be: a start outside the bounds, a roadmap for OMPL's planners.
    with pytest.raises(ValueError, match="out of bounds"):
        made.solve(start=[20.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="takes no roadmap"):
        problem.planner(planner="ompl:RRTConnect", roadmap=saved)
    with pytest.raises(ValueError, match="keeps no roadmap"):
        problem.planner(planner="ompl:RRTConnect").save(tmp_path / "x.roadmap")
    with pytest.raises(FileNotFoundError):
        problem.planner(roadmap=tmp_path / "missing.roadmap")


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
    assert problem.start.shape == (len(problem.coordinates),)
    assert problem.goal.shape == (len(problem.coordinates),)
    in_wall = problem.start.copy()
    in_wall[0] = 0.0  # the 2 cm wall's plane, 1.5 m from its 0.3 m slot
    in_slot = in_wall.copy()
    in_slot[1:3] = 0.0
    configs = np.vstack([problem.start, problem.goal, in_wall, in_slot])
    for checker in prmkit.checkers:
        assert problem.is_valid(configs, checker=checker).tolist() == [True, True, False, True]


def test_bad_input_is_a_value_error_with_the_command_lines_message():
    with pytest.raises(ValueError, match="unknown planner 'lazyprm'.*did you mean 'lazy_prm'"):
        prmkit.Problem.load(problem_file("maze2d")).plan(planner="lazyprm")
    with pytest.raises(ValueError, match="expected an array of shape"):
        prmkit.Problem.load(problem_file("maze2d")).is_valid(np.zeros((2, 5)))
    with pytest.raises(FileNotFoundError, match="no_such_problem.yaml"):
        prmkit.Problem.load(os.path.join(SOURCE, "no_such_problem.yaml"))
    with pytest.raises(FileNotFoundError, match="urdf"):
        prmkit.Problem.load(problem_file("maze2d"), urdf=os.path.join(SOURCE, "nowhere.urdf"))
    with pytest.raises(TypeError):
        prmkit.Problem.load(problem_file("maze2d")).plan(seed="three")
    with pytest.raises(TypeError):
        prmkit.Problem.load(42)


def test_bad_content_is_a_value_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("robot: {type: rigid2d\n")
    with pytest.raises(ValueError, match="bad.yaml"):
        prmkit.Problem.load(bad)


def test_version_and_docstrings():
    assert prmkit.__version__.count(".") == 2
    run = cli("--version")
    assert run.stdout.startswith("prmkit " + prmkit.__version__ + "\n")
    for cls in (prmkit.Problem, prmkit.Result):
        assert cls.__doc__
        for name, member in vars(cls).items():
            if name.startswith("_"):
                continue
            assert member.__doc__, f"{cls.__name__}.{name} has no docstring"
    assert prmkit.compare.__doc__


def test_a_plans_settings_do_not_stay_with_the_problem():
    problem = prmkit.Problem.load(problem_file("maze2d"))
    assert problem.plan(seed=5, threads=1, settings={"planner.k": 12}).stats["seed"] == 5
    after = problem.plan(threads=1)
    assert after.stats["seed"] == 1
    assert after.stats["settings"]["planner"]["k"] == 10


def test_plan_plans_the_loaded_problem_not_the_file_again(tmp_path):
    # The file changes (and then goes) after the load: the plan is the loaded problem's.
    copy = tmp_path / "maze2d.yaml"
    copy.write_text(open(problem_file("maze2d")).read())
    problem = prmkit.Problem.load(copy)
    before = problem.plan(seed=4, threads=1, time_limit=3600)
    copy.write_text("robot: {type: rigid2d}\n")
    after_change = problem.plan(seed=4, threads=1, time_limit=3600)
    copy.unlink()
    after_delete = problem.plan(seed=4, threads=1, time_limit=3600)
    for r in (after_change, after_delete):
        np.testing.assert_array_equal(r.path, before.path)
    # Run settings apply; settings that would change the problem are refused.
    other = problem.plan(seed=4, threads=1, time_limit=3600, settings={"planner.k": 12})
    assert other.stats["settings"]["planner"]["k"] == 12
    with pytest.raises(ValueError, match="not a run setting"):
        problem.plan(settings={"robot.type": "rigid3d"})
    with pytest.raises(ValueError, match="planner.k"):
        problem.plan(settings={"planner.k": 0})


def test_bounds_as_on_the_command_line():
    problem = prmkit.Problem.load(problem_file("thin_wall"))
    through_wall = np.vstack([problem.start, problem.goal])
    # A step larger than the scene would check the waypoints alone.
    with pytest.raises(ValueError, match="at most the scene's size"):
        problem.verify(through_wall, eps=1e6)
    with pytest.raises(ValueError, match="positive"):
        problem.verify(through_wall, eps=-1.0)
    assert not problem.verify(through_wall)["valid"]
    starts = np.vstack([problem.start])
    for jobs in (0, 257, 10**9):
        with pytest.raises(ValueError, match="jobs"):
            problem.check_edges(starts, starts, jobs=jobs)
    with pytest.raises(ValueError, match="runs"):
        prmkit.compare(problem, runs=10**9)
    with pytest.raises(ValueError, match="jobs"):
        prmkit.compare(problem, jobs=10**6)


def test_verify_accepts_endpoints_at_print_precision():
    problem = prmkit.Problem.load(problem_file("maze2d"))
    result = problem.plan(seed=2, threads=1, time_limit=3600)
    assert result.solved
    # As OMPL.app's sample paths end: the goal's angle 2.6e-5 degrees off.
    printed = result.path.copy()
    printed[-1, 2] += np.radians(2.6e-5)
    printed[0, 0] += 1e-6
    assert problem.verify(printed)["valid"]
    # A zero tolerance asks for the goal itself.
    assert not problem.verify(printed, goal_tolerance=0.0)["valid"]


# Plans from several threads of a fresh interpreter that has not imported
# numpy: the first numpy use on two threads at once once deadlocked inside
# pybind11's lookup of numpy's C API.
THREADS_SCRIPT = '''
import sys
from concurrent.futures import ThreadPoolExecutor
import prmkit
problem = prmkit.Problem.load(sys.argv[1])
with ThreadPoolExecutor(4) as pool:
    results = list(pool.map(lambda s: problem.plan(seed=s, threads=1, time_limit=3600), [1, 2, 3, 4, 1, 2, 3, 4]))
assert all(r.solved for r in results), [(r.status, r.stats["samples_drawn"], r.stats["time_s"], r.stats["setup_time_s"]) for r in results]
assert all((a.path == b.path).all() for a, b in zip(results[:4], results[4:]))
print("ok", len(results))
'''


def test_threads_in_a_fresh_interpreter():
    env = dict(os.environ)
    for attempt in range(5):
        # The timeout only turns a deadlock into a failure; a run takes a few seconds.
        run = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, problem_file("maze2d")], capture_output=True,
                             text=True, env=env, timeout=900, check=False)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == "ok 8"


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


# A wall across the whole space: the goal cannot be reached, so a plan runs
# until its limits (an hour, 10^9 samples) or a stop.
WALLED_PROBLEM = """name: walled
robot:
  type: rigid2d
  geometry: {box: [0.2, 0.2, 0.1]}
bounds: {lower: [0, 0], upper: [4, 4]}
scene:
  obstacles:
    - {name: wall, box: [0.4, 10, 1], pose: {xyz: [2, 2, 0]}}
start: [0.5, 0.5, 0]
goal: [3.5, 3.5, 0]
limits: {time: 3600, samples: 1000000000}
"""

INTERRUPT_SCRIPT = """
import signal, sys, prmkit
problem = prmkit.Problem.load(sys.argv[1])
announced = False
while True:
    try:
        # Announced inside the try: an interrupt that lands just after the
        # line was written is caught too.
        if not announced:
            announced = True
            print("planning", flush=True)
        problem.plan(planner=sys.argv[2], seed=1, threads=1)
        print("returned")
        break
    except KeyboardInterrupt as e:
        if hasattr(e, "result"):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            print(e.result.status, e.result.solved, e.args[0] is e.result, e.result.stats["samples_drawn"] > 0)
            break
        # Interrupted before the call began: plan again, the test interrupts again.
"""


@pytest.mark.parametrize("planner", ["lazy_prm", "prm", "ompl:RRTConnect"])
def test_ctrl_c_stops_a_plan_with_what_it_found(tmp_path, planner):
    problem = tmp_path / "walled.yaml"
    problem.write_text(WALLED_PROBLEM)
    child = subprocess.Popen([sys.executable, "-c", INTERRUPT_SCRIPT, str(problem), planner], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "planning"
    # SIGINT until the child answers (one that lands before the plan call
    # only restarts it); the stop itself takes milliseconds.
    for _ in range(100):
        child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=5)
            break
        except subprocess.TimeoutExpired:
            continue
    else:
        child.kill()
        pytest.fail("the plan was not stopped by SIGINT")
    assert child.returncode == 0, err
    assert out.strip() == "cancelled False True True"


def test_compare_returns_rows(tmp_path):
    problem = prmkit.Problem.load(problem_file("maze2d"))
    rows = prmkit.compare(problem, planners=["lazy_prm"], checkers=["adaptive", "discrete"], runs=2,
                          time_limit=3600, out=tmp_path / "compare")
    records = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert len(records) == 4
    assert sorted(r["checker"] for r in records) == ["adaptive", "adaptive", "discrete", "discrete"]
    assert all(r["solved"] for r in records)
    assert not any(r["unsafe"] for r in records if r["checker"] == "adaptive")


def _without_pythonpath():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_pip_install_from_a_clone_in_a_fresh_venv(tmp_path):
    # As the README says, offline with Debian's setuptools; the module comes
    # from the build `make test` made (PRMKIT_BUILD_DIR), so nothing compiles twice.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = _without_pythonpath()
    env["PRMKIT_BUILD_DIR"] = os.environ["PRMKIT_BUILD_DIR"]
    run = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "--quiet",
                          os.path.join(SOURCE, "python")], capture_output=True, text=True, env=env, cwd=tmp_path,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    check = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import prmkit, os; print(prmkit.__version__); print(os.path.dirname(prmkit.__file__))"],
                           capture_output=True, text=True, env=_without_pythonpath(), cwd=tmp_path, check=False)
    assert check.returncode == 0, check.stderr
    version, folder = check.stdout.split("\n")[:2]
    assert version == prmkit.__version__
    assert folder.startswith(str(venv))
    assert os.path.exists(os.path.join(folder, "prmkit.pyi"))


def test_cmake_install_installs_the_module(tmp_path):
    prefix = tmp_path / "prefix"
    run = subprocess.run([os.environ["PRMKIT_CMAKE"], "--install", os.environ["PRMKIT_BUILD_DIR"], "--prefix",
                          str(prefix), "--component", "python"], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    site = prefix / os.environ["PRMKIT_PYTHON_INSTALL_DIR"]
    assert (site / "prmkit.pyi").exists()
    env = _without_pythonpath()
    env["PYTHONPATH"] = str(site)
    check = subprocess.run([sys.executable, "-c", "import prmkit; print(prmkit.__file__)"], capture_output=True,
                           text=True, env=env, cwd=tmp_path, check=False)
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith(str(site))


def test_type_stubs_match_the_module():
    # mypy's stubtest: every name, signature and property of the module against prmkit.pyi.
    run = subprocess.run([sys.executable, "-m", "mypy.stubtest", "prmkit", "--allowlist",
                          os.path.join(SOURCE, "python", "stubtest-allowlist.txt")],
                         capture_output=True, text=True, check=False,
                         env=dict(os.environ, MYPYPATH=os.environ["PYTHONPATH"]))
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_readme_example_runs_as_written(tmp_path):
    import re
    readme = open(os.path.join(SOURCE, "README.md")).read()
    example = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    assert len(example.strip().split("\n")) <= 10
    os.symlink(os.path.join(SOURCE, "configs"), tmp_path / "configs")
    run = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out" / "maze2d_checkers.png").stat().st_size > 0


def test_compare_while_other_threads_load_and_plan(tmp_path):
    # compare's runs are forks; other threads hold prmkit's locks (the mesh
    # cache's while loading, OMPL's while planning) at any moment. The
    # comparison runs in a fresh interpreter, so no run inherits a held lock.
    stop = threading.Event()

    maze = prmkit.Problem.load(problem_file("maze2d"))

    def busy():
        while not stop.is_set():
            prmkit.Problem.load(problem_file("house"))
            maze.plan(planner="ompl:RRTConnect", seed=1, threads=1, time_limit=3600)

    others = [threading.Thread(target=busy) for _ in range(2)]
    for t in others:
        t.start()
    try:
        rows = prmkit.compare(prmkit.Problem.load(problem_file("maze2d")), planners=["lazy_prm"],
                              checkers=["adaptive"], runs=4, time_limit=3600, jobs=2, out=tmp_path / "compare")
    finally:
        stop.set()
        for t in others:
            t.join()
    records = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert len(records) == 4
    assert all(r["solved"] and r["failure"] == "" for r in records)
