#pragma once
// Where a robot's links pierce the obstacles: FCL's triangle-pair contacts
// (a point, the normal of the triangle plane the other triangle crosses, and
// how deep it crosses), for retraction (Zhang & Manocha 2008 move a
// colliding configuration out along its penetration; sampling/
// retraction_sampler.h). A direction, not a verdict: depths are per
// triangle pair, and a link wholly inside a solid has no contact at all.
#include "geometry/query_counts.h"
#include "scene/scene.h"
#include "robots/robot.h"

#include <vector>

namespace prmkit {

struct PenetrationContact {
  std::size_t link = 0;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // world frame (m)
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // world frame, unit, from the link into the obstacle
  double depth = 0.0;                                // (m)
};

/// At most `perPair` contacts of each (link, obstacle) pair at the links'
/// world poses into `out` (emptied first), on the meshes' BVHs (a primitive
/// obstacle's enclosing mesh). Counts each pair's test with its BV and
/// triangle tests (not a static query: it decides no validity).
void penetrationContacts(const Robot& robot, const Scene& scene, const std::vector<Transform>& linkPoses,
                         std::size_t perPair, QueryCounts& stats, std::vector<PenetrationContact>& out);

}  // namespace prmkit
