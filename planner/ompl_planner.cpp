#include "planner/ompl_planner.h"

#include "planner/ompl_named_planners.h"

#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/objectives/PathLengthOptimizationObjective.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/planners/prm/LazyPRM.h>
#include <ompl/geometric/planners/prm/PRM.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

namespace prmkit {

namespace ob = ompl::base;
namespace og = ompl::geometric;

OmplPlanner::OmplPlanner(PlannerSettings settings) : Planner(std::move(settings)) {
  ompl::msg::setLogLevel(ompl::msg::LOG_WARN);
}

std::optional<std::vector<Vertex>> OmplPlanner::search(Checker& checker, Roadmap& roadmap, PlanResult& result) {
  const Robot& robot = checker.robot();
  const OmplNamedPlanner* named = omplNamedPlanner(settings_.type);
  if (named) {
    // OMPL's planners draw from RNGs of their own (the space's random
    // projection for KPIECE1, its cell choices, goal bias), seeded from
    // OMPL's process-wide seed generator: seeding it before the space is
    // set up makes a run depend on its seed alone, as prmkit's own runs do.
    // (Once a process has drawn seeds, OMPL restarts the generator from its
    // first seed instead, and complains: runs in one process still repeat.
    // Two OMPL runs at once share it.)
    const ompl::msg::LogLevel level = ompl::msg::getLogLevel();
    ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
    ompl::RNG::setSeed(settings_.seed == 0 ? 0x9E3779B9u : settings_.seed);
    ompl::msg::setLogLevel(level);
  }
  std::atomic<std::uint64_t> samplesDrawn{0};
  auto space = std::make_shared<RobotStateSpace>(robot, settings_.seed, samplesDrawn);
  auto si = std::make_shared<ob::SpaceInformation>(space);
  si->setStateValidityChecker(std::make_shared<CheckerValidityChecker>(si, checker));
  const bool stock = settings_.type == "ompl_fcl_default";
  if (stock)
    si->setStateValidityCheckingResolution(0.01);  // OMPL's default, stated to make the peer explicit
  else
    si->setMotionValidator(std::make_shared<CheckerMotionValidator>(si, checker, settings_.min_confidence));
  si->setup();

  auto pdef = std::make_shared<ob::ProblemDefinition>(si);
  ob::ScopedState<> start(space), goal(space);
  space->fromConfig(roadmap.config(0), start.get());
  space->fromConfig(roadmap.config(1), goal.get());
  pdef->setStartAndGoalStates(start, goal);
  auto objective = std::make_shared<ob::PathLengthOptimizationObjective>(si);
  pdef->setOptimizationObjective(objective);

  ob::PlannerPtr planner;
  if (named) {
    planner = named->make(si);
    applyOmplParameters(*planner, settings_.parameters);
  } else if (settings_.type == "ompl_prm") {
    auto prm = std::make_shared<og::PRM>(si);
    prm->setMaxNearestNeighbors(static_cast<unsigned int>(settings_.k));
    planner = prm;
  } else {
    auto lazy = std::make_shared<og::LazyPRM>(si);
    // LazyPRM's connection strategy keeps the range it had when it was made,
    // so the range comes first: OMPL's own default, 20% of the maximum extent
    // (magic::MAX_MOTION_LENGTH_AS_SPACE_EXTENT_FRACTION).
    lazy->setRange(0.2 * robot.maxExtent());
    lazy->setMaxNearestNeighbors(static_cast<unsigned int>(settings_.k));
    planner = lazy;
  }
  planner->setProblemDefinition(pdef);
  // OMPL's planners by name that optimize (their specs say so: RRTstar,
  // BIT*, also PRM and LazyPRM) improve their path until the time limit or
  // the cost threshold, as in OMPL's benchmark (its objective's threshold is
  // 0 for path length: never met). With first_solution, for the others and
  // for ompl_prm, ompl_lazy_prm and ompl_fcl_default (the peers of prmkit's
  // own planners, which answer feasibility) the first exact solution ends the run.
  const bool optimizing = named && planner->getSpecs().optimizingPaths && !settings_.first_solution;
  objective->setCostThreshold(
      ob::Cost(optimizing ? settings_.cost_threshold : std::numeric_limits<double>::infinity()));
  planner->setup();
  const ob::PlannerStatus status = planner->solve(ob::PlannerTerminationCondition([&] {
    if (outOfTime()) return true;
    if (!pdef->hasExactSolution()) return false;
    return !optimizing || objective->isSatisfied(pdef->getSolutionPath()->cost(objective));
  }));

  const auto& motions = *si->getMotionValidator();
  result.planner_stats.samples_drawn = samplesDrawn.load();
  result.planner_stats.edges_attempted = motions.getCheckedMotionCount();
  result.planner_stats.edges_colliding = motions.getInvalidMotionCount();

  // Every segment of the returned path checked by the run's checker: a
  // planner that keeps intermediate states, or splits and joins motions,
  // returns segments its motion validator never saw as such. One that is
  // not free (or Unknown below min_confidence) means no solution. OMPL's
  // stock validator is the peer as users run it: its paths are judged by
  // verify, not repaired here.
  std::vector<Config> solution;
  std::string unchecked;
  if (status == ob::PlannerStatus::EXACT_SOLUTION) {
    const auto& path = *pdef->getSolutionPath()->as<og::PathGeometric>();
    for (std::size_t i = 0; i < path.getStateCount(); ++i)
      solution.push_back(space->toConfig(path.getState(static_cast<unsigned int>(i))));
    for (std::size_t i = 0; i + 1 < solution.size() && !stock && unchecked.empty(); ++i) {
      const EdgeResult edge = checker.checkEdge(solution[i], solution[i + 1]);
      const bool accepted = edge.verdict == Verdict::Free ||
                            (edge.verdict == Verdict::Unknown && edge.confidence >= settings_.min_confidence);
      if (!accepted) {
        recordCollidingEdge(robot, solution[i], solution[i + 1], edge, result);
        unchecked = fmt::format("OMPL's {} returned a path whose segment {} the checker finds {}", planner->getName(),
                                i, edge.verdict == Verdict::Colliding ? "colliding" : "unresolved");
      }
    }
  }

  // The roadmap OMPL built, for statistics and pictures (start and goal are
  // vertices 0 and 1): a copy outside the planning time.
  const auto copyStarted = std::chrono::steady_clock::now();
  ob::PlannerData data(si);
  planner->getPlannerData(data);
  std::vector<Vertex> vertexOf(data.numVertices());
  for (unsigned int i = 0; i < data.numVertices(); ++i) {
    const Config q = space->toConfig(data.getVertex(i).getState());
    if (data.isStartVertex(i))
      vertexOf[i] = 0;
    else if (data.isGoalVertex(i))
      vertexOf[i] = 1;
    else
      vertexOf[i] = roadmap.addVertex(q);
  }
  // Edges OMPL's planner checked before keeping them are Free; a lazy
  // planner's may never have been checked.
  const bool checkedAll = named ? !named->lazy : settings_.type == "ompl_prm";
  const EdgeState builtState = checkedAll ? EdgeState::Free : EdgeState::Unchecked;
  std::vector<unsigned int> targets;
  for (unsigned int i = 0; i < data.numVertices(); ++i) {
    data.getEdges(i, targets);
    for (unsigned int j : targets)
      if (i < j || !boost::edge(vertexOf[j], vertexOf[i], roadmap.graph()).second)
        roadmap.addEdge(vertexOf[i], vertexOf[j], builtState);
  }

  std::optional<std::vector<Vertex>> vertices;
  if (status != ob::PlannerStatus::EXACT_SOLUTION) {
    result.status = outOfTime() ? PlanStatus::TimeLimit : PlanStatus::Failed;
    if (result.status == PlanStatus::Failed) result.status_detail = status.asString();
  } else if (!unchecked.empty()) {
    result.status = PlanStatus::Failed;
    result.status_detail = unchecked;
  } else {
    vertices.emplace();
    for (std::size_t i = 0; i < solution.size(); ++i) {
      std::optional<Vertex> match;
      for (std::size_t v = 0; v < roadmap.vertexCount() && !match; ++v)
        if (roadmap.config(v) == solution[i]) match = v;
      vertices->push_back(match ? *match : roadmap.addVertex(solution[i]));
      if (i > 0) roadmap.addEdge((*vertices)[i - 1], (*vertices)[i], EdgeState::Free);
    }
  }
  pictureSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - copyStarted).count();
  return vertices;
}

