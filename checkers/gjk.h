#pragma once
// GJK (Gilbert, Johnson and Keerthi, IEEE J. Robotics and Automation 1988)
// between two placed convex hulls, used only to find a separating direction.
//
// Why prmkit's own and not FCL's: FCL 0.7 finds a convex shape's support
// point by scanning every vertex, which made GJK cost more than the BVH
// traversal it was meant to skip (a tessellated sphere has ~500 hull
// vertices). Here supports climb the hull's edges from the previous support
// vertex (hill climbing, exact on a convex polytope), and the search starts
// from the last query's direction on the same pair (Xavier 1997 runs
// Gilbert's algorithm on convex pieces the same way; Mirtich 1997 tracks
// closest features across queries).
//
// Nothing here has to be exact: callers turn the direction into a proven
// lower bound with a slab gap over every vertex (bvh_distance.cpp), so an
// early stop or a rounding error costs tightness, never soundness.
#include "environments/convex_hull.h"

#include <limits>

namespace prmkit {

struct GjkResult {
  /// The origin may lie in the Minkowski difference: the hulls may overlap.
  bool may_overlap = false;
  /// Direction from hull a towards hull b (world frame, not normalised).
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  /// Distance between the closest points found (m): an estimate.
  double distance = 0.0;
  /// Support vertices of the last iteration, where the next query can start.
  int vertex_a = 0, vertex_b = 0;
  int iterations = 0;
};

/// `guess`: a direction from a to b to start from (zero: from centre to
/// centre); `startA`/`startB`: vertices to start the support searches from.
/// The search stops early once the separation along its current direction
/// reaches `enough` (m): a caller that needs no more than that is served.
GjkResult gjkSeparation(const ConvexHull& a, const Transform& poseA, const ConvexHull& b, const Transform& poseB,
                        const Eigen::Vector3d& guess, int startA = 0, int startB = 0,
                        double enough = std::numeric_limits<double>::infinity());

/// The vertex of the hull with the largest <direction, vertex> (mesh frame),
/// climbing from `start` along the hull's edges.
int supportVertex(const ConvexHull& hull, const Eigen::Vector3d& direction, int start);

}  // namespace prmkit
