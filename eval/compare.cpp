#include "eval/compare.h"

#include "eval/sweep.h"
#include "io/omplapp_problem.h"

#include "setup/build_problem.h"
#include "registry/planner_registry.h"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <tuple>

namespace prmkit {

namespace {

/// One planner of a comparison, with the problem settings its runs change.
struct ComparedPlanner {
  std::string planner;
  std::vector<std::pair<std::string, std::string>> settings;
  std::string name = {};  // an OMPL.app rename; empty: none
  bool operator<(const ComparedPlanner& other) const {
    return std::tie(planner, settings, name) < std::tie(other.planner, other.settings, other.name);
  }
};

/// What an OMPL.app file's [benchmark] and [planner] sections ask, as far
/// as prmkit can run it; the rest goes into `notes` for the report.
void applyOmplAppBenchmark(const std::filesystem::path& file, CompareOptions& o, std::vector<ComparedPlanner>& planners,
                           std::vector<std::string>& notes) {
  const OmplAppBenchmark benchmark = readOmplAppBenchmark(file);
  notes = benchmark.notes;
  if (!o.runs_given && benchmark.run_count) o.runs = *benchmark.run_count;
  if (!o.time_limit_given && benchmark.time_limit_s) o.time_limit_s = *benchmark.time_limit_s;
  if (o.planners_given || benchmark.planners.empty()) return;
  planners.clear();
  std::set<ComparedPlanner> seen;
  for (const auto& instance : benchmark.planners) {
    const auto runners = prmkitPlannersFor(instance.planner);
    const std::string label =
        instance.name == instance.planner
            ? fmt::format("'{}' (line {})", instance.planner, instance.line)
            : fmt::format("'{}' named '{}' (line {})", instance.planner, instance.name, instance.line);
    if (runners.empty()) {
      if (instance.planner == "aps" || instance.planner == "cforest")
        notes.push_back(
            fmt::format("planner {} skipped: OMPL.app runs it as several planners on threads at once "
                        "sharing one validity checker, and a prmkit checker serves one thread",
                        label));
      else if (instance.planner == "lbtrrt")
        notes.push_back(
            fmt::format("planner {} skipped: OMPL's LBTRRT reports its path only when its time is "
                        "up, so its result depends on the clock, not the seed",
                        label));
      else
        notes.push_back(fmt::format("planner {} skipped: prmkit runs {} and has no {}", label,
                                    fmt::join(omplAppPlannersRun(), ", "), instance.planner));
      continue;
    }
    for (const auto& runner : runners) {
      // OMPL's planners by name take the line's OMPL parameters; prmkit's own do not.
      auto settings = instance.problem_settings;
      const bool takesParameters = static_cast<bool>(plannerKind(runner).parameter_names);
      for (const auto& [key, value] : instance.parameters) {
        if (takesParameters)
          settings.emplace_back("planner.parameters." + key, value);
        else
          notes.push_back(
              fmt::format("planner {}: parameter {} = '{}' not applied to {} (prmkit's settings are its "
                          "problem keys)",
                          label, key, value, runner));
      }
      // A rename names the planner everywhere its runs are shown; where one
      // OMPL.app name runs several prmkit planners, each keeps its own too.
      std::string name;
      if (instance.name != instance.planner)
        name = runners.size() == 1 ? instance.name : fmt::format("{} ({})", instance.name, runner);
      if (seen.insert({runner, settings, name}).second) planners.push_back({runner, settings, name});
    }
  }
  if (planners.empty())
    throw InputError(fmt::format("{}: none of the planners of [planner] is one prmkit runs ({})", file.string(),
                                 fmt::join(omplAppPlannersRun(), ", ")));
}

}  // namespace

int runCompare(const std::filesystem::path& file, const std::vector<std::string>& problemOverrides,
               const std::vector<std::pair<std::string, std::string>>& parameters, CompareOptions o,
               std::ostream& out) {
  std::vector<ComparedPlanner> planners;
  for (const auto& planner : o.planners) planners.push_back({planner, {}});
  std::vector<std::string> notes;
  if (isOmplAppConfig(file)) applyOmplAppBenchmark(file, o, planners, notes);
  if (!(o.time_limit_s > 0 && std::isfinite(o.time_limit_s)))
    throw InputError("--time-limit must be a positive number of seconds");
  // Every run's record is held until the report is written: the bound keeps a
  // typo (or an OMPL.app run_count) from exhausting memory.
  if (o.runs < 1 || o.runs > kMaxCompareRuns)
    throw InputError(fmt::format("--runs {}: must lie in [1, {}]", o.runs, kMaxCompareRuns));
  if (o.jobs < 1 || o.jobs > kMaxPlannerThreads)
    throw InputError(fmt::format("--jobs {}: must lie in [1, {}]", o.jobs, kMaxPlannerThreads));
  std::vector<std::string> all = problemOverrides;
  for (const auto& [key, value] : parameters) all.push_back(key + "=" + value);
  const Problem problem = loadProblem(file, {all, true});  // bad input fails here, before any run
  Sweep sweep;
  sweep.name = "compare";
  sweep.file = file;
  sweep.run_timeout_s = defaultRunTimeout(o.time_limit_s);
  sweep.notes = notes;
  for (const auto& [planner, settings, name] : planners) {
    // A planner that checks edges its own way (OMPL's stock validator) does
    // not use the strategy: one set of runs, with discrete's FCL static checks.
    const std::vector<std::string> used =
        plannerKind(planner).capabilities.checks_edges_with_checker ? o.checkers : std::vector<std::string>{"discrete"};
    auto runParameters = settings;
    runParameters.insert(runParameters.end(), parameters.begin(), parameters.end());
    for (const auto& checker : used)
      for (std::size_t seed = 1; seed <= o.runs; ++seed)
        sweep.runs.push_back({file, file.string(), planner, checker, runParameters, static_cast<std::uint32_t>(seed),
                              o.time_limit_s, problemOverrides, name});
  }
  out << fmt::format(
      "compare {}: {} runs ({} seeds per combination, time limit {:g} s per run, {} worker process(es))\n",
      problem.name, sweep.runs.size(), o.runs, o.time_limit_s, o.jobs);
  for (const auto& note : sweep.notes) out << fmt::format("note: {}\n", note);
  SweepOptions options;
  options.fresh = true;  // each comparison starts afresh (a sweep would resume)
  options.jobs = o.jobs;
  options.plots = o.plots;
  options.out = o.out;
  return runSweep(sweep, options, out);
}

}  // namespace prmkit
