// `import prmkit`: problems loaded, planned, checked and verified from Python
// by the same functions the command line calls (setUpPlanningRun, checkEdges,
// verifyPath, runCompare), so a seed gives the same path and counters here as
// there. Work runs with the GIL released. The problem loaded is the one
// planned: per-call settings change only the run settings (planner, checker,
// seed, limits), never by reading the files again.
#include "eval/compare.h"
#include "eval/edge_check.h"
#include "eval/planning_run.h"
#include "eval/verify.h"
#include "setup/build_problem.h"
#include "io/stats_json.h"
#include "registry/checker_registry.h"
#include "registry/planner_registry.h"
#include "base/input_file.h"
#include "io/path_files.h"
#include "io/output_folder.h"
#include "io/roadmap_file.h"

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cmath>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <fstream>
#include <filesystem>
#include <optional>
#include <sstream>

namespace py = pybind11;

namespace prmkit {
namespace {

using Matrix = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A settings value as the YAML text of an override: strings as they are,
/// everything else as JSON (numbers, booleans, lists and maps are YAML too).
std::string yamlText(const py::handle& value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  return py::module_::import("json").attr("dumps")(value).cast<std::string>();
}

std::vector<std::string> settingOverrides(const py::dict& settings) {
  std::vector<std::string> out;
  for (const auto& [key, value] : settings)
    out.push_back(fmt::format("{}={}", py::str(key).cast<std::string>(), yamlText(value)));
  return out;
}

py::object fromJson(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

/// Rows of configurations, each canonicalised as the readers do.
std::vector<Config> configs(const Robot& robot, const Matrix& rows, const char* what) {
  if (rows.ndim() != 2 || static_cast<std::size_t>(rows.shape(1)) != robot.configSize())
    throw py::value_error(
        fmt::format("{}: expected an array of shape (n, {}) ({}), got shape ({})", what, robot.configSize(),
                    fmt::join(robot.coordinateNames(), ", "),
                    fmt::join(std::vector<py::ssize_t>(rows.shape(), rows.shape() + rows.ndim()), ", ")));
  std::vector<Config> out;
  const auto view = rows.unchecked<2>();
  for (py::ssize_t i = 0; i < rows.shape(0); ++i) {
    Config q(static_cast<Eigen::Index>(robot.configSize()));
    for (py::ssize_t j = 0; j < rows.shape(1); ++j) q[j] = view(i, j);
    try {
      robot.canonicalize(q);
    } catch (const std::invalid_argument& e) {
      throw py::value_error(fmt::format("{} row {}: {}", what, i, e.what()));
    }
    out.push_back(std::move(q));
  }
  return out;
}

/// One configuration as an (n,) array.
py::array_t<double> vector(const Config& q) {
  py::array_t<double> out(static_cast<py::ssize_t>(q.size()));
  auto view = out.mutable_unchecked<1>();
  for (Eigen::Index j = 0; j < q.size(); ++j) view(static_cast<py::ssize_t>(j)) = q[j];
  return out;
}

/// FileNotFoundError, as Python's own open() raises it, for a file the caller named.
void requireFile(const std::filesystem::path& file, const char* argument) {
  std::error_code error;
  if (std::filesystem::is_regular_file(file, error)) return;
  const std::string message = std::filesystem::exists(file, error)
                                  ? fmt::format("{}: '{}' is not a regular file", argument, file.string())
                                  : fmt::format("{}: no such file: '{}'", argument, file.string());
  PyErr_SetObject(PyExc_FileNotFoundError, py::make_tuple(ENOENT, message, file.string()).ptr());
  throw py::error_already_set();
}

py::array_t<double> rows(const std::vector<Config>& path, std::size_t width) {
  py::array_t<double> out({static_cast<py::ssize_t>(path.size()), static_cast<py::ssize_t>(width)});
  auto view = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < path.size(); ++i)
    for (std::size_t j = 0; j < width; ++j)
      view(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = path[i][static_cast<Eigen::Index>(j)];
  return out;
}

struct Result {
  bool solved = false;
  std::string status;
  py::array_t<double> path;
  py::object stats;
};

/// Plans start to goal with `run`'s planner on a thread of its own while this
/// one waits with the GIL released, taking it every 50 ms to let Python's
/// signal handlers run: Ctrl-C (or any handler that raises) stops the
/// planner, which returns what it has, and the exception is raised then; a
/// KeyboardInterrupt carries the run's Result as its argument and as `result`.
Result solveInterruptibly(PlanningRun& run, const Config& start, const Config& goal) {
  PlanResult result;
  std::optional<py::error_already_set> raised;  // held while the GIL is released, dropped with it
  {
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::exception_ptr failure;
    std::thread worker([&] {
      try {
        // The run's setup counts against its first solve alone.
        result = run.planner->solve(*run.checker, start, goal, run.verifier.get(), std::exchange(run.termination, {}));
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      finished.notify_one();
    });
    {
      py::gil_scoped_release released;
      std::unique_lock lock(mutex);
      while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
        if (raised) continue;
        lock.unlock();
        {
          py::gil_scoped_acquire acquired;
          if (PyErr_CheckSignals() != 0) {
            raised.emplace();  // takes the exception the handler raised
            run.planner->requestStop();
          }
        }
        lock.lock();
      }
    }
    worker.join();
    if (failure) std::rethrow_exception(failure);
  }
  std::string stats;
  {
    py::gil_scoped_release released;
    stats = statsJson(run.problem, run.checker->name(), result);
  }
  Result answer{result.solved, std::string(toString(result.status)), rows(result.path, run.problem.robot->configSize()),
                fromJson(stats)};
  if (raised && raised->matches(PyExc_KeyboardInterrupt)) {
    const py::object result_object = py::cast(answer);
    py::object interrupt = py::reinterpret_borrow<py::object>(PyExc_KeyboardInterrupt)(result_object);
    interrupt.attr("result") = result_object;
    PyErr_SetObject(PyExc_KeyboardInterrupt, interrupt.ptr());
    throw py::error_already_set();
  }
  if (raised) throw *raised;
  return answer;
}

/// problem.planner(...): a planner with its checkers whose roadmap stays
/// between its queries (Planner::solve), saved and read as `prmkit plan
/// --save-roadmap` and `--roadmap` do. One query at a time: a second thread's
/// solve waits for the first.
class PythonPlanner {
 public:
  explicit PythonPlanner(PlanningRun run) : run_(std::make_unique<PlanningRun>(std::move(run))) {
    // Its setup counts against its first solve, however long after it that comes.
    if (run_->termination) setupSeconds_ = run_->termination->elapsed_s();
    run_->termination.reset();
  }

  Result solve(const std::optional<py::object>& start, const std::optional<py::object>& goal,
               std::optional<double> timeLimit) {
    const Config from = start ? endpoint(*start, "start") : run_->problem.start;
    const Config to = goal ? endpoint(*goal, "goal") : run_->problem.goal;
    if (timeLimit && !(*timeLimit > 0 && std::isfinite(*timeLimit)))
      throw py::value_error(fmt::format("time_limit must be a number of seconds > 0, got {}", *timeLimit));
    std::unique_lock<std::mutex> lock;
    {
      py::gil_scoped_release released;
      lock = std::unique_lock(mutex_);
    }
    const double limit = run_->planner->settings().time_limit_s;
    if (timeLimit) run_->planner->setTimeLimit(*timeLimit);
    if (setupSeconds_) {
      run_->termination = Termination::after(
          run_->planner->settings().time_limit_s,
          Termination::Clock::now() -
              std::chrono::duration_cast<Termination::Clock::duration>(std::chrono::duration<double>(*setupSeconds_)));
      setupSeconds_.reset();
    }
    struct Restore {
      Planner& planner;
      double limit;
      ~Restore() { planner.setTimeLimit(limit); }
    } restore{*run_->planner, limit};
    return solveInterruptibly(*run_, from, to);
  }

  void save(const std::filesystem::path& file) {
    std::unique_lock<std::mutex> lock;
    {
      py::gil_scoped_release released;
      lock = std::unique_lock(mutex_);
    }
    const Roadmap* roadmap = run_->planner->roadmap();
    if (!run_->planner->keepsRoadmap())
      throw py::value_error(
          fmt::format("planner {} builds what it plans on per query and keeps no roadmap (prm, "
                      "lazy_prm and their *_star forms do)",
                      run_->problem.planner.type));
    if (!roadmap) throw py::value_error("the planner has no roadmap yet: solve a query first");
    py::gil_scoped_release released;
    requireOutputFile(file, "path");
    writeFileAtomically(file, roadmapText(run_->problem, *roadmap, run_->planner->nodeSourceNames()));
  }

  std::size_t vertices() const {
    const Roadmap* roadmap = run_->planner->roadmap();
    return roadmap ? roadmap->vertexCount() : 0;
  }
  std::size_t edges() const {
    const Roadmap* roadmap = run_->planner->roadmap();
    return roadmap ? roadmap->edgeCount() : 0;
  }
  std::string name() const { return run_->problem.planner.type; }

 private:
  /// One configuration from an array-like of shape (d,), canonical and within the bounds.
  Config endpoint(const py::object& value, const char* what) const {
    const Robot& robot = *run_->problem.robot;
    const Matrix row = py::module_::import("numpy").attr("asarray")(value, "float64").attr("reshape")(1, -1);
    Config q = configs(robot, row, what).front();
    if (!robot.inBounds(q)) throw py::value_error(fmt::format("{}: the configuration is out of bounds", what));
    return q;
  }

  std::optional<double> setupSeconds_;  // the setup, counted against the first solve (s)
  std::unique_ptr<PlanningRun> run_;    // the planner refers to its checkers: they stay where they are
  std::mutex mutex_;
};

class PythonProblem {
 public:
  static PythonProblem load(const std::filesystem::path& file, std::optional<std::filesystem::path> urdf,
                            std::optional<std::filesystem::path> srdf, std::optional<std::filesystem::path> scene,
                            const py::dict& settings) {
    requireFile(file, "file");
    for (const auto& [value, argument] :
         {std::pair{&urdf, "urdf"}, std::pair{&srdf, "srdf"}, std::pair{&scene, "scene"}})
      if (*value) requireFile(**value, argument);
    PythonProblem p;
    p.file_ = file;
    // The MoveIt flags of the command line, as the overrides they stand for.
    for (const auto& [value, key] :
         {std::pair{&urdf, "robot.file"}, std::pair{&srdf, "robot.srdf"}, std::pair{&scene, "moveit.scene"}})
      if (*value) p.overrides_.push_back(fmt::format("{}={}", key, std::filesystem::absolute(**value).string()));
    for (std::string& o : settingOverrides(settings)) p.overrides_.push_back(std::move(o));
    {
      py::gil_scoped_release released;
      p.problem_ = loadProblem(file, {p.overrides_, true});
    }
    return p;
  }

  /// The run settings of plan and planner as the command line's options, in its order.
  LoadOptions runOptions(const std::optional<std::string>& planner, const std::optional<std::string>& checker,
                         const std::optional<std::string>& sampler, std::optional<long> seed,
                         std::optional<double> timeLimit, std::optional<long> threads, const py::dict& settings) const {
    LoadOptions options{settingOverrides(settings), true};
    // Messages name the keyword argument.
    if (planner) options.options.emplace_back("planner", "planner.type=" + *planner);
    if (checker) options.options.emplace_back("checker", "checker.type=" + *checker);
    if (sampler) options.options.emplace_back("sampler", "planner.sampler=" + *sampler);
    if (seed) options.options.emplace_back("seed", fmt::format("seed={}", *seed));
    if (timeLimit) options.options.emplace_back("time_limit", fmt::format("limits.time={}", *timeLimit));
    if (threads) options.options.emplace_back("threads", fmt::format("planner.threads={}", *threads));
    return options;
  }

  /// A run of this problem with these run settings, its setup's time (here the
  /// checkers') counted against the limit as `prmkit plan` counts it; with the GIL released.
  PlanningRun setUp(const LoadOptions& options, const std::filesystem::path& roadmap = {}) const {
    py::gil_scoped_release released;
    const auto started = std::chrono::steady_clock::now();
    PlanningRun run = setUpPlanningRun(withRunSettings(problem_, options), {roadmap});
    run.termination = Termination::after(run.problem.planner.time_limit_s, started);
    return run;
  }

  std::unique_ptr<PythonPlanner> makePlanner(std::optional<std::string> planner, std::optional<std::string> checker,
                                             std::optional<std::string> sampler, std::optional<long> seed,
                                             std::optional<double> timeLimit, std::optional<long> threads,
                                             const py::dict& settings,
                                             std::optional<std::filesystem::path> roadmap) const {
    if (roadmap) requireFile(*roadmap, "roadmap");
    return std::make_unique<PythonPlanner>(
        setUp(runOptions(planner, checker, sampler, seed, timeLimit, threads, settings),
              roadmap ? *roadmap : std::filesystem::path()));
  }

  Result plan(std::optional<std::string> planner, std::optional<std::string> checker,
              std::optional<std::string> sampler, std::optional<long> seed, std::optional<double> timeLimit,
              std::optional<long> threads, const py::dict& settings) const {
    PlanningRun run = setUp(runOptions(planner, checker, sampler, seed, timeLimit, threads, settings));
    return solveInterruptibly(run, run.problem.start, run.problem.goal);
  }

  py::dict checkEdges(const Matrix& starts, const Matrix& ends, std::optional<std::string> checkerName,
                      std::size_t jobs) const {
    const std::vector<Config> a = configs(*problem_.robot, starts, "starts"),
                              b = configs(*problem_.robot, ends, "ends");
    if (a.size() != b.size()) throw py::value_error("starts and ends need the same number of rows");
    if (jobs < 1 || jobs > kMaxPlannerThreads)
      throw py::value_error(fmt::format("jobs must lie in [1, {}], got {}", kMaxPlannerThreads, jobs));
    std::vector<EdgeCase> edges;
    for (std::size_t i = 0; i < a.size(); ++i) edges.push_back({a[i], b[i]});
    EdgeCheckReport report;
    {
      py::gil_scoped_release released;
      auto checker = makeChecker(settingsFor(checkerName), problem_.robot, problem_.scene);
      report = prmkit::checkEdges(problem_.robot, problem_.scene, *checker, edges, 0.0, jobs);
    }
    py::list verdicts;
    py::array_t<double> confidence(static_cast<py::ssize_t>(edges.size())),
        witness(static_cast<py::ssize_t>(edges.size()));
    auto c = confidence.mutable_unchecked<1>();
    auto w = witness.mutable_unchecked<1>();
    for (std::size_t i = 0; i < report.edges.size(); ++i) {
      const EdgeVerdict& e = report.edges[i];
      verdicts.append(e.endpoints_valid ? std::string(toString(e.result.verdict)) : std::string("invalid_endpoint"));
      c(static_cast<py::ssize_t>(i)) = e.result.confidence;
      w(static_cast<py::ssize_t>(i)) = e.result.witness_t;
    }
    py::dict out;
    out["verdict"] = verdicts;
    out["confidence"] = confidence;
    out["witness_t"] = witness;
    return out;
  }

  py::array_t<bool> isValid(const Matrix& rowsIn, std::optional<std::string> checkerName) const {
    const std::vector<Config> qs = configs(*problem_.robot, rowsIn, "configs");
    std::vector<char> valid(qs.size());
    {
      py::gil_scoped_release released;
      auto checker = makeChecker(settingsFor(checkerName), problem_.robot, problem_.scene);
      for (std::size_t i = 0; i < qs.size(); ++i) valid[i] = problem_.robot->inBounds(qs[i]) && checker->isValid(qs[i]);
    }
    py::array_t<bool> out(static_cast<py::ssize_t>(qs.size()));
    auto view = out.mutable_unchecked<1>();
    for (std::size_t i = 0; i < qs.size(); ++i) view(static_cast<py::ssize_t>(i)) = valid[i] != 0;
    return out;
  }

  py::dict verify(const Matrix& path, std::optional<double> eps, std::optional<double> goalTolerance) const {
    const std::vector<Config> qs = configs(*problem_.robot, path, "path");
    const double step = verifyEps(problem_, eps, "eps");
    if (goalTolerance && !(*goalTolerance >= 0 && std::isfinite(*goalTolerance)))
      throw py::value_error("goal_tolerance must be a number of metres >= 0");
    VerifyResult verdict;
    {
      py::gil_scoped_release released;
      verdict = verifyPath(problem_, qs, step, std::nullopt, Endpoints::Judged, goalTolerance);
    }
    py::dict out;
    out["valid"] = verdict.valid;
    out["collision_free"] = verdict.collision_free;
    out["message"] = verdict.message;
    return out;
  }

  const Problem& problem() const { return problem_; }
  const std::filesystem::path& file() const { return file_; }
  const std::vector<std::string>& overrides() const { return overrides_; }

 private:
  CheckerSettings settingsFor(const std::optional<std::string>& name) const {
    CheckerSettings settings = problem_.checker;
    if (name) {
      const auto names = checkerNames();
      if (std::find(names.begin(), names.end(), *name) == names.end())
        throw py::value_error(fmt::format("unknown checker '{}' (expected one of: {})", *name, fmt::join(names, ", ")));
      settings.type = *name;
    }
    return settings;
  }

  std::filesystem::path file_;
  std::vector<std::string> overrides_;
  Problem problem_;
};

/// runCompare in this process, for the fresh interpreter `compare` starts:
/// its arguments as the JSON object `compare` wrote; prints what is wrong
/// with them and returns 2 for bad input, else runCompare's exit code.
int compareInThisProcess(const std::string& arguments) {
  const auto a = nlohmann::json::parse(arguments);
  CompareOptions options;
  options.planners = a.at("planners").get<std::vector<std::string>>();
  options.checkers = a.at("checkers").get<std::vector<std::string>>();
  options.runs = a.at("runs").get<std::size_t>();
  options.time_limit_s = a.at("time_limit").get<double>();
  options.jobs = a.at("jobs").get<std::size_t>();
  options.plots = false;
  options.planners_given = options.runs_given = options.time_limit_given = true;
  options.out = a.at("out").get<std::string>();
  const auto parameters = a.at("parameters").get<std::vector<std::pair<std::string, std::string>>>();
  std::ostringstream log;
  try {
    py::gil_scoped_release released;
    return runCompare(a.at("file").get<std::string>(), a.at("overrides").get<std::vector<std::string>>(), parameters,
                      options, log);
  } catch (const InvalidInput& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}

/// `prmkit compare` into `out`; the rows of its runs.jsonl (a pandas
/// DataFrame when pandas is installed). Its runs are forks of the process
/// that runs the comparison, and a fork of this interpreter would inherit
/// every lock another Python thread held at that moment (the mesh cache's,
/// OMPL's): the comparison runs in a fresh interpreter started for it
/// (subprocess forks and executes at once), which forks its runs before it
/// starts any thread of its own.
py::object compare(const PythonProblem& problem, std::vector<std::string> planners, std::vector<std::string> checkers,
                   std::size_t runs, double timeLimit, std::size_t jobs, const std::filesystem::path& out,
                   const py::dict& settings) {
  // Bounds checked here too, so that a typo costs no interpreter.
  if (runs < 1 || runs > kMaxCompareRuns)
    throw py::value_error(fmt::format("runs {}: must lie in [1, {}]", runs, kMaxCompareRuns));
  if (jobs < 1 || jobs > kMaxPlannerThreads)
    throw py::value_error(fmt::format("jobs {}: must lie in [1, {}]", jobs, kMaxPlannerThreads));
  nlohmann::json arguments{{"file", problem.file().string()},
                           {"overrides", problem.overrides()},
                           {"planners", planners},
                           {"checkers", checkers},
                           {"runs", runs},
                           {"time_limit", timeLimit},
                           {"jobs", jobs},
                           {"out", std::filesystem::absolute(out).string()},
                           {"parameters", nlohmann::json::array()}};
  for (const auto& [key, value] : settings)
    arguments["parameters"].push_back({py::str(key).cast<std::string>(), yamlText(value)});
  const py::module_ os = py::module_::import("os"), sys = py::module_::import("sys");
  py::dict env = py::dict(os.attr("environ"));
  const std::string here =
      py::str(os.attr("path").attr("dirname")(py::module_::import("prmkit").attr("__file__"))).cast<std::string>();
  env["PYTHONPATH"] = env.contains("PYTHONPATH") ? here + ":" + py::str(env["PYTHONPATH"]).cast<std::string>() : here;
  const char* script = "import sys, prmkit; sys.exit(prmkit._compare_in_this_process(sys.argv[1]))";
  const py::object done = py::module_::import("subprocess")
                              .attr("run")(py::make_tuple(sys.attr("executable"), "-c", script, arguments.dump()),
                                           py::arg("capture_output") = true, py::arg("text") = true,
                                           py::arg("env") = env, py::arg("check") = false);
  const int exitCode = done.attr("returncode").cast<int>();
  const std::string errors = done.attr("stderr").cast<std::string>();
  if (exitCode == 2) {
    std::string message = errors;
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back()))) message.pop_back();
    throw py::value_error(message.substr(message.rfind('\n') == std::string::npos ? 0 : message.rfind('\n') + 1));
  }
  if (exitCode != 0 && exitCode != 1)
    throw std::runtime_error(fmt::format("the comparison's interpreter ended with code {}: {}", exitCode, errors));
  py::list records;
  std::ifstream lines(out / "runs.jsonl");
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) records.append(fromJson(line));
  try {
    return py::module_::import("pandas").attr("DataFrame")(records);
  } catch (const py::error_already_set&) {
    return records;
  }
}

}  // namespace
}  // namespace prmkit

