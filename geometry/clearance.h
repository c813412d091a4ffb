#pragma once
// Clearance of a configuration: a lower bound on the distance between the
// robot's links and the obstacles, for samplers that prefer configurations
// far from obstacles (OMPL's MaximizeClearanceValidStateSampler).
#include "geometry/bvh_distance.h"
#include "scene/scene.h"
#include "robots/robot.h"

namespace prmkit {

class ClearanceQuery {
 public:
  /// Both must outlive the query.
  ClearanceQuery(const Robot& robot, const Scene& scene) : robot_(robot), scene_(scene) {}

  /// Smallest (link, obstacle) distance at q, as a lower bound within a factor
  /// (1 + relativeError) of the true one (m). Self-distances do not count.
  /// Infinity when the scene has no obstacles. Counts into `stats`.
  double clearance(const Config& q, double relativeError, QueryCounts& stats);

 private:
  const Robot& robot_;
  const Scene& scene_;
  BvhDistance distance_;
  std::vector<Transform> poses_;
};

}  // namespace prmkit
