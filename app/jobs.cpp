#include "app/jobs.h"

#include "eval/edge_check.h"
#include "eval/static_check.h"
#include "eval/planning_run.h"
#include "eval/verify.h"
#include "setup/build_problem.h"
#include "io/stats_json.h"
#include "io/scene_svg.h"
#include "io/path_files.h"
#include "io/roadmap_file.h"
#include "io/viewer_page.h"
#include "base/termination.h"
#include "registry/planner_registry.h"
#include "io/output_folder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace prmkit {

namespace {
/// Writes a run's files holding the folder's lock, so that two runs sharing
/// `--out` leave the files of one of them.
/// How long plan waits for another run's lock on its folder: until its own
/// time limit, and a few seconds past it for a run that used it all.
std::chrono::steady_clock::time_point lockDeadline(std::chrono::steady_clock::time_point started, double limit) {
  return started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(std::min(limit, 1e6) + 2.0));
}

/// The files plan writes into its folder.
const std::vector<std::string> kPlanOutputs{"path.csv",   "path.txt",  "queries.csv",
                                            "stats.json", "scene.svg", "scene.html"};

/// Commits under the folder's lock, waiting for another run's at most until `deadline`.
void commitUnderLock(OutputFiles& files, const std::string& outDir, std::ostream& out,
                     std::chrono::steady_clock::time_point deadline) {
  const FolderLock lock(outDir, FolderLock::Wait::Yes, deadline);
  for (const auto& written : files.commit(lock)) out << fmt::format("wrote {}\n", written.string());
}
}  // namespace

namespace {
/// The summary of one planning result, as plan prints it (`prefix` before each of its lines).
void printResult(const Problem& problem, const PlanResult& result, const std::string& prefix, std::ostream& out) {
  const auto& c = result.check_stats;
  if (result.solved)
    out << fmt::format("{}solved in {:.3f} s: {} waypoints, path length {:.4g} (C-space units){}\n", prefix,
                       result.time_s, result.path.size(), result.path_length,
                       result.path_verified ? "" : "; not verified by an exact checker");
  else
    out << fmt::format("{}not solved ({}) after {:.3f} s of planning and {:.3f} s of setup (time limit {:g} s)\n",
                       prefix,
                       result.status_detail.empty() ? std::string(toString(result.status)) : result.status_detail,
                       result.time_s, result.setup_time_s, problem.planner.time_limit_s);
  if (result.planner_stats.tentative_edges > 0)
    out << fmt::format("{}{} tentative edges (Unknown, confidence >= {:g}%), {} rejected by the exact verifier\n",
                       prefix, result.planner_stats.tentative_edges, problem.planner.min_confidence,
                       result.planner_stats.verification_failures);
  out << fmt::format(
      "{}roadmap {} vertices{}, {} edges; checker: {} static queries, {} edges checked, {}{} BV tests, {} triangle "
      "tests, {:.3f} s\n",
      prefix, result.roadmap_vertices,
      result.roadmap_vertices_reused > 0 ? fmt::format(" ({} reused)", result.roadmap_vertices_reused) : "",
      result.roadmap_edges, c.static_queries, c.edges_checked,
      c.distance_queries > 0 ? fmt::format("{} distance queries, {} bisection steps, ", c.distance_queries,
                                           c.strategy.value("bisection_steps"))
                             : "",
      c.bv_tests, c.primitive_tests, c.time_s);
  for (const NodeSourceStats& source : result.node_sources)
    out << fmt::format(
        "{}nodes from {}: {} nodes from {} samples drawn, {:.1f} static checks per node, {} nodes on the path\n",
        prefix, source.source, source.nodes, source.samples_drawn, source.staticChecksPerNode(), source.nodes_on_path);
  for (const RacePart& part : result.race)
    out << fmt::format("{}race: {} {}{} (work {} to {} race work, {} samples drawn, {:.3f} s)\n", prefix, part.planner,
                       !part.started ? "never started"
                       : part.solved ? "solved"
                                     : "stopped",
                       part.won ? ", its path won" : "", part.start_work, part.work, part.samples_drawn, part.time_s);
}

/// What stats.json records of a roadmap read for the run.
nlohmann::ordered_json roadmapReadJson(const PlanningRun& run) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!run.roadmap_read) return j;
  const RoadmapRead& r = *run.roadmap_read;
  j["roadmap_read"] = {{"file", r.file.string()},
                       {"vertices", r.vertices},
                       {"edges", r.edges},
                       {"verdicts_kept", r.verdicts_kept},
                       {"vertices_dropped", r.vertices_dropped},
                       {"edges_dropped", r.edges_dropped},
                       {"static_checks", r.static_checks},
                       {"time_s", r.time_s}};
  return j;
}
}  // namespace

