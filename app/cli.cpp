#include "app/cli.h"

#include "app/jobs.h"

#include "eval/benchmark.h"
#include "eval/benchmark_set.h"
#include "eval/compare.h"
#include "eval/edge_check.h"
#include "eval/experiment.h"
#include "io/outputs.h"
#include "io/omplapp_problem.h"
#include "io/problem.h"
#include "io/viewer_page.h"
#include "eval/sweep.h"
#include "eval/independent_check.h"
#include "eval/verify.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <functional>
#include <memory>
#include <sstream>

namespace prmkit {

namespace {
/// Threads or worker processes one command may start: past the cores they only
/// cost memory, and a typo of 50 000 must not start 50 000 (threads run out).
constexpr std::size_t kMaxJobs = 256;

std::vector<std::string> splitList(const std::string& text, const std::string& option,
                                   const std::vector<std::string>& allowed) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end())
      throw InputError(fmt::format("{}: unknown name '{}' (expected a comma-separated list of {})", option, item,
                                   fmt::join(allowed, ", ")));
    if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
  }
  if (items.empty()) throw InputError(fmt::format("{} needs at least one name", option));
  return items;
}

/// "key.path=value" -> (key.path, value), for run parameters.
std::pair<std::string, std::string> splitAssignment(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--set '{}': expected key.path=value", assignment));
  return {assignment.substr(0, eq), assignment.substr(eq + 1)};
}

/// The --checker help: every registered strategy, in the registry's order.
std::string checkerHelp() {
  return fmt::format("collision checker strategy, one of {} (default: the problem's, else adaptive, exact)",
                     fmt::join(checkerNames(), ", "));
}

/// A subcommand and what runs it once the command line named it.
struct Command {
  CLI::App* sub;
  std::function<int()> run;
};

/// The options of the subcommands that read one problem.
struct ProblemArgs {
  std::string file, urdf, srdf, scene, request;
  std::vector<std::string> overrides;  // --set

  void addTo(CLI::App* sub) {
    sub->add_option("problem", file, "problem YAML file, or a MoveIt MotionPlanRequest YAML (with --urdf)");
    sub->add_option("--set", overrides, "override a value of the problem file: key.path=value (repeatable)");
    sub->add_option("--urdf", urdf, "MoveIt problem: the robot's URDF (robot.file)");
    sub->add_option("--srdf", srdf, "MoveIt problem: the robot's SRDF (robot.srdf)");
    sub->add_option("--scene", scene,
                    "MoveIt problem: PlanningScene YAML (default: sceneNNNN.yaml beside requestNNNN.yaml)");
    sub->add_option("--request", request, "MoveIt problem: MotionPlanRequest YAML (instead of PROBLEM)");
  }
  /// The problem file named by PROBLEM or --request; refuses neither or both.
  std::string problemFile() const {
    if (!request.empty() && !file.empty()) throw InputError("give a problem file or --request, not both");
    const std::string named = request.empty() ? file : request;
    if (named.empty()) throw InputError("give a problem file (or --request with --urdf)");
    return named;
  }
  /// The MoveIt flags, as the overrides of the problem the request stands for.
  std::vector<std::string> moveitOverrides() const {
    std::vector<std::string> result;
    for (const auto& [value, key] :
         {std::pair{&urdf, "robot.file"}, std::pair{&srdf, "robot.srdf"}, std::pair{&scene, "moveit.scene"}})
      if (!value->empty()) result.push_back(fmt::format("{}={}", key, std::filesystem::absolute(*value).string()));
    return result;
  }
  /// The MoveIt flags, then --set, then `extra`.
  LoadOptions loadOptions(const std::vector<std::string>& extra = {}) const {
    LoadOptions options;
    options.overrides = moveitOverrides();
    options.overrides.insert(options.overrides.end(), overrides.begin(), overrides.end());
    options.overrides.insert(options.overrides.end(), extra.begin(), extra.end());
    return options;
  }
};

/// Seeds are 32-bit: the parser refuses what would wrap.
CLI::Option* addSeed(CLI::App* sub, long& seed, const std::string& help) {
  return sub->add_option("--seed", seed, help)->check(CLI::Range(0L, 4294967295L));
}

