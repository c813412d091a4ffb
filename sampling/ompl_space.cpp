#include "sampling/ompl_space.h"

#include <ompl/util/RandomNumbers.h>
#include <ompl/base/SpaceInformation.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace prmkit {

namespace ob = ompl::base;

namespace {

/// Uniform samples from Robot::sampleUniform; near and Gaussian samples move
/// from the given state towards a uniform sample, so that every sample obeys
/// the robot's own bounds and rotation representation.
class RobotStateSampler final : public ob::StateSampler {
 public:
  RobotStateSampler(const RobotStateSpace* space, std::uint32_t seed, std::uint32_t allocation,
                    std::atomic<std::uint64_t>& drawn)
      : ob::StateSampler(space), space_(space), allocation_(allocation), robotRng_(seed), drawn_(drawn) {}

  void sampleUniform(ob::State* state) override {
    followStream();
    space_->robot().sampleUniform(robotRng_, q_);
    ++drawn_;
    space_->fromConfig(q_, state);
  }
  void sampleUniformNear(ob::State* state, const ob::State* near, double distance) override {
    followStream();
    towards(state, near, robotRng_.uniformReal(0.0, distance));
  }
  void sampleGaussian(ob::State* state, const ob::State* mean, double stdDev) override {
    followStream();
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

  /// Reseeds from the space's stream when it was restarted since the last draw.
  void followStream() {
    if (epoch_ == space_->streamEpoch()) return;
    epoch_ = space_->streamEpoch();
    robotRng_.reseed(space_->stream() * 2654435761u + 40503u * allocation_ + 1u);
  }

  const RobotStateSpace* space_;
  std::uint32_t allocation_;
  std::uint64_t epoch_ = 0;
  /// Seeded as OMPL seeds a new RNG (from its global seed, which OMPL's
  /// planners set), until the space's stream reseeds it.
  Random robotRng_{static_cast<std::uint32_t>(ompl::RNG().getLocalSeed())};
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
  return std::make_shared<RobotStateSampler>(this, seed, samplersAllocated_, samplesDrawn_);
}

void RobotStateSpace::restartStreams(std::uint32_t stream) {
  ++streamEpoch_;
  stream_ = stream;
}

CheckerValidityChecker::CheckerValidityChecker(const ob::SpaceInformationPtr& si, Checker& checker,
                                               ClearanceFunction clearance)
    : ob::StateValidityChecker(si), checker_(checker), clearance_(std::move(clearance)) {}

bool CheckerValidityChecker::isValid(const ob::State* state) const {
  return checker_.isValid(si_->getStateSpace()->as<RobotStateSpace>()->toConfig(state));
}

bool CheckerValidityChecker::isValid(const ob::State* state, double& distance) const {
  const bool valid = isValid(state);
  distance = valid ? clearance(state) : 0.0;
  return valid;
}

double CheckerValidityChecker::clearance(const ob::State* state) const {
  return clearance_ ? clearance_(si_->getStateSpace()->as<RobotStateSpace>()->toConfig(state)) : 0.0;
}

CheckerMotionValidator::CheckerMotionValidator(const ob::SpaceInformationPtr& si, Checker& checker,
                                               double minConfidence)
    : ob::MotionValidator(si), checker_(checker), minConfidence_(minConfidence) {}

bool CheckerMotionValidator::accepted(const EdgeResult& edge) const { return usableEdge(edge, minConfidence_); }

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
  const ValidPrefix prefix =
      validPrefix(checker_, a, b, invalidFrom, [this](const EdgeResult& edge) { return accepted(edge); });
  if (lastValid.first != nullptr) space->fromConfig(prefix.end, lastValid.first);
  lastValid.second = prefix.t;
  ++invalid_;
  return false;
}

}  // namespace prmkit
