#include "eval/planning_run.h"

#include "setup/build_problem.h"
#include "registry/checker_registry.h"
#include "io/roadmap_file.h"
#include "registry/planner_registry.h"

#include <fmt/format.h>

#include <chrono>

namespace prmkit {

namespace {
RoadmapRead readRoadmap(PlanningRun& run, const std::filesystem::path& file) {
  if (!run.planner->keepsRoadmap())
    throw InputError(
        fmt::format("{}: planner {} builds what it plans on per query and takes no roadmap (prm, "
                    "lazy_prm and their *_star forms do)",
                    file.string(), run.problem.planner.type));
  const auto started = std::chrono::steady_clock::now();
  const std::uint64_t checksBefore = run.checker->stats().static_queries;
  Checker& checker = *run.checker;
  LoadedRoadmap loaded = readRoadmapFile(file, run.problem, [&](const Config& q) { return checker.isValid(q); });
  RoadmapRead read;
  read.file = file;
  read.vertices = loaded.roadmap->vertexCount();
  read.edges = loaded.roadmap->edgeCount();
  read.vertices_dropped = loaded.vertices_dropped;
  read.edges_dropped = loaded.edges_dropped;
  read.verdicts_kept = loaded.verdicts_kept;
  read.static_checks = run.checker->stats().static_queries - checksBefore;
  run.planner->adoptRoadmap(std::move(loaded.roadmap), std::move(loaded.source_names));
  read.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return read;
}
}  // namespace

PlanningRun setUpPlanningRun(const std::filesystem::path& file, const LoadOptions& options,
                             const PlanningRunHooks& hooks) {
  return setUpPlanningRun(loadProblem(file, options), hooks);
}

PlanningRun setUpPlanningRun(Problem problem, const PlanningRunHooks& hooks) {
  PlanningRun run;
  run.problem = std::move(problem);
  run.checker = makeChecker(run.problem.checker, run.problem.robot, run.problem.scene);
  run.verifier = makeVerifier(run.problem.checker, run.problem.robot, run.problem.scene);
  run.planner = makePlanner(run.problem.planner);
  if (!hooks.roadmap.empty()) run.roadmap_read = readRoadmap(run, hooks.roadmap);
  return run;
}

}  // namespace prmkit