Command planCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    ProblemArgs problem;
    std::string planner, checker, sampler, out = "out";
    long seed = -1, threads = 0;
    double timeLimit = 0;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("plan", "plan a problem and write path.csv, stats.json, scene.svg, scene.html");
  a->problem.addTo(sub);
  sub->add_option("--planner", a->planner, fmt::format("{}", fmt::join(plannerNames(), ", ")));
  sub->add_option("--checker", a->checker, checkerHelp());
  sub->add_option(
      "--sampler", a->sampler,
      fmt::format("node sampler: {}, or a mix such as uniform:0.5,bridge:0.5", fmt::join(samplerNames(), ", ")));
  addSeed(sub, a->seed, "random seed (0 to 4294967295)");
  sub->add_option("--time-limit", a->timeLimit, "time limit (s)");
  sub->add_option("--threads", a->threads,
                  "prm: threads for edge checks, one checker clone each (default 0: every core; the result does not "
                  "depend on it)")
      ->check(CLI::Range(0L, 256L));
  sub->add_option("--out", a->out, "output folder (default: out)");
  return {sub, [a, sub, &out] {
            const std::string file = a->problem.problemFile();
            std::vector<std::string> flags;
            if (!a->planner.empty()) flags.push_back("planner.type=" + a->planner);
            if (!a->checker.empty()) flags.push_back("checker.type=" + a->checker);
            if (!a->sampler.empty()) flags.push_back("planner.sampler=" + a->sampler);
            if (a->seed >= 0) flags.push_back(fmt::format("seed={}", a->seed));
            if (sub->count("--time-limit")) flags.push_back(fmt::format("limits.time={}", a->timeLimit));
            if (sub->count("--threads")) flags.push_back(fmt::format("planner.threads={}", a->threads));
            return plan(file, a->problem.loadOptions(flags), a->out, out);
          }};
}

Command checkCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    ProblemArgs problem;
    CheckOptions options;
    std::string checker;
    long seed = -1;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("check", "check a list of edges (or random ones) and write one verdict per edge");
  a->problem.addTo(sub);
  CheckOptions& o = a->options;
  sub->add_option("--checker", a->checker, checkerHelp());
  sub->add_option("--edges", o.edgesFile, "CSV of edges: header a.<coordinate>..., b.<coordinate>...");
  sub->add_option("--random", o.randomCount, "check N random edges between valid configurations")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-length", o.maxLength, "longest random edge (C-space units; default: any)");
  sub->add_option("--max-length-fraction", o.maxLengthFraction,
                  "longest random edge as a fraction of the C-space extent (like OMPL's resolutions)");
  addSeed(sub, a->seed, "seed of the random edges (default 1; 0 to 4294967295)");
  sub->add_option("--truth-eps", o.truthEps,
                  "also run a dense ground truth: no robot point moves more than this (m) between checks");
  sub->add_option("--independent-truth", o.independentResolution,
                  "also run the independent truth: plain FCL checks every this fraction of the C-space extent "
                  "(e.g. 1e-4), no motion bounds; misses count against either truth");
  sub->add_option("--jobs", o.jobs, "threads, one checker instance each (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_option("--out", o.outFile, "write one row per edge to this CSV file");
  return {sub, [a, &out] {
            const std::string file = a->problem.problemFile();
            std::vector<std::string> flags;
            if (!a->checker.empty()) flags.push_back("checker.type=" + a->checker);
            return check(file, a->problem.loadOptions(flags), a->seed >= 0 ? static_cast<std::uint32_t>(a->seed) : 1u,
                         a->options, out);
          }};
}

