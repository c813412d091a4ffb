#include "eval/planning_run.h"

#include "checkers/checker_registry.h"
#include "planner/planner_registry.h"

namespace prmkit {

PlanningRun setUpPlanningRun(const std::filesystem::path& file, const LoadOptions& options,
                             const PlanningRunHooks& hooks) {
  return setUpPlanningRun(loadProblem(file, options, hooks.onTimeLimit), hooks);
}

PlanningRun setUpPlanningRun(Problem problem, const PlanningRunHooks& hooks) {
  PlanningRun run;
  run.problem = std::move(problem);
  run.checker = makeChecker(run.problem.checker, run.problem.robot, run.problem.scene);
  run.verifier = makeVerifier(run.problem.checker, run.problem.robot, run.problem.scene);
  if (hooks.setupDone)
    if (const auto setup = hooks.setupDone()) run.problem.planner.setup_time_s = *setup;
  run.planner = makePlanner(run.problem.planner);
  return run;
}

}  // namespace prmkit