int plan(const std::string& file, LoadOptions options, const std::string& outDir, std::ostream& out,
         const std::vector<std::string>& commandLine, const RoadmapOptions& roadmaps) {
  const auto started = std::chrono::steady_clock::now();
  requireOutputFolder(outDir, "--out");
  requireOutputNames(outDir, kPlanOutputs, "--out");
  if (!roadmaps.save_roadmap_file.empty()) requireOutputFile(roadmaps.save_roadmap_file, "--save-roadmap");
  // The time limit covers setup: one termination from here to the end of the
  // first query's solve (base/termination.h). The problem is read and checked
  // whole (io/problem_spec.h) before anything is built; building it and the
  // checkers stop at the deadline; what is left of it goes to planning.
  ProblemSpec spec = readProblemSpec(file, options);
  const double timeLimit = spec.planner.time_limit_s;
  const Termination termination = Termination::after(timeLimit, started);
  PlanningRun run;
  try {
    const ScopedSetupTermination setup(termination);
    run = setUpPlanningRun(buildProblem(std::move(spec), options), {roadmaps.roadmap_file});
    run.termination = termination;
  } catch (const SetupTimeLimit& e) {
    const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out << fmt::format("not solved (time limit): {} after {:.3f} s of setup (time limit {:g} s)\n", e.what(), setup,
                       timeLimit);
    OutputFiles files;
    for (const char* stale : {"path.csv", "path.txt", "queries.csv"}) files.remove(stale);
    files.add("stats.json", setupTimeLimitJson(file, e.what(), setup, timeLimit));
    commitUnderLock(files, outDir, out, lockDeadline(started, timeLimit));
    return kFailed;
  }
  const Problem& problem = run.problem;
  const Checker* checker = run.checker.get();
  if (!roadmaps.save_roadmap_file.empty() && !run.planner->keepsRoadmap())
    throw InputError(
        fmt::format("--save-roadmap: planner {} builds what it plans on per query and keeps no roadmap "
                    "(prm, lazy_prm and their *_star forms do)",
                    problem.planner.type));
  std::vector<std::pair<Config, Config>> queries;
  if (!roadmaps.queries_file.empty())
    for (QueryEnds& ends : readQueries(roadmaps.queries_file, problem))
      queries.emplace_back(std::move(ends.start), std::move(ends.goal));
  out << fmt::format("problem {} ({}, {} dof): planner {}, checker {}, seed {}\n", problem.name, problem.robot->kind(),
                     problem.robot->dof(), problem.planner.type, checker->description(), problem.planner.seed);
  for (const auto& note : problem.notes) out << fmt::format("note: {}\n", note);
  if (const auto& r = run.roadmap_read)
    out << fmt::format("roadmap read from {}: {} vertices, {} edges, {:.3f} s{}\n", r->file.string(), r->vertices,
                       r->edges, r->time_s,
                       r->verdicts_kept ? "; its verdicts kept (same robot, scene and checker)"
                                        : fmt::format("; built for another scene or checker: vertices checked again "
                                                      "({} dropped, with {} edges), edges to be checked again",
                                                      r->vertices_dropped, r->edges_dropped));
  out << std::flush;  // the header before the work, also into a pipe
  OutputFiles files;
  PlanResult last;
  bool allSolved = true;
  if (queries.empty()) {
    last = run.solve();
    printResult(problem, last, "", out);
    allSolved = last.solved;
    if (last.solved) {
      files.add("path.csv", pathCsv(*problem.robot, last.path));
      files.add("path.txt", pathText(last.path));
    } else {
      files.remove("path.csv");
      files.remove("path.txt");
    }
    files.remove("queries.csv");
    files.add("stats.json", statsJson(problem, checker->name(), last, commandLine, roadmapReadJson(run)));
  } else {
    std::vector<PlanResult> results;
    std::vector<std::vector<Config>> paths;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      // The first query's limit counts the setup; each later one has its own.
      PlanResult result = run.planner->solve(*run.checker, queries[i].first, queries[i].second, run.verifier.get(),
                                             i == 0 ? run.termination : std::nullopt);
      printResult(problem, result, fmt::format("query {}: ", i + 1), out);
      out << std::flush;
      allSolved = allSolved && result.solved;
      paths.push_back(result.path);
      if (i + 1 == queries.size()) last = result;  // the picture's: the last query's roadmap and path
      // The roadmap copies for the picture are not kept for the other queries.
      result.roadmap_configs.clear();
      result.roadmap_edge_list.clear();
      results.push_back(std::move(result));
    }
    out << fmt::format("{} of {} queries solved\n",
                       std::count_if(results.begin(), results.end(), [](const PlanResult& r) { return r.solved; }),
                       results.size());
    files.remove("path.csv");
    files.remove("path.txt");
    files.add("queries.csv", queriesCsv(*problem.robot, paths));
    files.add("stats.json",
              queriesStatsJson(problem, checker->name(), queries, results, commandLine, roadmapReadJson(run)));
  }
  files.add("scene.svg", sceneSvg(problem, last));
  files.add("scene.html", viewerPage(viewerData(problem, checker->name(), last)));
  commitUnderLock(files, outDir, out, lockDeadline(started, problem.planner.time_limit_s));
  if (!roadmaps.save_roadmap_file.empty() && run.planner->roadmap())
    out << fmt::format(
        "wrote {}\n", writeFileAtomically(roadmaps.save_roadmap_file,
                                          roadmapText(problem, *run.planner->roadmap(), run.planner->nodeSourceNames()))
                          .string());
  return allSolved ? kOk : kFailed;
}

