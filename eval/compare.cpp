#include "eval/compare.h"

#include "eval/benchmark.h"
#include "eval/report.h"
#include "io/omplapp_problem.h"
#include "io/outputs.h"
#include "io/problem.h"

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
  bool operator<(const ComparedPlanner& other) const {
    return std::tie(planner, settings) < std::tie(other.planner, other.settings);
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
    const std::string label = instance.name == instance.planner
                                  ? fmt::format("'{}' (line {})", instance.planner, instance.line)
                                  : fmt::format("'{}' named '{}' (line {})", instance.planner, instance.name, instance.line);
    if (runners.empty()) {
      notes.push_back(fmt::format("planner {} skipped: prmkit compares PRM and lazy PRM (prm, lazyprm, prmstar, "
                                  "lazyprmstar) and has no {}",
                                  label, instance.planner));
      continue;
    }
    for (const auto& [key, value] : instance.parameters)
      notes.push_back(fmt::format("planner {}: parameter {} = '{}' not applied (prmkit's settings are its problem keys)",
                                  label, key, value));
    for (const auto& runner : runners)
      if (seen.insert({runner, instance.problem_settings}).second) planners.push_back({runner, instance.problem_settings});
  }
  if (planners.empty())
    throw InputError(fmt::format("{}: none of the planners of [planner] is one prmkit runs (prm, lazyprm, prmstar, "
                                 "lazyprmstar)",
                                 file.string()));
}

}  // namespace

void runCompare(const std::filesystem::path& file, const std::vector<std::string>& problemOverrides,
                const std::vector<std::pair<std::string, std::string>>& parameters, CompareOptions o,
                std::ostream& out) {
  std::vector<ComparedPlanner> planners;
  for (const auto& planner : o.planners) planners.push_back({planner, {}});
  std::vector<std::string> notes;
  if (isOmplAppConfig(file)) applyOmplAppBenchmark(file, o, planners, notes);
  if (!(o.time_limit_s > 0 && std::isfinite(o.time_limit_s)))
    throw InputError("--time-limit must be a positive number of seconds");
  std::vector<std::string> all = problemOverrides;
  for (const auto& [key, value] : parameters) all.push_back(key + "=" + value);
  const Problem problem = loadProblem(file, {all, true});  // bad input fails here, before any run
  std::vector<RunSpec> specs;
  for (const auto& [planner, settings] : planners) {
    // OMPL's stock validator does not use the strategy: one set of runs, with discrete's FCL static checks.
    const std::vector<std::string> used = planner == "ompl_fcl_default" ? std::vector<std::string>{"discrete"} : o.checkers;
    auto runParameters = settings;
    runParameters.insert(runParameters.end(), parameters.begin(), parameters.end());
    for (const auto& checker : used)
      for (std::size_t seed = 1; seed <= o.runs; ++seed)
        specs.push_back({file, file.string(), planner, checker, runParameters, static_cast<std::uint32_t>(seed),
                         o.time_limit_s, problemOverrides});
  }
  out << fmt::format("compare {}: {} runs ({} seeds per combination, time limit {:g} s per run, {} thread(s))\n",
                     problem.name, specs.size(), o.runs, o.time_limit_s, o.jobs);
  for (const auto& note : notes) out << fmt::format("note: {}\n", note);
  const auto records = runAll(specs, o.jobs, [&](const RunRecord& r, std::size_t done) {
    out << fmt::format("[{}/{}] {} seed {}: {} in {:.3f} s{}\n", done, specs.size(), r.spec.combination(), r.spec.seed,
                       r.failure.empty() ? r.status : "failed: " + r.failure, r.time_s, r.unsafe ? ", UNSAFE path" : "");
    out.flush();
  });
  std::string lines;
  for (const auto& r : records) lines += recordJson(r) + "\n";
  OutputFiles files(o.out);
  files.add("runs.jsonl", lines);
  for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
  writeReport(o.out, "compare", records, o.plots, out, notes);
}

}  // namespace prmkit
