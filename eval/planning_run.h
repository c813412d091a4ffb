#pragma once
// One planning run set up the one way every command sets it up: the problem
// loaded (config), its checker and the exact verifier made (robot + scene ->
// checker), its planner made (-> planner). `plan` and the batch runners
// (`compare`, `sweep`, `benchmark-set`) share it.
#include "checkers/checker.h"
#include "setup/build_problem.h"
#include "planner/planner.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace prmkit {

/// A roadmap file the run's planner starts from (docs/roadmap-format.md).
struct RoadmapRead {
  std::filesystem::path file;
  std::size_t vertices = 0, edges = 0;  // as the planner got them
  std::size_t vertices_dropped = 0, edges_dropped = 0;
  /// The file's fingerprint was the problem's: its verdicts were kept.
  bool verdicts_kept = false;
  std::uint64_t static_checks = 0;  // of its vertices, when the fingerprints differ
  double time_s = 0.0;
};

struct PlanningRun {
  Problem problem;
  std::unique_ptr<Checker> checker;
  /// The exact checker that verifies tentative edges of found paths.
  std::unique_ptr<Checker> verifier;
  std::unique_ptr<Planner> planner;
  std::optional<RoadmapRead> roadmap_read;

  /// The run's termination, when its setup counted against its time limit
  /// (`prmkit plan`): the first solve ends at its deadline; otherwise each
  /// solve has the planner's time limit from its start.
  std::optional<Termination> termination;

  PlanResult solve() { return planner->solve(*checker, problem.start, problem.goal, verifier.get(), termination); }
};

/// What a caller may do between the steps of setUpPlanningRun.
struct PlanningRunHooks {
  /// A roadmap file (docs/roadmap-format.md) the planner plans its first
  /// query on, read once the checkers are built (its time is setup time);
  /// InputError for a planner that does not keep a roadmap.
  std::filesystem::path roadmap = {};
};

/// Throws what loadProblem, makeChecker and makePlanner throw.
PlanningRun setUpPlanningRun(const std::filesystem::path& file, const LoadOptions& options,
                             const PlanningRunHooks& hooks = {});
/// The same from a problem already loaded.
PlanningRun setUpPlanningRun(Problem problem, const PlanningRunHooks& hooks = {});

}  // namespace prmkit