namespace {
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

/// `prmkit check --configs`: one static check a configuration.
int checkConfigs(const Problem& problem, Checker& checker, const CheckOptions& o, std::ostream& out) {
  if (!o.edgesFile.empty() || o.randomCount > 0 || o.truthEps > 0 || o.independentResolution > 0 || o.jobs != 1)
    throw InputError(
        "--configs checks configurations one after the other against the meshes: give it without "
        "--edges, --random, --truth-eps, --independent-truth and --jobs");
  const std::vector<Config> configurations = readConfigurationsCsv(o.configsFile, *problem.robot);
  out << fmt::format("problem {}: {} configurations ({}), checker {}\n", problem.name, configurations.size(),
                     o.configsFile, checker.description());
  const StaticCheckReport report = checkConfigurations(problem.robot, problem.scene, checker, configurations);
  out << fmt::format("verdicts: {} valid, {} invalid\n", report.valid, report.invalid);
  if (!configurations.empty())
    out << fmt::format(
        "checker time {:.3f} s in all, {:.3f} us per configuration, median {:.3f} us per "
        "configuration\n",
        report.stats.time_s, 1e6 * report.stats.time_s / static_cast<double>(configurations.size()),
        1e6 * report.median_time_s);
  printStats(report.stats, out);
  out << fmt::format(
      "exact check on the meshes: {} misses (valid but colliding or out of bounds), {} conservative "
      "(invalid but free)\n",
      report.misses, report.conservative);
  if (!o.outFile.empty())
    out << fmt::format("wrote {}\n", writeFileAtomically(o.outFile, staticVerdictsCsv(report)).string());
  return kOk;
}
}  // namespace