std::vector<PlannerKind> OmplPlanner::kinds() {
  PlannerCapabilities capabilities;
  capabilities.uses_node_sampler = false;
  capabilities.compared_by_default = true;
  PlannerCapabilities prm = capabilities, lazy = capabilities, stock = capabilities;
  prm.omplapp_names = {"prm"};
  lazy.omplapp_names = {"lazyprm"};
  stock.omplapp_names = {"lazyprm"};
  stock.checks_edges_with_checker = false;
  auto make = [](const PlannerSettings& s) -> std::unique_ptr<Planner> { return std::make_unique<OmplPlanner>(s); };
  // OMPL's PRM and LazyPRM as prmkit's peers read only the shared settings
  // (k, min_confidence): no section of their own. The planners by name take
  // OMPL's own parameters.
  std::vector<PlannerKind> kinds{
      {"ompl_prm", "OMPL's PRM on prmkit's checker", prm, make, std::nullopt},
      {"ompl_lazy_prm", "OMPL's LazyPRM on prmkit's checker", lazy, make, std::nullopt},
      {"ompl_fcl_default", "OMPL's LazyPRM with its stock discretized motion validator (1 %): the usual stack", stock,
       make, std::nullopt}};
  for (PlannerKind& kind : omplNamedPlannerKinds(make)) kinds.push_back(std::move(kind));
  return kinds;
}

}  // namespace prmkit
