#include "app/commands.h"
#include "app/jobs.h"

#include "eval/benchmark_set.h"
#include "eval/compare.h"
#include "eval/lin_li_experiment.h"
#include "eval/sweep.h"

#include "registry/planner_registry.h"
#include "io/output_folder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

namespace prmkit::cli {

namespace {
/// The planners `compare` runs when no --planners is given (they say so themselves).
std::vector<std::string> comparedByDefault() {
  std::vector<std::string> names;
  for (const PlannerKind& kind : plannerKinds())
    if (kind.capabilities.compared_by_default) names.push_back(kind.name);
  return names;
}
}  // namespace

Command compareCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    ProblemArgs problem;
    CompareOptions options;
    std::string checkers = fmt::format("{}", fmt::join(checkerNames(), ","));
    std::string planners = fmt::format("{}", fmt::join(comparedByDefault(), ","));
    std::string out = "out";
    bool noPlots = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "compare", "run checker x planner combinations on one problem with the same seeds; table, CSV, OMPL logs, plots");
  a->problem.addTo(sub);
  sub->add_option("--checkers", a->checkers, fmt::format("comma-separated checkers (default {})", a->checkers));
  sub->add_option(
      "--planners", a->planners,
      fmt::format("comma-separated planners (default {}; for an OMPL.app .cfg, its [planner] section's)", a->planners));
  sub->add_option("--runs", a->options.runs,
                  fmt::format("runs per combination, seeds 1..N (default 10, or the .cfg's run_count; at most {})",
                              kMaxCompareRuns))
      ->check(CLI::Range(std::size_t{1}, kMaxCompareRuns));
  sub->add_option("--time-limit", a->options.time_limit_s,
                  "planning time limit per run (s, default 10, or the .cfg's time_limit)");
  sub->add_option(
         "--jobs", a->options.jobs,
         "worker processes (default 1, at most 256; times are wall times, so more workers than cores skews them)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_option("--out", a->out, "output folder (default: out)");
  sub->add_flag("--no-plots", a->noPlots, "do not run matplotlib");
  return {sub, [a, sub, &out] {
            requireOutputFolder(a->out, "--out");
            const std::string file = a->problem.problemFile();
            CompareOptions options = a->options;
            options.checkers = splitList(a->checkers, "--checkers", checkerNames());
            options.planners = splitList(a->planners, "--planners", plannerNames());
            options.planners_given = sub->count("--planners") > 0;
            options.runs_given = sub->count("--runs") > 0;
            options.time_limit_given = sub->count("--time-limit") > 0;
            options.plots = !a->noPlots;
            options.out = a->out;
            std::vector<std::pair<std::string, std::string>> parameters;
            for (const auto& assignment : a->problem.overrides) parameters.push_back(splitAssignment(assignment));
            return runCompare(file, a->problem.moveitOverrides(), parameters, options, out);
          }};
}

Command sweepCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    std::string file, shard = "1/1", out = "out/sweep";
    SweepOptions options;
    bool noPlots = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "sweep",
      "run a grid of problems x planners x checkers x settings x seeds on worker processes (resumable, shardable)");
  sub->add_option("file", a->file, "sweep YAML file (configs/sweeps/)")->required();
  sub->add_option("--jobs", a->options.jobs, "worker processes (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_option("--shard", a->shard, "run the i-th of N deterministic parts of the grid: i/N (default 1/1)");
  sub->add_flag("--resume", a->options.resume, "skip the runs already in OUT/runs.jsonl");
  sub->add_option("--out", a->out, "output folder (default: out/sweep)");
  sub->add_flag("--no-plots", a->noPlots, "do not run matplotlib");
  return {sub, [a, &out] {
            requireOutputFolder(a->out, "--out");
            SweepOptions options = a->options;
            options.shard = Shard::parse(a->shard);
            options.plots = !a->noPlots;
            options.out = a->out;
            return runSweep(loadSweep(a->file), options, out);
          }};
}