PYBIND11_MODULE(prmkit, m) {
  using namespace prmkit;
  // numpy's C API, looked up here, while the import holds the GIL and no
  // other thread can run: pybind11 looks it up in a function-local static on
  // first use, and a first use on two threads at once deadlocks (one thread
  // waits for the static's guard holding the GIL, the other imports numpy
  // inside the guard and waits for the GIL).
  py::module_::import("numpy");
  (void)py::dtype::of<double>();
  (void)py::dtype::of<bool>();
  m.doc() = "prmkit: PRM and lazy PRM motion planning with pluggable, exact collision checkers";
  m.attr("__version__") = PRMKIT_VERSION;
  // Bad input is a ValueError with the same message the command line prints.
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const InvalidInput& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.attr("planners") = plannerNames();
  m.attr("checkers") = checkerNames();

  py::class_<Result>(m, "Result", "One planning run, as `prmkit plan` reports it.")
      .def_readonly("solved", &Result::solved, "True when a path from the start to the goal was found and checked.")
      .def_readonly("status", &Result::status, "How the run ended: 'solved', 'time limit', 'sample limit', ...")
      .def_readonly("path", &Result::path,
                    "The path, one row per waypoint (shape (n, len(Problem.coordinates)); (0, d) when unsolved).")
      .def_readonly("stats", &Result::stats, "stats.json of the run as a dict (times in s, counters).")
      .def("__repr__",
           [](const Result& r) { return fmt::format("<prmkit.Result {} ({} waypoints)>", r.status, r.path.shape(0)); });

  py::class_<PythonPlanner>(m, "Planner", "A planner and its checkers on one problem, made by Problem.planner.")
      .def("solve", &PythonPlanner::solve, py::kw_only(), py::arg("start") = std::nullopt,
           py::arg("goal") = std::nullopt, py::arg("time_limit") = std::nullopt,
           "Plans from start to goal (the problem's own by default; arrays of shape (len(coordinates),)) on the "
           "roadmap earlier calls left (prm, lazy_prm and their *_star forms; OMPL's planners start over), "
           "with its own time limit (s) and sample budget. Returns a Result; Ctrl-C as in Problem.plan.")
      .def("save", &PythonPlanner::save, py::arg("path"),
           "Writes the roadmap to `path` (docs/roadmap-format.md), as `prmkit plan --save-roadmap`.")
      .def_property_readonly("name", &PythonPlanner::name, "The planner's name.")
      .def_property_readonly("roadmap_vertices", &PythonPlanner::vertices,
                             "Vertices of the roadmap (0 before a solve).")
      .def_property_readonly("roadmap_edges", &PythonPlanner::edges, "Edges of the roadmap.")
      .def("__repr__", [](const PythonPlanner& p) {
        return fmt::format("<prmkit.Planner {} ({} vertices)>", p.name(), p.vertices());
      });

  py::class_<PythonProblem>(m, "Problem",
                            "A problem file loaded as `prmkit plan` loads it; plan, check and verify on it.")
      .def_static("load", &PythonProblem::load, py::arg("file"), py::kw_only(), py::arg("urdf") = std::nullopt,
                  py::arg("srdf") = std::nullopt, py::arg("scene") = std::nullopt, py::arg("settings") = py::dict(),
                  "Loads a prmkit problem YAML, an OMPL.app .cfg or a MoveIt MotionPlanRequest (with urdf=, srdf=, "
                  "scene=); settings are overrides as --set takes them ({'planner.k': 15}). Raises "
                  "FileNotFoundError for a missing file, ValueError for bad content (the command line's message).")
      .def("plan", &PythonProblem::plan, py::kw_only(), py::arg("planner") = std::nullopt,
           py::arg("checker") = std::nullopt, py::arg("sampler") = std::nullopt, py::arg("seed") = std::nullopt,
           py::arg("time_limit") = std::nullopt, py::arg("threads") = std::nullopt, py::arg("settings") = py::dict(),
           "Plans the loaded problem as `prmkit plan` would with these options (the GIL released); settings "
           "override run settings only (keys under planner, checker, seed and limits). Returns a Result. Ctrl-C "
           "stops the run: the KeyboardInterrupt raised carries its Result (status 'cancelled') as `result`.")
      .def("planner", &PythonProblem::makePlanner, py::kw_only(), py::arg("planner") = std::nullopt,
           py::arg("checker") = std::nullopt, py::arg("sampler") = std::nullopt, py::arg("seed") = std::nullopt,
           py::arg("time_limit") = std::nullopt, py::arg("threads") = std::nullopt, py::arg("settings") = py::dict(),
           py::arg("roadmap") = std::nullopt,
           "A planner with these options (as plan takes them) whose roadmap stays between its solve() calls; "
           "roadmap= plans on a roadmap file written by Planner.save or `prmkit plan --save-roadmap`.")
      .def("check_edges", &PythonProblem::checkEdges, py::arg("starts"), py::arg("ends"), py::kw_only(),
           py::arg("checker") = std::nullopt, py::arg("jobs") = 1,
           "Checks edge i from starts[i] to ends[i] as `prmkit check --edges`: verdict (free, colliding, unknown or "
           "invalid_endpoint), confidence (%) and witness_t per edge; jobs threads (1 to 256).")
      .def("is_valid", &PythonProblem::isValid, py::arg("configs"), py::kw_only(), py::arg("checker") = std::nullopt,
           "In bounds and collision-free, one boolean per row of configs (shape (n, d)).")
      .def("verify", &PythonProblem::verify, py::arg("path"), py::kw_only(), py::arg("eps") = std::nullopt,
           py::arg("goal_tolerance") = std::nullopt,
           "Dense check of a path from the start to the goal, as `prmkit verify`: no robot point moves more than "
           "eps (m) between checked configurations; endpoints within goal_tolerance (m, default eps) count as "
           "reached. Returns {'valid', 'collision_free', 'message'}.")
      .def_property_readonly(
          "name", [](const PythonProblem& p) { return p.problem().name; }, "The problem's name.")
      .def_property_readonly(
          "dof", [](const PythonProblem& p) { return p.problem().robot->dof(); }, "Degrees of freedom of the robot.")
      .def_property_readonly(
          "coordinates", [](const PythonProblem& p) { return p.problem().robot->coordinateNames(); },
          "The names of a configuration's coordinates, in order (a path's columns).")
      .def_property_readonly(
          "start", [](const PythonProblem& p) { return vector(p.problem().start); },
          "The start configuration, shape (len(coordinates),).")
      .def_property_readonly(
          "goal", [](const PythonProblem& p) { return vector(p.problem().goal); },
          "The goal configuration, shape (len(coordinates),).");

  m.def("_compare_in_this_process", &compareInThisProcess, py::arg("arguments"),
        "Runs a comparison in this process (what compare starts a fresh interpreter for); not for direct use.");
  m.def("compare", &compare, py::arg("problem"), py::kw_only(),
        py::arg("planners") = std::vector<std::string>{"lazy_prm"},
        py::arg("checkers") = std::vector<std::string>{"adaptive", "discrete"}, py::arg("runs") = 3,
        py::arg("time_limit") = 10.0, py::arg("jobs") = 1, py::arg("out") = std::filesystem::path("out/compare"),
        py::arg("settings") = py::dict(),
        "Runs `prmkit compare` into `out` and returns its runs (a pandas DataFrame when pandas is installed, "
        "else a list of dicts).");
}
