#include "planner/ompl_planner.h"

#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/objectives/PathLengthOptimizationObjective.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/planners/prm/LazyPRM.h>
#include <ompl/geometric/planners/prm/PRM.h>
#include <ompl/util/Console.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace prmkit {

namespace ob = ompl::base;
namespace og = ompl::geometric;

namespace {

/// Uniform samples from Robot::sampleUniform; near and Gaussian samples move
/// from the given state towards a uniform sample, so that every sample obeys
/// the robot's own bounds and rotation representation.
class RobotStateSampler final : public ob::StateSampler {
 public:
  RobotStateSampler(const RobotStateSpace* space, std::uint32_t seed, std::atomic<std::uint64_t>& drawn)
      : ob::StateSampler(space), space_(space), robotRng_(seed), drawn_(drawn) {}

  void sampleUniform(ob::State* state) override {
    space_->robot().sampleUniform(robotRng_, q_);
    ++drawn_;
    space_->fromConfig(q_, state);
  }
  void sampleUniformNear(ob::State* state, const ob::State* near, double distance) override {
    towards(state, near, robotRng_.uniformReal(0.0, distance));
  }
  void sampleGaussian(ob::State* state, const ob::State* mean, double stdDev) override {
    towards(state, mean, std::abs(robotRng_.gaussian(0.0, stdDev)));
  }

 private:
  void towards(ob::State* state, const ob::State* from, double step) {
    space_->robot().sampleUniform(robotRng_, q_);
    ++drawn_;
    const Config origin = space_->toConfig(from);
    const double d = space_->robot().distance(origin, q_);
    Config out;
    space_->robot().interpolate(origin, q_, d > step ? step / d : 1.0, out);
    space_->fromConfig(out, state);
  }

  const RobotStateSpace* space_;
  ompl::RNG robotRng_;
  std::atomic<std::uint64_t>& drawn_;
  Config q_;
};

}  // namespace

RobotStateSpace::RobotStateSpace(const Robot& robot, std::uint32_t seed, std::atomic<std::uint64_t>& samplesDrawn)
    : ob::RealVectorStateSpace(static_cast<unsigned int>(robot.configSize())),
      robot_(robot),
      seed_(seed),
      samplesDrawn_(samplesDrawn) {
  // OMPL needs bounds on every coordinate; the unbounded ones (angles,
  // quaternion components) lie in [-pi, pi]. satisfiesBounds uses the robot's.
  ob::RealVectorBounds bounds(getDimension());
  const auto& b = robot.bounds();
  for (unsigned int i = 0; i < getDimension(); ++i) {
    const bool bounded = i < static_cast<unsigned int>(b.lower.size());
    bounds.setLow(i, bounded ? b.lower[i] : -std::numbers::pi);
    bounds.setHigh(i, bounded ? b.upper[i] : std::numbers::pi);
  }
  setBounds(bounds);
  setName("prmkit_" + robot.kind());
}

Config RobotStateSpace::toConfig(const ob::State* state) const {
  const auto* values = state->as<StateType>()->values;
  return Eigen::Map<const Config>(values, static_cast<Eigen::Index>(getDimension()));
}

void RobotStateSpace::fromConfig(const Config& q, ob::State* state) const {
  Eigen::Map<Config>(state->as<StateType>()->values, static_cast<Eigen::Index>(getDimension())) = q;
}

double RobotStateSpace::distance(const ob::State* a, const ob::State* b) const {
  return robot_.distance(toConfig(a), toConfig(b));
}

void RobotStateSpace::interpolate(const ob::State* from, const ob::State* to, double t, ob::State* state) const {
  Config out;
  robot_.interpolate(toConfig(from), toConfig(to), t, out);
  fromConfig(out, state);
}

double RobotStateSpace::getMaximumExtent() const { return robot_.maxExtent(); }

bool RobotStateSpace::satisfiesBounds(const ob::State* state) const { return robot_.inBounds(toConfig(state)); }

void RobotStateSpace::enforceBounds(ob::State* state) const {
  Config q = toConfig(state);
  const auto& b = robot_.bounds();
  for (Eigen::Index i = 0; i < b.lower.size(); ++i) q[i] = std::clamp(q[i], b.lower[i], b.upper[i]);
  robot_.canonicalize(q);
  fromConfig(q, state);
}

ob::StateSamplerPtr RobotStateSpace::allocDefaultStateSampler() const {
  // Distinct, deterministic seeds per sampler: OMPL allocates samplers in a fixed order.
  const std::uint32_t seed = seed_ * 7919u + 104729u * ++samplersAllocated_;
  return std::make_shared<RobotStateSampler>(this, seed, samplesDrawn_);
}

CheckerValidityChecker::CheckerValidityChecker(const ob::SpaceInformationPtr& si, Checker& checker)
    : ob::StateValidityChecker(si), checker_(checker) {}

bool CheckerValidityChecker::isValid(const ob::State* state) const {
  return checker_.isValid(si_->getStateSpace()->as<RobotStateSpace>()->toConfig(state));
}

CheckerMotionValidator::CheckerMotionValidator(const ob::SpaceInformationPtr& si, Checker& checker,
                                               double minConfidence)
    : ob::MotionValidator(si), checker_(checker), minConfidence_(minConfidence) {}