Command compareCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    ProblemArgs problem;
    CompareOptions options;
    std::string checkers = fmt::format("{}", fmt::join(checkerNames(), ","));
    std::string planners = "prm,lazy_prm,ompl_prm,ompl_lazy_prm,ompl_fcl_default";
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
  sub->add_option("--runs", a->options.runs, "runs per combination, seeds 1..N (default 10, or the .cfg's run_count)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--time-limit", a->options.time_limit_s,
                  "planning time limit per run (s, default 10, or the .cfg's time_limit)");
  sub->add_option(
         "--jobs", a->options.jobs,
         "worker processes (default 1, at most 256; times are wall times, so more workers than cores skews them)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_option("--out", a->out, "output folder (default: out)");
  sub->add_flag("--no-plots", a->noPlots, "do not run matplotlib");
  return {sub, [a, sub, &out] {
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
  sub->add_option("--planner", a->planner, "planner (default lazy_prm)");
  sub->add_option("--checker", a->checker, "checker (default adaptive)");
  sub->add_option("--set", a->overrides, "a setting for every run: key.path=value (repeatable)");
  sub->add_option("--seeds", o.seeds, "runs per problem, seeds 1..N (default 1)")->check(CLI::PositiveNumber);
  sub->add_option("--limit", o.limit, "at most N problems per folder, first by name (default all)");
  sub->add_option("--time-limit", o.time_limit_s, "planning time limit per run (s, default 10)");
  sub->add_option("--jobs", o.jobs, "worker processes (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_flag("--resume", o.resume, "skip the runs already in OUT/runs.jsonl");
  sub->add_option("--out", a->out, "output folder (default: out/benchmark_set)");
  sub->add_flag("--plots", o.plots, "also draw per-problem plots with matplotlib (off by default)");
  return {sub, [a, &out] {
            BenchmarkSetOptions options = a->options;
            options.urdf = a->urdf;
            options.srdf = a->srdf;
            options.out = a->out;
            for (const auto& assignment : a->overrides) options.parameters.push_back(splitAssignment(assignment));
            if (!a->planner.empty()) options.planner = a->planner;
            if (!a->checker.empty()) options.checker = a->checker;
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
            const LinLiExperiment experiment = loadLinLiExperiment(a->file);
            out << fmt::format("experiment {}: budgets of {} BV tests, best-first (coherence) against depth-first\n",
                               experiment.name, fmt::join(experiment.budgets, ", "));
            const LinLiResult result = runLinLi(experiment);
            const std::string tables = linLiMarkdown(experiment, result);
            out << tables;
            OutputFiles files(a->out);
            files.add("table1.csv", linLiTable1Csv(result));
            files.add("table2.csv", linLiTable2Csv(result));
            files.add("tables.md", tables);
            for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
            return kOk;
          }};
}

Command validateCommand(CLI::App& app, std::ostream& out) {
  auto a = std::make_shared<ProblemArgs>();
  auto* sub = app.add_subcommand("validate", "load and check a problem without planning");
  a->addTo(sub);
  return {sub, [a, &out] {
            const std::string file = a->problemFile();
            const Problem problem = loadProblem(file, a->loadOptions());
            out << fmt::format(
                "{}: valid ({}, {} dof, {} links, {} obstacles with {} triangles, scene size {:.6g} m)\n", file,
                problem.robot->kind(), problem.robot->dof(), problem.robot->links().size(),
                problem.scene->obstacles().size(), problem.scene->triangleCount(), problem.sceneSize());
            return kOk;
          }};
}

struct VerifyArgs {
  ProblemArgs problem;
  std::string pathFile, htmlFile;
  double eps = 0;
  bool independent = false;
  double independentResolution = kIndependentResolution;
};

Command verifyCommand(CLI::App& app, std::ostream& out) {
  auto a = std::make_shared<VerifyArgs>();
  auto* sub = app.add_subcommand("verify", "dense check of a path file; exit 0 if collision-free, 1 if not");
  a->problem.addTo(sub);
  sub->add_option("path", a->pathFile, "path written by plan (path.csv, or path.txt / an OMPL.app .path file)")
      ->required();
  sub->add_option(
      "--html", a->htmlFile,
      "also write a viewer page (as plan's scene.html) of the path, its first colliding configuration highlighted");
  sub->add_option("--eps", a->eps,
                  "largest motion of any robot point between checks (m); default 1e-3 of the robot's "
                  "largest link or of the scene, whichever is smaller");
  sub->add_flag("--independent", a->independent,
                "also step every segment in C-space with plain FCL checks (no motion bounds, no prmkit distance "
                "code); a collision only it finds is reported as a disagreement");
  sub->add_option("--independent-resolution", a->independentResolution,
                  "C-space step of --independent as a fraction of the extent (default 1e-4)");
  return {sub, [a, sub, &out] {
            VerifyOptions options{a->pathFile, a->htmlFile, std::nullopt, std::nullopt};
            if (sub->count("--eps")) options.eps = a->eps;
            if (a->independent || sub->count("--independent-resolution"))
              options.independent_resolution = a->independentResolution;
            LoadOptions load = a->problem.loadOptions();
            load.checkEndpoints = false;
            return verify(a->problem.problemFile(), load, options, out);
          }};
}

}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"prmkit: PRM and lazy PRM motion planning with pluggable collision checkers"};
  app.require_subcommand(1);
  const std::vector<Command> commands{
      planCommand(app, out),       checkCommand(app, out),    compareCommand(app, out),
      sweepCommand(app, out),      mergeCommand(app, out),    benchmarkSetCommand(app, out),
      experimentCommand(app, out), validateCommand(app, out), verifyCommand(app, out)};
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help();
    return kOk;
  } catch (const CLI::ParseError& e) {
    err << fmt::format("prmkit: {}\n", e.what());
    return kBadInput;
  }
  try {
    for (const Command& command : commands)
      if (command.sub->parsed()) return command.run();
    throw std::logic_error("no subcommand ran");  // require_subcommand(1) makes the parser refuse this
  } catch (const InvalidInput& e) {
    err << fmt::format("prmkit: error: {}\n", e.what());
    return kBadInput;
  } catch (const std::invalid_argument& e) {
    // The libraries' constructors refuse settings and data this way.
    err << fmt::format("prmkit: error: {}\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    err << fmt::format("prmkit: internal error: {}\n", e.what());
    return kInternalError;
  }
}

}  // namespace prmkit
