// `import prmkit`: problems loaded, planned, checked and verified from Python
// by the same functions the command line calls (setUpPlanningRun, checkEdges,
// verifyPath, runCompare), so a seed gives the same path and counters here as
// there. Work runs with the GIL released.
#include "eval/compare.h"
#include "eval/edge_check.h"
#include "eval/planning_run.h"
#include "eval/verify.h"
#include "io/problem.h"
#include "io/stats_json.h"
#include "checkers/checker_registry.h"
#include "planner/planner_registry.h"
#include "base/input_file.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <fmt/format.h>

#include <chrono>
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
    throw py::value_error(fmt::format("{}: expected an array of shape (n, {}) ({})", what, robot.configSize(),
                                      fmt::join(robot.coordinateNames(), ", ")));
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

class PythonProblem {
 public:
  static PythonProblem load(const std::filesystem::path& file, std::optional<std::filesystem::path> urdf,
                            std::optional<std::filesystem::path> srdf, std::optional<std::filesystem::path> scene,
                            const py::dict& settings) {
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

  Result plan(std::optional<std::string> planner, std::optional<std::string> checker,
              std::optional<std::string> sampler, std::optional<long> seed, std::optional<double> timeLimit,
              std::optional<long> threads, const py::dict& settings) const {
    LoadOptions options{overrides_, true};
    for (std::string& o : settingOverrides(settings)) options.overrides.push_back(std::move(o));
    // The CLI's options, in its order; messages name the keyword argument.
    if (planner) options.options.emplace_back("planner", "planner.type=" + *planner);
    if (checker) options.options.emplace_back("checker", "checker.type=" + *checker);
    if (sampler) options.options.emplace_back("sampler", "planner.sampler=" + *sampler);
    if (seed) options.options.emplace_back("seed", fmt::format("seed={}", *seed));
    if (timeLimit) options.options.emplace_back("time_limit", fmt::format("limits.time={}", *timeLimit));
    if (threads) options.options.emplace_back("threads", fmt::format("planner.threads={}", *threads));
    PlanResult result;
    std::string stats;
    std::size_t width = 0;
    {
      py::gil_scoped_release released;
      // As `prmkit plan`: the setup's time counts against the limit.
      const auto started = std::chrono::steady_clock::now();
      PlanningRun run = setUpPlanningRun(
          file_, options, {{}, [&]() -> std::optional<double> {
                             return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
                           }});
      result = run.solve();
      stats = statsJson(run.problem, run.checker->name(), result);
      width = run.problem.robot->configSize();
    }
    return {result.solved, std::string(toString(result.status)), rows(result.path, width), fromJson(stats)};
  }

  py::dict checkEdges(const Matrix& starts, const Matrix& ends, std::optional<std::string> checkerName,
                      std::size_t jobs) const {
    const std::vector<Config> a = configs(*problem_.robot, starts, "starts"),
                              b = configs(*problem_.robot, ends, "ends");
    if (a.size() != b.size()) throw py::value_error("starts and ends need the same number of rows");
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

  py::dict verify(const Matrix& path, std::optional<double> eps) const {
    const std::vector<Config> qs = configs(*problem_.robot, path, "path");
    VerifyResult verdict;
    {
      py::gil_scoped_release released;
      verdict = verifyPath(problem_, qs, eps.value_or(defaultVerifyEps(problem_)));
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

/// `prmkit compare` into `out`; the rows of its runs.jsonl (a pandas
/// DataFrame when pandas is installed).
py::object compare(const PythonProblem& problem, std::vector<std::string> planners, std::vector<std::string> checkers,
                   std::size_t runs, double timeLimit, std::size_t jobs, const std::filesystem::path& out,
                   const py::dict& settings) {
  CompareOptions options;
  options.planners = std::move(planners);
  options.checkers = std::move(checkers);
  options.runs = runs;
  options.time_limit_s = timeLimit;
  options.jobs = jobs;
  options.plots = false;
  options.planners_given = options.runs_given = options.time_limit_given = true;
  options.out = out;
  std::vector<std::pair<std::string, std::string>> parameters;
  for (const auto& [key, value] : settings) parameters.emplace_back(py::str(key).cast<std::string>(), yamlText(value));
  std::ostringstream log;
  {
    py::gil_scoped_release released;
    runCompare(problem.file(), problem.overrides(), parameters, options, log);
  }
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
  m.doc() = "prmkit: PRM and lazy PRM motion planning with pluggable, exact collision checkers";
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

  py::class_<Result>(m, "Result", "One planning run: solved, status, path (one row per waypoint), stats (stats.json)")
      .def_readonly("solved", &Result::solved)
      .def_readonly("status", &Result::status)
      .def_readonly("path", &Result::path)
      .def_readonly("stats", &Result::stats)
      .def("__repr__",
           [](const Result& r) { return fmt::format("<prmkit.Result {} ({} waypoints)>", r.status, r.path.shape(0)); });

  py::class_<PythonProblem>(m, "Problem", "A problem file loaded as `prmkit plan` loads it")
      .def_static("load", &PythonProblem::load, py::arg("file"), py::kw_only(), py::arg("urdf") = std::nullopt,
                  py::arg("srdf") = std::nullopt, py::arg("scene") = std::nullopt, py::arg("settings") = py::dict(),
                  "Loads a prmkit problem YAML, an OMPL.app .cfg or a MoveIt MotionPlanRequest (with urdf=, srdf=, "
                  "scene=); settings are overrides as --set takes them ({'planner.k': 15})")
      .def("plan", &PythonProblem::plan, py::kw_only(), py::arg("planner") = std::nullopt,
           py::arg("checker") = std::nullopt, py::arg("sampler") = std::nullopt, py::arg("seed") = std::nullopt,
           py::arg("time_limit") = std::nullopt, py::arg("threads") = std::nullopt, py::arg("settings") = py::dict(),
           "Plans as `prmkit plan` with these options (the GIL released)")
      .def("check_edges", &PythonProblem::checkEdges, py::arg("starts"), py::arg("ends"), py::kw_only(),
           py::arg("checker") = std::nullopt, py::arg("jobs") = 1,
           "Checks edge i from starts[i] to ends[i] as `prmkit check --edges`: verdict (free, colliding, unknown or "
           "invalid_endpoint), confidence (%) and witness_t per edge")
      .def("is_valid", &PythonProblem::isValid, py::arg("configs"), py::kw_only(), py::arg("checker") = std::nullopt,
           "In bounds and collision-free, one boolean per row")
      .def("verify", &PythonProblem::verify, py::arg("path"), py::kw_only(), py::arg("eps") = std::nullopt,
           "Dense check of a path from the start to the goal, as `prmkit verify`")
      .def_property_readonly("name", [](const PythonProblem& p) { return p.problem().name; })
      .def_property_readonly("dof", [](const PythonProblem& p) { return p.problem().robot->dof(); })
      .def_property_readonly("coordinates", [](const PythonProblem& p) { return p.problem().robot->coordinateNames(); })
      .def_property_readonly(
          "start", [](const PythonProblem& p) { return rows({p.problem().start}, p.problem().robot->configSize()); })
      .def_property_readonly(
          "goal", [](const PythonProblem& p) { return rows({p.problem().goal}, p.problem().robot->configSize()); });

  m.def("compare", &compare, py::arg("problem"), py::kw_only(),
        py::arg("planners") = std::vector<std::string>{"lazy_prm"},
        py::arg("checkers") = std::vector<std::string>{"adaptive", "discrete"}, py::arg("runs") = 3,
        py::arg("time_limit") = 10.0, py::arg("jobs") = 1, py::arg("out") = std::filesystem::path("out/compare"),
        py::arg("settings") = py::dict(),
        "Runs `prmkit compare` into `out` and returns its runs (a pandas DataFrame when pandas is installed, "
        "else a list of dicts)");
}
