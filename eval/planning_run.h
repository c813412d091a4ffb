#pragma once
// One planning run set up the one way every command sets it up: the problem
// loaded (config), its checker and the exact verifier made (robot + scene ->
// checker), its planner made (-> planner). `plan` and the batch runners
// (`compare`, `sweep`, `benchmark-set`) share it.
#include "checkers/checker.h"
#include "io/problem.h"
#include "planner/planner.h"

#include <filesystem>
#include <functional>
#include <memory>

namespace prmkit {

struct PlanningRun {
  Problem problem;
  std::unique_ptr<Checker> checker;
  /// The exact checker that verifies tentative edges of found paths.
  std::unique_ptr<Checker> verifier;
  std::unique_ptr<Planner> planner;

  PlanResult solve() { return planner->solve(*checker, problem.start, problem.goal, verifier.get()); }
};

/// What a caller may do between the steps of setUpPlanningRun.
struct PlanningRunHooks {
  /// loadProblem's onTimeLimit: called with the run's time limit once it is known.
  std::function<void(double seconds)> onTimeLimit;
  /// Called once the checkers are built; returns the setup time (s) to count
  /// against the time limit, or nothing to count none.
  std::function<std::optional<double>()> setupDone;
};

/// Throws what loadProblem, makeChecker and makePlanner throw.
PlanningRun setUpPlanningRun(const std::filesystem::path& file, const LoadOptions& options,
                             const PlanningRunHooks& hooks = {});
/// The same from a problem already loaded (its onTimeLimit hook is not called).
PlanningRun setUpPlanningRun(Problem problem, const PlanningRunHooks& hooks = {});

}  // namespace prmkit
