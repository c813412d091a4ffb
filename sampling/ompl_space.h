#pragma once
// prmkit's robot and checker seen through OMPL's interfaces: the state space,
// state validity and motion validation that OMPL's planners and valid-state
// samplers call, so that every check they make is a prmkit check, counted.
#include "checkers/checker.h"
#include "sampling/configuration_sampler.h"
#include "roadmap/local_planner.h"

#include <ompl/base/MotionValidator.h>
#include <ompl/base/StateValidityChecker.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>

#include <atomic>
#include <functional>

namespace prmkit {

/// The robot's configuration space for OMPL: prmkit's distance, interpolation
/// (slerp on rotations), maximum extent and uniform sampler, so OMPL's
/// resolutions and neighbourhoods mean what they mean in prmkit.
class RobotStateSpace final : public ompl::base::RealVectorStateSpace {
 public:
  /// Samplers draw from their own RNGs seeded from `seed`; `samplesDrawn` counts every draw.
  RobotStateSpace(const Robot& robot, std::uint32_t seed, std::atomic<std::uint64_t>& samplesDrawn);

  double distance(const ompl::base::State* a, const ompl::base::State* b) const override;
  void interpolate(const ompl::base::State* from, const ompl::base::State* to, double t,
                   ompl::base::State* state) const override;
  double getMaximumExtent() const override;
  bool satisfiesBounds(const ompl::base::State* state) const override;
  void enforceBounds(ompl::base::State* state) const override;
  ompl::base::StateSamplerPtr allocDefaultStateSampler() const override;

  /// Restarts every sampler of this space on a stream of its own derived
  /// from `stream` (and the order it was allocated in), from its next draw:
  /// a batch sampler gives each of its slots a stream, so what a slot draws
  /// does not depend on what the same samplers drew before.
  void restartStreams(std::uint32_t stream);
  /// The epoch samplers compare with theirs before each draw (0: never restarted) and its stream.
  std::uint64_t streamEpoch() const { return streamEpoch_; }
  std::uint32_t stream() const { return stream_; }

  Config toConfig(const ompl::base::State* state) const;
  void fromConfig(const Config& q, ompl::base::State* state) const;
  const Robot& robot() const { return robot_; }

 private:
  const Robot& robot_;
  std::uint32_t seed_;
  mutable std::uint32_t samplersAllocated_ = 0;
  std::uint64_t streamEpoch_ = 0;
  std::uint32_t stream_ = 0;
  std::atomic<std::uint64_t>& samplesDrawn_;
};

/// OMPL state validity through Checker::isValid (counted in CheckStats);
/// clearance through `clearance` when one is given (else 0, OMPL's default).
class CheckerValidityChecker final : public ompl::base::StateValidityChecker {
 public:
  CheckerValidityChecker(const ompl::base::SpaceInformationPtr& si, Checker& checker,
                         ClearanceFunction clearance = nullptr);
  bool isValid(const ompl::base::State* state) const override;
  /// Clearance is computed for valid states only: an invalid one has none.
  bool isValid(const ompl::base::State* state, double& distance) const override;
  double clearance(const ompl::base::State* state) const override;

 private:
  Checker& checker_;  // not owned; one checker per planner run
  ClearanceFunction clearance_;
};

/// OMPL motion validation through Checker::checkEdge. A motion is valid when
/// the edge is Free, or Unknown with at least `minConfidence` percent (the
/// planner policy of prmkit's own planners; OMPL cannot verify afterwards).
class CheckerMotionValidator final : public ompl::base::MotionValidator {
 public:
  CheckerMotionValidator(const ompl::base::SpaceInformationPtr& si, Checker& checker, double minConfidence);
  bool checkMotion(const ompl::base::State* s1, const ompl::base::State* s2) const override;
  /// On an invalid motion, `lastValid` gets a configuration and its parameter
  /// such that the motion from s1 to it is valid by the checker's own verdict:
  /// the free prefix is narrowed by bisection between 0 and the witness.
  bool checkMotion(const ompl::base::State* s1, const ompl::base::State* s2,
                   std::pair<ompl::base::State*, double>& lastValid) const override;

 private:
  bool accepted(const EdgeResult& edge) const;
  Checker& checker_;
  double minConfidence_;
};

}  // namespace prmkit