Command mergeCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    std::string file, out = "out/merged";
    std::vector<std::string> folders;
    bool noPlots = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub =
      app.add_subcommand("merge", "combine shard folders of one sweep; fails if a run is missing or duplicated");
  sub->add_option("file", a->file, "the sweep YAML file the shards ran")->required();
  sub->add_option("folders", a->folders, "shard output folders")->required();
  sub->add_option("--out", a->out, "output folder (default: out/merged)");
  sub->add_flag("--no-plots", a->noPlots, "do not run matplotlib");
  return {sub, [a, &out] {
            requireOutputFolder(a->out, "--out");
            const std::vector<std::filesystem::path> folders(a->folders.begin(), a->folders.end());
            return mergeSweep(loadSweep(a->file), folders, a->out, !a->noPlots, out);
          }};
}

Command benchmarkSetCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    std::vector<std::string> folders, overrides;
    BenchmarkSetOptions options;
    std::string planner, checker, urdf, srdf, out = "out/benchmark_set";
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "benchmark-set",
      "plan every MoveIt problem (requestNNNN.yaml + sceneNNNN.yaml) of folders, e.g. MotionBenchMaker "
      "scenarios; success rate, time and verify-rejected paths per folder");
  BenchmarkSetOptions& o = a->options;
  sub->add_option("folders", a->folders, "folders of requestNNNN.yaml and sceneNNNN.yaml")->required();
  sub->add_option("--urdf", a->urdf, "the robot's URDF")->required();
  sub->add_option("--srdf", a->srdf, "the robot's SRDF")->required();
  sub->add_option("--planner", a->planner, "planner (default lazy_prm): " + plannerHelp());
  sub->add_option("--checker", a->checker, "checker (default adaptive)");
  sub->add_option("--set", a->overrides, "a setting for every run: key.path=value (repeatable)");
  sub->add_option("--seeds", o.seeds,
                  fmt::format("runs per problem, seeds 1..N (default 1, at most {})", kMaxCompareRuns))
      ->check(CLI::Range(std::size_t{1}, kMaxCompareRuns));
  sub->add_option("--limit", o.limit, "at most N problems per folder, first by name (default all)");
  sub->add_option("--time-limit", o.time_limit_s, "planning time limit per run (s, default 10)");
  sub->add_option("--jobs", o.jobs, "worker processes (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_flag("--resume", o.resume, "skip the runs already in OUT/runs.jsonl");
  sub->add_option("--out", a->out, "output folder (default: out/benchmark_set)");
  sub->add_flag("--plots", o.plots, "also draw per-problem plots with matplotlib (off by default)");
  return {sub, [a, &out] {
            requireOutputFolder(a->out, "--out");
            BenchmarkSetOptions options = a->options;
            options.urdf = a->urdf;
            options.srdf = a->srdf;
            options.out = a->out;
            for (const auto& assignment : a->overrides) options.parameters.push_back(splitAssignment(assignment));
            if (!a->planner.empty()) options.planner = knownName(a->planner, "--planner", "planner", plannerNames());
            if (!a->checker.empty()) options.checker = knownName(a->checker, "--checker", "checker", checkerNames());
            const std::vector<std::filesystem::path> folders(a->folders.begin(), a->folders.end());
            return runBenchmarkSet(folders, options, out);
          }};
}

Command experimentCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    std::string file, out = "out";
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("experiment",
                                 "run a shipped experiment (Lin & Li's Tables 1 and 2) and write its tables as CSV");
  sub->add_option("file", a->file, "experiment YAML file (configs/experiments/)")->required();
  sub->add_option("--out", a->out, "output folder (default: out)");
  return {sub, [a, &out] {
            requireOutputFolder(a->out, "--out");
            const LinLiExperiment experiment = loadLinLiExperiment(a->file);
            out << fmt::format("experiment {}: budgets of {} BV tests, best-first (coherence) against depth-first\n",
                               experiment.name, fmt::join(experiment.budgets, ", "));
            const LinLiResult result = runLinLi(experiment);
            const std::string tables = linLiMarkdown(experiment, result);
            out << tables;
            OutputFiles files;
            files.add("table1.csv", linLiTable1Csv(result));
            files.add("table2.csv", linLiTable2Csv(result));
            files.add("tables.md", tables);
            const FolderLock lock(a->out, FolderLock::Wait::Yes);
            for (const auto& written : files.commit(lock)) out << fmt::format("wrote {}\n", written.string());
            return kOk;
          }};
}

}  // namespace prmkit::cli
