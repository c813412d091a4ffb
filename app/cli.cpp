#include "app/cli.h"

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
#include <sstream>

namespace prmkit {

namespace {
/// Threads or worker processes one command may start: past the cores they only
/// cost memory, and a typo of 50 000 must not start 50 000 (threads run out).
constexpr std::size_t kMaxJobs = 256;

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kBadInput = 2;
constexpr int kInternalError = 3;  // not the input's fault: a bug, memory, a file that cannot be written

int plan(const std::string& file, LoadOptions options, const std::string& outDir, std::ostream& out) {
  const auto started = std::chrono::steady_clock::now();
  Problem problem = loadProblem(file, options);
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  // Tentative edges (Unknown verdicts of the budgeted checker) on a found path
  // are checked with the exact adaptive checker.
  auto verifier = makeVerifier(problem.checker, problem.robot, problem.scene);
  problem.planner.setup_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  auto planner = makePlanner(problem.planner);
  out << fmt::format("problem {} ({}, {} dof): planner {}, checker {}, seed {}\n", problem.name, problem.robot->kind(),
                     problem.robot->dof(), problem.planner.type, checker->description(), problem.planner.seed);
  if (isOmplAppConfig(file))
    for (const auto& note : readOmplAppBenchmark(file).notes) out << fmt::format("note: {}\n", note);
  const PlanResult result = planner->solve(*checker, problem.start, problem.goal, verifier.get());
  const auto& c = result.check_stats;
  if (result.solved)
    out << fmt::format("solved in {:.3f} s: {} waypoints, path length {:.4g} (C-space units){}\n", result.time_s,
                       result.path.size(), result.path_length,
                       result.path_verified ? "" : "; not verified by an exact checker");
  else
    out << fmt::format("not solved ({}) after {:.3f} s of planning and {:.3f} s of setup (time limit {:g} s)\n",
                       result.status_detail.empty() ? std::string(toString(result.status)) : result.status_detail,
                       result.time_s, result.setup_time_s, problem.planner.time_limit_s);
  if (result.planner_stats.tentative_edges > 0)
    out << fmt::format("{} tentative edges (Unknown, confidence >= {:g}%), {} rejected by the exact verifier\n",
                       result.planner_stats.tentative_edges, problem.planner.min_confidence,
                       result.planner_stats.verification_failures);
  out << fmt::format(
      "roadmap {} vertices, {} edges; checker: {} static queries, {} edges checked, {}{} BV tests, {} triangle tests, "
      "{:.3f} s\n",
      result.roadmap_vertices, result.roadmap_edges, c.static_queries, c.edges_checked,
      c.distance_queries > 0 ? fmt::format("{} distance queries, {} bisection steps, ", c.distance_queries, c.bisection_steps) : "",
      c.bv_tests, c.primitive_tests, c.time_s);
  for (const NodeSourceStats& source : result.node_sources)
    out << fmt::format("nodes from {}: {} nodes from {} samples drawn, {:.1f} static checks per node, {} nodes on the path\n",
                       source.source, source.nodes, source.samples_drawn, source.staticChecksPerNode(),
                       source.nodes_on_path);
  OutputFiles files(outDir);
  if (result.solved) {
    files.add("path.csv", pathCsv(*problem.robot, result.path));
    files.add("path.txt", pathText(result.path));
  } else {
    files.remove("path.csv");
    files.remove("path.txt");
  }
  files.add("stats.json", statsJson(problem, checker->name(), result));
  files.add("scene.svg", sceneSvg(problem, result));
  files.add("scene.html", viewerPage(viewerData(problem, checker->name(), result)));
  for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
  return result.solved ? kOk : kFailed;
}

struct CheckOptions {
  std::string edgesFile;
  std::size_t randomCount = 0;
  double maxLength = 0.0;
  double maxLengthFraction = 0.0;
  double truthEps = 0.0;
  double independentResolution = 0.0;
  std::size_t jobs = 1;
  std::string outFile;
};

/// Prints every non-zero counter with its unit.
void printStats(const CheckStats& stats, std::ostream& out) {
  stats.forEach([&](std::string_view name, double value, std::string_view unit) {
    if (value == 0.0) return;
    if (unit == "s")
      out << fmt::format("  {:<26} {:.6f} s\n", name, value);
    else
      out << fmt::format("  {:<26} {:.0f}\n", name, value);
  });
}

int check(const std::string& file, const LoadOptions& options, std::uint32_t seed, const CheckOptions& o,
          std::ostream& out) {
  const Problem problem = loadProblem(file, options);
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  if (!o.edgesFile.empty() == (o.randomCount > 0)) throw InputError("give exactly one of --edges FILE and --random N");
  if (o.maxLength < 0 || !std::isfinite(o.maxLength)) throw InputError("--max-length must be a length >= 0");
  if (o.maxLengthFraction < 0 || o.maxLengthFraction > 1)
    throw InputError("--max-length-fraction must be a fraction of the C-space extent in [0, 1]");
  if (o.maxLength > 0 && o.maxLengthFraction > 0) throw InputError("give at most one of --max-length and --max-length-fraction");
  const double maxLength = o.maxLengthFraction > 0 ? o.maxLengthFraction * problem.robot->maxExtent() : o.maxLength;
  if (o.truthEps < 0 || !std::isfinite(o.truthEps)) throw InputError("--truth-eps must be a length >= 0 (m)");
  const std::vector<EdgeCase> edges = o.edgesFile.empty() ? randomEdges(problem.robot, problem.scene, o.randomCount, maxLength, seed)
                                                          : readEdgesCsv(o.edgesFile, *problem.robot);
  out << fmt::format("problem {}: {} edges ({}), checker {}, {} thread(s)\n", problem.name, edges.size(),
                     o.edgesFile.empty() ? fmt::format("random, seed {}", seed) : o.edgesFile, checker->description(),
                     o.jobs);
  if (o.independentResolution < 0 || o.independentResolution > 1)
    throw InputError("--independent-truth must be a fraction of the C-space extent in (0, 1]");
  const EdgeCheckReport report = checkEdges(problem.robot, problem.scene, *checker, edges, o.truthEps, o.jobs, o.independentResolution);
  const std::size_t checked = edges.size() - report.invalid_endpoints;
  out << fmt::format("verdicts: {} free, {} colliding ({} unresolved below eta), {} unknown, {} with an invalid endpoint\n",
                     report.free, report.colliding, report.unresolved, report.unknown, report.invalid_endpoints);
  if (checked > 0)
    out << fmt::format("checker time {:.3f} s in all, {:.1f} us per edge (summed over threads), median {:.1f} us per edge\n",
                       report.stats.time_s, 1e6 * report.stats.time_s / static_cast<double>(checked),
                       1e6 * medianEdgeTime(report));
  printStats(report.stats, out);
  if (report.colliding > report.unresolved)
    out << fmt::format("witnesses: {} of {} colliding verdicts have a witness FCL does not confirm\n",
                       report.unconfirmed_witnesses, report.colliding - report.unresolved);
  if (o.truthEps > 0)
    out << fmt::format("ground truth (no robot point moves more than {:.3g} m between checks): {} misses (free but "
                       "colliding), {} conservative (colliding but free)\n",
                       o.truthEps, report.misses, report.conservative);
  if (o.independentResolution > 0) {
    out << fmt::format("independent truth (plain FCL every {:g} of the C-space extent{}): {} misses (free but colliding "
                       "for either truth), {} conservative",
                       o.independentResolution, o.truthEps > 0 ? ", with the motion-bound truth" : "", report.misses,
                       report.conservative);
    if (o.truthEps > 0)
      out << fmt::format(", {} disagreements (colliding only for the independent truth)", report.truth_disagreements);
    out << "\n";
  }
  if (!o.outFile.empty()) {
    const std::filesystem::path target(o.outFile);
    OutputFiles files(target.has_parent_path() ? target.parent_path() : std::filesystem::path("."));
    files.add(target.filename().string(), edgeVerdictsCsv(report));
    for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
  }
  return kOk;
}

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

}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"prmkit: PRM and lazy PRM motion planning with pluggable collision checkers"};
  app.require_subcommand(1);
  std::vector<std::string> overrides;
  std::string problemFile, outDir = "out", pathFile, planner, checker, sampler;
  long seed = -1;
  double timeLimit = 0, eps = 0;
  long threads = 0;
  std::string urdfFile, srdfFile, sceneFile, requestFile;
  auto addProblemOptions = [&](CLI::App* sub) {
    sub->add_option("problem", problemFile, "problem YAML file, or a MoveIt MotionPlanRequest YAML (with --urdf)");
    sub->add_option("--set", overrides, "override a value of the problem file: key.path=value (repeatable)");
    sub->add_option("--urdf", urdfFile, "MoveIt problem: the robot's URDF (robot.file)");
    sub->add_option("--srdf", srdfFile, "MoveIt problem: the robot's SRDF (robot.srdf)");
    sub->add_option("--scene", sceneFile, "MoveIt problem: PlanningScene YAML (default: sceneNNNN.yaml beside requestNNNN.yaml)");
    sub->add_option("--request", requestFile, "MoveIt problem: MotionPlanRequest YAML (instead of PROBLEM)");
  };
  auto* planCmd = app.add_subcommand("plan", "plan a problem and write path.csv, stats.json, scene.svg, scene.html");
  addProblemOptions(planCmd);
  planCmd->add_option("--planner", planner, fmt::format("{}", fmt::join(plannerNames(), ", ")));
  planCmd->add_option("--checker", checker, checkerHelp());
  planCmd->add_option("--sampler", sampler,
                      fmt::format("node sampler: {}, or a mix such as uniform:0.5,bridge:0.5", fmt::join(samplerNames(), ", ")));
  planCmd->add_option("--seed", seed, "random seed (0 to 4294967295)")->check(CLI::Range(0L, 4294967295L));
  planCmd->add_option("--time-limit", timeLimit, "time limit (s)");
  planCmd->add_option("--threads", threads, "prm: threads for edge checks, one checker clone each (default 1; see docs/problem-format.md)")
      ->check(CLI::Range(0L, 256L));
  planCmd->add_option("--out", outDir, "output folder (default: out)");
  auto* checkCmd = app.add_subcommand("check", "check a list of edges (or random ones) and write one verdict per edge");
  addProblemOptions(checkCmd);
  CheckOptions checkOptions;
  checkCmd->add_option("--checker", checker, checkerHelp());
  checkCmd->add_option("--edges", checkOptions.edgesFile, "CSV of edges: header a.<coordinate>..., b.<coordinate>...");
  checkCmd->add_option("--random", checkOptions.randomCount, "check N random edges between valid configurations")
      ->check(CLI::PositiveNumber);
  checkCmd->add_option("--max-length", checkOptions.maxLength, "longest random edge (C-space units; default: any)");
  checkCmd->add_option("--max-length-fraction", checkOptions.maxLengthFraction,
                       "longest random edge as a fraction of the C-space extent (like OMPL's resolutions)");
  checkCmd->add_option("--seed", seed, "seed of the random edges (default 1; 0 to 4294967295)")->check(CLI::Range(0L, 4294967295L));
  checkCmd->add_option("--truth-eps", checkOptions.truthEps,
                       "also run a dense ground truth: no robot point moves more than this (m) between checks");
  checkCmd->add_option("--independent-truth", checkOptions.independentResolution,
                       "also run the independent truth: plain FCL checks every this fraction of the C-space extent "
                       "(e.g. 1e-4), no motion bounds; misses count against either truth");
  checkCmd->add_option("--jobs", checkOptions.jobs, "threads, one checker instance each (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  checkCmd->add_option("--out", checkOptions.outFile, "write one row per edge to this CSV file");
  auto* compareCmd = app.add_subcommand(
      "compare", "run checker x planner combinations on one problem with the same seeds; table, CSV, OMPL logs, plots");
  addProblemOptions(compareCmd);
  CompareOptions compareOptions;
  std::string compareCheckers = fmt::format("{}", fmt::join(checkerNames(), ","));
  std::string comparePlanners = "prm,lazy_prm,ompl_prm,ompl_lazy_prm,ompl_fcl_default";
  bool noComparePlots = false;
  compareCmd->add_option("--checkers", compareCheckers, fmt::format("comma-separated checkers (default {})", compareCheckers));
  compareCmd->add_option("--planners", comparePlanners,
                         fmt::format("comma-separated planners (default {}; for an OMPL.app .cfg, its [planner] section's)",
                                     comparePlanners));
  compareCmd->add_option("--runs", compareOptions.runs, "runs per combination, seeds 1..N (default 10, or the .cfg's run_count)")
      ->check(CLI::PositiveNumber);
  compareCmd->add_option("--time-limit", compareOptions.time_limit_s,
                         "planning time limit per run (s, default 10, or the .cfg's time_limit)");
  compareCmd->add_option("--jobs", compareOptions.jobs, "worker processes (default 1, at most 256; times are wall "
                                                        "times, so more workers than cores skews them)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  compareCmd->add_option("--out", outDir, "output folder (default: out)");
  compareCmd->add_flag("--no-plots", noComparePlots, "do not run matplotlib");
  auto* sweepCmd = app.add_subcommand(
      "sweep", "run a grid of problems x planners x checkers x settings x seeds on worker processes (resumable, shardable)");
  std::string sweepFile, shard = "1/1";
  SweepOptions sweepOptions;
  bool noPlots = false;
  sweepCmd->add_option("file", sweepFile, "sweep YAML file (configs/sweeps/)")->required();
  sweepCmd->add_option("--jobs", sweepOptions.jobs, "worker processes (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sweepCmd->add_option("--shard", shard, "run the i-th of N deterministic parts of the grid: i/N (default 1/1)");
  sweepCmd->add_flag("--resume", sweepOptions.resume, "skip the runs already in OUT/runs.jsonl");
  sweepCmd->add_option("--out", outDir, "output folder (default: out/sweep)");
  sweepCmd->add_flag("--no-plots", noPlots, "do not run matplotlib");
  auto* mergeCmd = app.add_subcommand("merge", "combine shard folders of one sweep; fails if a run is missing or duplicated");
  std::vector<std::string> mergeFolders;
  mergeCmd->add_option("file", sweepFile, "the sweep YAML file the shards ran")->required();
  mergeCmd->add_option("folders", mergeFolders, "shard output folders")->required();
  mergeCmd->add_option("--out", outDir, "output folder (default: out/merged)");
  mergeCmd->add_flag("--no-plots", noPlots, "do not run matplotlib");
  auto* benchmarkSetCmd = app.add_subcommand(
      "benchmark-set", "plan every MoveIt problem (requestNNNN.yaml + sceneNNNN.yaml) of folders, e.g. MotionBenchMaker "
                       "scenarios; success rate, time and verify-rejected paths per folder");
  std::vector<std::string> setFolders;
  BenchmarkSetOptions setOptions;
  benchmarkSetCmd->add_option("folders", setFolders, "folders of requestNNNN.yaml and sceneNNNN.yaml")->required();
  benchmarkSetCmd->add_option("--urdf", urdfFile, "the robot's URDF")->required();
  benchmarkSetCmd->add_option("--srdf", srdfFile, "the robot's SRDF")->required();
  benchmarkSetCmd->add_option("--planner", planner, "planner (default lazy_prm)");
  benchmarkSetCmd->add_option("--checker", checker, "checker (default adaptive)");
  benchmarkSetCmd->add_option("--set", overrides, "a setting for every run: key.path=value (repeatable)");
  benchmarkSetCmd->add_option("--seeds", setOptions.seeds, "runs per problem, seeds 1..N (default 1)")
      ->check(CLI::PositiveNumber);
  benchmarkSetCmd->add_option("--limit", setOptions.limit, "at most N problems per folder, first by name (default all)");
  benchmarkSetCmd->add_option("--time-limit", setOptions.time_limit_s, "planning time limit per run (s, default 10)");
  benchmarkSetCmd->add_option("--jobs", setOptions.jobs, "worker processes (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  benchmarkSetCmd->add_flag("--resume", setOptions.resume, "skip the runs already in OUT/runs.jsonl");
  benchmarkSetCmd->add_option("--out", outDir, "output folder (default: out/benchmark_set)");
  benchmarkSetCmd->add_flag("--plots", setOptions.plots, "also draw per-problem plots with matplotlib (off by default)");
  auto* experimentCmd =
      app.add_subcommand("experiment", "run a shipped experiment (Lin & Li's Tables 1 and 2) and write its tables as CSV");
  std::string experimentFile;
  experimentCmd->add_option("file", experimentFile, "experiment YAML file (configs/experiments/)")->required();
  experimentCmd->add_option("--out", outDir, "output folder (default: out)");
  auto* validateCmd = app.add_subcommand("validate", "load and check a problem without planning");
  addProblemOptions(validateCmd);
  auto* verifyCmd = app.add_subcommand("verify", "dense check of a path file; exit 0 if collision-free, 1 if not");
  addProblemOptions(verifyCmd);
  verifyCmd->add_option("path", pathFile, "path written by plan (path.csv, or path.txt / an OMPL.app .path file)")->required();
  std::string htmlFile;
  verifyCmd->add_option("--html", htmlFile,
                        "also write a viewer page (as plan's scene.html) of the path, its first colliding "
                        "configuration highlighted");
  verifyCmd->add_option("--eps", eps, "largest motion of any robot point between checks (m); default 1e-3 of the robot's largest link or of the scene, whichever is smaller");
  bool independent = false;
  double independentResolution = kIndependentResolution;
  verifyCmd->add_flag("--independent", independent,
                      "also step every segment in C-space with plain FCL checks (no motion bounds, no prmkit distance "
                      "code); a collision only it finds is reported as a disagreement");
  verifyCmd->add_option("--independent-resolution", independentResolution,
                        "C-space step of --independent as a fraction of the extent (default 1e-4)");

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
    // The MoveIt flags are overrides of the problem the request stands for.
    std::vector<std::string> problemOverrides;
    if (!requestFile.empty()) {
      if (!problemFile.empty()) throw InputError("give a problem file or --request, not both");
      problemFile = requestFile;
    }
    for (const auto& [file, key] : {std::pair{&urdfFile, "robot.file"}, std::pair{&srdfFile, "robot.srdf"},
                                    std::pair{&sceneFile, "moveit.scene"}})
      if (!file->empty()) problemOverrides.push_back(fmt::format("{}={}", key, std::filesystem::absolute(*file).string()));
    for (auto* sub : {planCmd, checkCmd, compareCmd, validateCmd, verifyCmd})
      if (sub->parsed() && problemFile.empty()) throw InputError("give a problem file (or --request with --urdf)");
    LoadOptions options;
    options.overrides = problemOverrides;
    options.overrides.insert(options.overrides.end(), overrides.begin(), overrides.end());
    if (planCmd->parsed()) {
      if (!planner.empty()) options.overrides.push_back("planner.type=" + planner);
      if (!checker.empty()) options.overrides.push_back("checker.type=" + checker);
      if (!sampler.empty()) options.overrides.push_back("planner.sampler=" + sampler);
      if (seed >= 0) options.overrides.push_back(fmt::format("seed={}", seed));
      if (planCmd->count("--time-limit")) options.overrides.push_back(fmt::format("limits.time={}", timeLimit));
      if (planCmd->count("--threads")) options.overrides.push_back(fmt::format("planner.threads={}", threads));
      return plan(problemFile, options, outDir, out);
    }
    if (checkCmd->parsed()) {
      if (!checker.empty()) options.overrides.push_back("checker.type=" + checker);
      return check(problemFile, options, seed >= 0 ? static_cast<std::uint32_t>(seed) : 1u, checkOptions, out);
    }
    if (compareCmd->parsed()) {
      compareOptions.checkers = splitList(compareCheckers, "--checkers", checkerNames());
      compareOptions.planners = splitList(comparePlanners, "--planners", plannerNames());
      compareOptions.planners_given = compareCmd->count("--planners") > 0;
      compareOptions.runs_given = compareCmd->count("--runs") > 0;
      compareOptions.time_limit_given = compareCmd->count("--time-limit") > 0;
      compareOptions.plots = !noComparePlots;
      compareOptions.out = outDir;
      std::vector<std::pair<std::string, std::string>> parameters;
      for (const auto& assignment : overrides) parameters.push_back(splitAssignment(assignment));
      return runCompare(problemFile, problemOverrides, parameters, compareOptions, out);
    }
    if (benchmarkSetCmd->parsed()) {
      for (const auto& assignment : overrides) setOptions.parameters.push_back(splitAssignment(assignment));
      setOptions.urdf = urdfFile;
      setOptions.srdf = srdfFile;
      setOptions.out = benchmarkSetCmd->count("--out") ? outDir : "out/benchmark_set";
      if (!planner.empty()) setOptions.planner = planner;
      if (!checker.empty()) setOptions.checker = checker;
      std::vector<std::filesystem::path> folders(setFolders.begin(), setFolders.end());
      return runBenchmarkSet(folders, setOptions, out);
    }
    if (sweepCmd->parsed()) {
      sweepOptions.shard = Shard::parse(shard);
      sweepOptions.plots = !noPlots;
      sweepOptions.out = sweepCmd->count("--out") ? outDir : "out/sweep";
      return runSweep(loadSweep(sweepFile), sweepOptions, out);
    }
    if (mergeCmd->parsed()) {
      std::vector<std::filesystem::path> folders(mergeFolders.begin(), mergeFolders.end());
      return mergeSweep(loadSweep(sweepFile), folders, mergeCmd->count("--out") ? outDir : "out/merged", !noPlots, out);
    }
    if (experimentCmd->parsed()) {
      const LinLiExperiment experiment = loadLinLiExperiment(experimentFile);
      out << fmt::format("experiment {}: budgets of {} BV tests, best-first (coherence) against depth-first\n",
                         experiment.name, fmt::join(experiment.budgets, ", "));
      const LinLiResult result = runLinLi(experiment);
      const std::string tables = linLiMarkdown(experiment, result);
      out << tables;
      OutputFiles files(outDir);
      files.add("table1.csv", linLiTable1Csv(result));
      files.add("table2.csv", linLiTable2Csv(result));
      files.add("tables.md", tables);
      for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
      return kOk;
    }
    if (validateCmd->parsed()) {
      const Problem problem = loadProblem(problemFile, options);
      out << fmt::format("{}: valid ({}, {} dof, {} links, {} obstacles with {} triangles, scene size {:.6g} m)\n",
                         problemFile, problem.robot->kind(), problem.robot->dof(), problem.robot->links().size(),
                         problem.scene->obstacles().size(), problem.scene->triangleCount(), problem.sceneSize());
      return kOk;
    }
    options.checkEndpoints = false;
    const Problem problem = loadProblem(problemFile, options);
    if (verifyCmd->count("--eps") && !(eps > 0 && std::isfinite(eps))) throw InputError("--eps must be a positive number of metres");
    const double usedEps = verifyCmd->count("--eps") ? eps : defaultVerifyEps(problem);
    const auto path = readPath(pathFile, *problem.robot);
    if (verifyCmd->count("--independent-resolution") && !(independentResolution > 0 && independentResolution <= 1))
      throw InputError("--independent-resolution must be a fraction of the C-space extent in (0, 1]");
    const bool independentOn = independent || verifyCmd->count("--independent-resolution") > 0;
    const VerifyResult verdict = verifyPath(problem, path, usedEps,
                                            independentOn ? std::optional<double>(independentResolution) : std::nullopt);
    if (!htmlFile.empty()) {
      const std::filesystem::path target(htmlFile);
      OutputFiles files(target.has_parent_path() ? target.parent_path() : std::filesystem::path("."));
      files.add(target.filename().string(), viewerPage(verifyViewerData(problem, path, verdict, usedEps)));
      for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
    }
    if (verdict.valid) {
      out << fmt::format("{}: collision-free ({} waypoints, eps {:.3g} m{})\n", pathFile, path.size(), usedEps,
                         independentOn ? fmt::format("; independent check: {} configurations, step {:g} of the extent",
                                                     verdict.independent_configurations, independentResolution)
                                       : "");
      return kOk;
    }
    out << fmt::format("{}: INVALID: {} (eps {:.3g} m)\n", pathFile, verdict.message, usedEps);
    return kFailed;
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