bool CheckerMotionValidator::accepted(const EdgeResult& edge) const {
  return edge.verdict == Verdict::Free || (edge.verdict == Verdict::Unknown && edge.confidence >= minConfidence_);
}

bool CheckerMotionValidator::checkMotion(const ob::State* s1, const ob::State* s2) const {
  const auto* space = si_->getStateSpace()->as<RobotStateSpace>();
  // Like OMPL's DiscreteMotionValidator, the end state is checked here; the start is assumed valid.
  const Config b = space->toConfig(s2);
  const bool valid = checker_.isValid(b) && accepted(checker_.checkEdge(space->toConfig(s1), b));
  valid ? ++valid_ : ++invalid_;
  return valid;
}

bool CheckerMotionValidator::checkMotion(const ob::State* s1, const ob::State* s2,
                                         std::pair<ob::State*, double>& lastValid) const {
  const auto* space = si_->getStateSpace()->as<RobotStateSpace>();
  const Robot& robot = space->robot();
  const Config a = space->toConfig(s1), b = space->toConfig(s2);
  double invalidFrom = 1.0;  // a parameter known to be in collision (or an invalid end)
  if (checker_.isValid(b)) {
    const EdgeResult edge = checker_.checkEdge(a, b);
    if (accepted(edge)) {
      ++valid_;
      return true;
    }
    if (!std::isnan(edge.witness_t)) invalidFrom = edge.witness_t;
  }
  // [0, validUpTo] is a valid motion; shrink the gap to the invalid parameter.
  // Ten halvings leave it below 0.1% of the edge.
  constexpr int kPrefixHalvings = 10;
  double validUpTo = 0.0;
  Config q;
  for (int i = 0; i < kPrefixHalvings; ++i) {
    const double mid = 0.5 * (validUpTo + invalidFrom);
    robot.interpolate(a, b, mid, q);
    if (!checker_.isValid(q)) {
      invalidFrom = mid;
      continue;
    }
    const EdgeResult prefix = checker_.checkEdge(a, q);
    if (accepted(prefix)) {
      validUpTo = mid;
    } else {
      // The sub-edge a -> q(mid) is the piece [0, mid] of a -> b, traversed at the same pace.
      invalidFrom = std::isnan(prefix.witness_t) ? mid : std::max(validUpTo, prefix.witness_t * mid);
    }
  }
  if (lastValid.first != nullptr) {
    robot.interpolate(a, b, validUpTo, q);
    space->fromConfig(q, lastValid.first);
  }
  lastValid.second = validUpTo;
  ++invalid_;
  return false;
}

OmplPlanner::OmplPlanner(PlannerSettings settings) : Planner(std::move(settings)) {
  ompl::msg::setLogLevel(ompl::msg::LOG_WARN);
}

std::optional<std::vector<Vertex>> OmplPlanner::search(Checker& checker, Roadmap& roadmap, PlanResult& result) {
  const Robot& robot = checker.robot();
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
  objective->setCostThreshold(ob::Cost(std::numeric_limits<double>::infinity()));  // the first solution ends the run
  pdef->setOptimizationObjective(objective);

  ob::PlannerPtr planner;
  if (settings_.type == "ompl_prm") {
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
  planner->setup();
  const ob::PlannerStatus status = planner->solve(ob::PlannerTerminationCondition([this] { return outOfTime(); }));

  const auto& motions = *si->getMotionValidator();
  result.planner_stats.samples_drawn = samplesDrawn.load();
  result.planner_stats.edges_attempted = motions.getCheckedMotionCount();
  result.planner_stats.edges_colliding = motions.getInvalidMotionCount();

  // The roadmap OMPL built, for statistics and pictures (start and goal are vertices 0 and 1).
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
  const EdgeState builtState = settings_.type == "ompl_prm" ? EdgeState::Free : EdgeState::Unchecked;
  std::vector<unsigned int> targets;
  for (unsigned int i = 0; i < data.numVertices(); ++i) {
    data.getEdges(i, targets);
    for (unsigned int j : targets)
      if (i < j || !boost::edge(vertexOf[j], vertexOf[i], roadmap.graph()).second)
        roadmap.addEdge(vertexOf[i], vertexOf[j], builtState);
  }

  if (status != ob::PlannerStatus::EXACT_SOLUTION) {
    result.status = outOfTime() ? "time limit" : status.asString();
    return std::nullopt;
  }
  const auto& path = *pdef->getSolutionPath()->as<og::PathGeometric>();
  std::vector<Vertex> vertices;
  for (std::size_t i = 0; i < path.getStateCount(); ++i) {
    const Config q = space->toConfig(path.getState(static_cast<unsigned int>(i)));
    std::optional<Vertex> match;
    for (std::size_t v = 0; v < roadmap.vertexCount() && !match; ++v)
      if (roadmap.config(v) == q) match = v;
    vertices.push_back(match ? *match : roadmap.addVertex(q));
    if (i > 0) roadmap.addEdge(vertices[i - 1], vertices[i], EdgeState::Free);
  }
  return vertices;
}

}  // namespace prmkit
