#pragma once
// A ground truth that shares no failure mode with the checkers it judges.
//
// `verify` and `check --truth-eps` step along an edge by the robots' motion
// bounds and test each step with prmkit's counted narrow phase; a wrong
// motion bound or a wrong distance would fool them together with `adaptive`.
// This check uses neither: it steps in C-space at a fixed resolution (a
// fraction of the space's extent, like OMPL's longest valid segment, with
// translation and rotation each against their own extent:
// Robot::resolutionSteps) and
// tests every link against every obstacle and every checked link pair with
// plain fcl::collide on BVHs built here from the unmodified meshes (and FCL's
// own shapes for primitive obstacles), without a broad phase. What it still shares with the checkers is the definition
// of the motion (Robot::interpolate, Robot::linkPoses), which is the problem, not a solution to it.
#include "scene/scene.h"
#include "robots/robot.h"

#include <fcl/narrowphase/collision_object.h>

#include <memory>
#include <optional>
#include <vector>

namespace prmkit {

class IndependentCheck {
 public:
  /// `resolution`: the C-space step as a fraction of the robot's maxExtent, in (0, 1].
  IndependentCheck(const Robot& robot, const Scene& scene, double resolution);

  /// Some link touches an obstacle or another checked link at q.
  bool collides(const Config& q);
  /// The first step parameter t in [0, 1] on a -> b found in collision, or
  /// nothing if every step (both endpoints included) is free.
  std::optional<double> firstCollision(const Config& a, const Config& b);
  double resolution() const { return resolution_; }
  /// Configurations tested so far.
  std::uint64_t configurationsTested() const { return tested_; }

 private:
  /// A world pose in the check's units (lengths divided by unit_).
  Transform inUnits(const Transform& pose) const;

  const Robot& robot_;
  const Scene& scene_;
  double resolution_;
  double unit_ = 1.0;  // m: the problem's size, the check's length unit
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> links_, obstacles_;
  std::vector<Transform> poses_;
  Config step_;
  std::uint64_t tested_ = 0;
};

/// The default resolution of the independent check: 1e-4 of the extent, 100
/// times finer than OMPL's default motion-check resolution.
inline constexpr double kIndependentResolution = 1e-4;

}  // namespace prmkit
