#include "geometry/clearance.h"

#include <limits>

namespace prmkit {

double ClearanceQuery::clearance(const Config& q, double relativeError, QueryCounts& stats) {
  robot_.linkPoses(q, poses_);
  double smallest = std::numeric_limits<double>::infinity();
  const auto& links = robot_.links();
  for (std::size_t l = 0; l < links.size(); ++l) {
    for (const Obstacle& obstacle : scene_.obstacles()) {
      // A pair whose bound reaches the smallest distance so far cannot lower
      // it, so the current minimum is the traversal's stopping threshold.
      // The same cascade as `adaptive` (spheres, convex covers, BVHs): a lower bound either way.
      const DistanceBound bound = distance_.lowerBound(PlacedBody{*links[l].bvh, &links[l].cover, poses_[l]},
                                                       placedObstacle(obstacle), smallest, relativeError, true, stats);
      smallest = std::min(smallest, bound.lower);
    }
  }
  return smallest;
}

}  // namespace prmkit
