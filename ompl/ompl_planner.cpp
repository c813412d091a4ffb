#include "ompl/ompl_planner.h"

#include "ompl/ompl_named_planners.h"
#include "parallel/overrun_watchdog.h"

#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/objectives/PathLengthOptimizationObjective.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/planners/prm/LazyPRM.h>
#include <ompl/geometric/planners/prm/PRM.h>
#include <ompl/util/Console.h>
#include <ompl/util/Exception.h>
#include <ompl/util/RandomNumbers.h>

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <unordered_map>

namespace prmkit {

namespace ob = ompl::base;
namespace og = ompl::geometric;

namespace {

/// The shortest `range` prmkit passes to OMPL, as a share of the robot's
/// largest extent: RRT-Connect's connect step extends towards its target
/// range by range without looking at its termination condition (range 1e-7
/// on maze2d held a 1 s run past 30 s); at 1e-4 one connection is at most
/// 10^4 steps.
constexpr double kShortestRange = 1e-4;

std::string parametersText(const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string text;
  for (const auto& [name, value] : parameters) text += fmt::format(" planner.parameters.{}={}", name, value);
  return text;
}

}  // namespace

OmplPlanner::OmplPlanner(PlannerSettings settings, PlannerCapabilities capabilities)
    : Planner(std::move(settings), std::move(capabilities)) {
  ompl::msg::setLogLevel(ompl::msg::LOG_WARN);
}

std::optional<std::vector<Vertex>> OmplPlanner::search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                       PlanResult& result) {
  const Robot& robot = checker.robot();
  const OmplNamedPlanner* named = omplNamedPlanner(settings_.type);
  for (const auto& [name, value] : settings_.parameters) {
    if (name != "range") continue;
    const double range = std::strtod(value.c_str(), nullptr);
    if (range > 0.0 && range < kShortestRange * robot.maxExtent())
      throw std::invalid_argument(fmt::format(
          "planner.parameters.range: {} is below {:g} of the robot's largest extent ({:g}), the shortest prmkit "
          "passes to OMPL (its planners extend range by range without looking at their time limit); 0 is OMPL's "
          "default",
          value, kShortestRange, robot.maxExtent()));
  }
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
  // A planner that does not check edges with the checker is the stock stack.
  const bool stock = !capabilities_.checks_edges_with_checker;
  if (stock)
    si->setStateValidityCheckingResolution(0.01);  // OMPL's default, stated to make the peer explicit
  else
    si->setMotionValidator(std::make_shared<CheckerMotionValidator>(si, checker, settings_.min_confidence));
  si->setup();

  auto pdef = std::make_shared<ob::ProblemDefinition>(si);
  ob::ScopedState<> start(space), goal(space);
  space->fromConfig(roadmap.config(query.start), start.get());
  space->fromConfig(roadmap.config(query.goal), goal.get());
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
  // Setup, the solve and the copy of what OMPL built.
  const OverrunWatchdog watchdog(termination().secondsLeft(),
                                 fmt::format("planner {}{}", settings_.type, parametersText(settings_.parameters)));
  ob::PlannerStatus status;
  try {
    planner->setup();
    status = planner->solve(ob::PlannerTerminationCondition([&] {
      if (outOfTime()) return true;
      if (!pdef->hasExactSolution()) return false;
      return !optimizing || objective->isSatisfied(pdef->getSolutionPath()->cost(objective));
    }));
  } catch (const ompl::Exception& e) {
    // OMPL's setters take values its setup or solve then refuses by
    // throwing: with parameters given, they are the input to name.
    if (settings_.parameters.empty()) throw;
    throw std::invalid_argument(fmt::format("OMPL's {} refused its parameters ({}): {}", planner->getName(),
                                            parametersText(settings_.parameters).substr(1), e.what()));
  }

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
  // the query's vertices): a copy outside the planning time. It takes about 6 us
  // a state (OMPL's copy, then the roadmap's), so a tree grown from more
  // samples than kMostSamplesCopied is left out (the picture draws the path
  // alone, and the roadmap counts its vertices): a long run's copy would
  // otherwise last longer than its time limit.
  constexpr std::uint64_t kMostSamplesCopied = 200'000;
  const auto copyStarted = std::chrono::steady_clock::now();
  ob::PlannerData data(si);
  if (samplesDrawn.load() <= kMostSamplesCopied) planner->getPlannerData(data);
  std::vector<Vertex> vertexOf(data.numVertices());
  for (unsigned int i = 0; i < data.numVertices(); ++i) {
    const Config q = space->toConfig(data.getVertex(i).getState());
    if (data.isStartVertex(i))
      vertexOf[i] = query.start;
    else if (data.isGoalVertex(i))
      vertexOf[i] = query.goal;
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
    // The roadmap's vertex of each path state, by its exact coordinates (a
    // tree of 10^6 states and a path of 10^5 are matched in linear time).
    const auto hash = [](const Config& q) {
      std::size_t h = 0;
      for (Eigen::Index i = 0; i < q.size(); ++i) h = h * 1000003u ^ std::hash<double>{}(q[i]);
      return h;
    };
    std::unordered_multimap<std::size_t, Vertex> byHash;
    for (std::size_t v = 0; v < roadmap.vertexCount(); ++v) byHash.emplace(hash(roadmap.config(v)), v);
    vertices.emplace();
    for (std::size_t i = 0; i < solution.size(); ++i) {
      std::optional<Vertex> match;
      const auto [first, last] = byHash.equal_range(hash(solution[i]));
      for (auto it = first; it != last; ++it)  // the first vertex with these coordinates, as the roadmap holds them
        if (roadmap.config(it->second) == solution[i] && (!match || it->second < *match)) match = it->second;
      if (!match) {
        match = roadmap.addVertex(solution[i]);
        byHash.emplace(hash(solution[i]), *match);
      }
      vertices->push_back(*match);
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
  // OMPL's planners grow a structure of their own per query and cannot replan
  // after the verifier rejects an edge.
  capabilities.verifies_final_path = false;
  capabilities.keeps_roadmap = false;
  PlannerCapabilities prm = capabilities, lazy = capabilities, stock = capabilities;
  prm.omplapp_names = {"prm"};
  lazy.omplapp_names = {"lazyprm"};
  stock.omplapp_names = {"lazyprm"};
  stock.checks_edges_with_checker = false;
  auto make = [](const PlannerSettings& s, const PlannerCapabilities& c) -> std::unique_ptr<Planner> {
    return std::make_unique<OmplPlanner>(s, c);
  };
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
