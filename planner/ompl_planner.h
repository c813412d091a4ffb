#pragma once
// OMPL's own PRM and LazyPRM as peers (issue 6): they run on prmkit's robot
// and checker through the adapters below, so that the same checker, the same
// C-space metric and the same counters are compared across planners.
#include "planner/planner.h"

#include <ompl/base/MotionValidator.h>
#include <ompl/base/StateValidityChecker.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>

#include <atomic>

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

  Config toConfig(const ompl::base::State* state) const;
  void fromConfig(const Config& q, ompl::base::State* state) const;
  const Robot& robot() const { return robot_; }

 private:
  const Robot& robot_;
  std::uint32_t seed_;
  mutable std::uint32_t samplersAllocated_ = 0;
  std::atomic<std::uint64_t>& samplesDrawn_;
};

/// OMPL state validity through Checker::isValid (counted in CheckStats).
class CheckerValidityChecker final : public ompl::base::StateValidityChecker {
 public:
  CheckerValidityChecker(const ompl::base::SpaceInformationPtr& si, Checker& checker);
  bool isValid(const ompl::base::State* state) const override;

 private:
  Checker& checker_;  // not owned; one checker per planner run
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

/// ompl_prm, ompl_lazy_prm: OMPL's PRM / LazyPRM with the checker for states
/// and motions. ompl_fcl_default: OMPL's LazyPRM with its stock
/// DiscreteMotionValidator at 1% of the maximum extent, the checker used only
/// for static checks (FCL in every prmkit checker) -- the stack most users run.
/// All stop at the first solution (cost threshold infinite).
class OmplPlanner final : public Planner {
 public:
  explicit OmplPlanner(PlannerSettings settings);

 private:
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, PlanResult& result) override;
  bool checksEdgesWithChecker() const override { return settings_.type != "ompl_fcl_default"; }
  bool verifiesFinalPath() const override { return false; }
};

}  // namespace prmkit