int check(const std::string& file, const LoadOptions& options, std::uint32_t seed, const CheckOptions& o,
          std::ostream& out) {
  if (!o.outFile.empty()) requireOutputFile(o.outFile, "--out");
  const Problem problem = loadProblem(file, options);
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  if (!o.configsFile.empty()) return checkConfigs(problem, *checker, o, out);
  if (!o.edgesFile.empty() == (o.randomCount > 0))
    throw InputError("give exactly one of --edges FILE, --random N and --configs FILE");
  if (o.maxLength < 0 || !std::isfinite(o.maxLength)) throw InputError("--max-length must be a length >= 0");
  if (o.maxLengthFraction < 0 || o.maxLengthFraction > 1)
    throw InputError("--max-length-fraction must be a fraction of the C-space extent in [0, 1]");
  if (o.maxLength > 0 && o.maxLengthFraction > 0)
    throw InputError("give at most one of --max-length and --max-length-fraction");
  const double maxLength = o.maxLengthFraction > 0 ? o.maxLengthFraction * problem.robot->maxExtent() : o.maxLength;
  if (o.truthEps < 0 || !std::isfinite(o.truthEps)) throw InputError("--truth-eps must be a length >= 0 (m)");
  const std::vector<EdgeCase> edges = o.edgesFile.empty()
                                          ? randomEdges(problem.robot, problem.scene, o.randomCount, maxLength, seed)
                                          : readEdgesCsv(o.edgesFile, *problem.robot);
  out << fmt::format("problem {}: {} edges ({}), checker {}, {} thread(s)\n", problem.name, edges.size(),
                     o.edgesFile.empty() ? fmt::format("random, seed {}", seed) : o.edgesFile, checker->description(),
                     o.jobs);
  if (o.independentResolution < 0 || o.independentResolution > 1)
    throw InputError("--independent-truth must be a fraction of the C-space extent in (0, 1]");
  const EdgeCheckReport report =
      checkEdges(problem.robot, problem.scene, *checker, edges, o.truthEps, o.jobs, o.independentResolution);
  const std::size_t checked = edges.size() - report.invalid_endpoints;
  out << fmt::format(
      "verdicts: {} free, {} colliding ({} unresolved below eta), {} unknown, {} with an invalid endpoint\n",
      report.free, report.colliding, report.unresolved, report.unknown, report.invalid_endpoints);
  if (checked > 0)
    out << fmt::format(
        "checker time {:.3f} s in all, {:.1f} us per edge (summed over threads), median {:.1f} us per edge\n",
        report.stats.time_s, 1e6 * report.stats.time_s / static_cast<double>(checked), 1e6 * medianEdgeTime(report));
  printStats(report.stats, out);
  if (report.colliding > report.unresolved)
    out << fmt::format("witnesses: {} of {} colliding verdicts have a witness FCL does not confirm\n",
                       report.unconfirmed_witnesses, report.colliding - report.unresolved);
  if (o.truthEps > 0)
    out << fmt::format(
        "ground truth (no robot point moves more than {:.3g} m between checks): {} misses (free but "
        "colliding), {} conservative (colliding but free)\n",
        o.truthEps, report.misses, report.conservative);
  if (o.independentResolution > 0) {
    out << fmt::format(
        "independent truth (plain FCL every {:g} of the C-space extent{}): {} misses (free but colliding "
        "for either truth), {} conservative",
        o.independentResolution, o.truthEps > 0 ? ", with the motion-bound truth" : "", report.misses,
        report.conservative);
    if (o.truthEps > 0)
      out << fmt::format(", {} disagreements (colliding only for the independent truth)", report.truth_disagreements);
    out << "\n";
  }
  if (!o.outFile.empty()) {
    out << fmt::format("wrote {}\n", writeFileAtomically(o.outFile, edgeVerdictsCsv(report)).string());
  }
  return kOk;
}

int verify(const std::string& file, const LoadOptions& options, const VerifyOptions& o, std::ostream& out) {
  if (!o.html_file.empty()) requireOutputFile(o.html_file, "--html");
  const Problem problem = loadProblem(file, options);
  const double eps = verifyEps(problem, o.eps, "--eps");
  if (o.endpoint_tolerance && !(*o.endpoint_tolerance >= 0 && std::isfinite(*o.endpoint_tolerance)))
    throw InputError("--goal-tolerance must be a number of metres >= 0");
  const auto path = readPath(o.path_file, *problem.robot);
  if (o.independent_resolution && !(*o.independent_resolution > 0 && *o.independent_resolution <= 1))
    throw InputError("--independent-resolution must be a fraction of the C-space extent in (0, 1]");
  const VerifyResult verdict =
      verifyPath(problem, path, eps, o.independent_resolution,
                 o.collisions_only ? Endpoints::NotJudged : Endpoints::Judged, o.endpoint_tolerance);
  if (!o.html_file.empty()) {
    out << fmt::format(
        "wrote {}\n",
        writeFileAtomically(o.html_file, viewerPage(verifyViewerData(problem, path, verdict, eps))).string());
  }
  // Endpoint gaps are said whether or not they decide the verdict, and
  // beside a collision too: a path that is free but ends elsewhere is a
  // different finding from a path that collides.
  auto gaps = [&] {
    std::string text;
    if (verdict.start_gap)
      text += fmt::format("{}: the first waypoint is not the start configuration: {}\n", o.path_file,
                          verdict.start_gap->describe());
    if (verdict.goal_gap)
      text += fmt::format("{}: the last waypoint is not the goal configuration: {}\n", o.path_file,
                          verdict.goal_gap->describe());
    return text;
  };
  if (verdict.collision_free)
    out << fmt::format("{}: collision-free ({} waypoints, eps {:.3g} m{})\n", o.path_file, path.size(), eps,
                       o.independent_resolution
                           ? fmt::format("; independent check: {} configurations, step {:g} of the extent",
                                         verdict.independent_configurations, *o.independent_resolution)
                           : "");
  else
    out << fmt::format("{}: INVALID: {} (eps {:.3g} m)\n", o.path_file, verdict.message, eps);
  out << gaps();
  if (verdict.valid) return kOk;
  if (verdict.collision_free)
    out << fmt::format("{}: INVALID: {} (--collisions-only judges collision-freeness alone)\n", o.path_file,
                       verdict.start_gap ? "it does not begin at the start" : "it does not end at the goal");
  return kFailed;
}

}  // namespace prmkit
