#pragma once
// The per-sample bound table of the exact strategies: at each sample of a
// motion, one distance bound per body pair (SSL 2005's d(q) for each pair),
// computed only where a certificate asks for it and refined only as far as
// it asks, starting from a neighbouring sample's closest features.
#include "geometry/collision_queries.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace prmkit {

/// What a pair's distance is measured with.
struct PairDistance {
  BvhDistance& distance;
  CollisionQueries& collision;
  double relative_error;  // distance_relative_error
  bool convex;            // geometry: convex (the hulls first)
  QueryCounts& stats;
};

/// The bound of `pair` in the sample's table `bounds`, computed or refined
/// until it answers `threshold` (m); a new computation starts from `hint`
/// (the pair's bound at a neighbouring sample) and adds the pair to
/// `touched` when it had none. `bodies()` places the pair's two bodies at
/// the sample, called only when a query needs them. Empty when the pair
/// touches there, confirmed on the exact geometry. `computed`: whether a
/// distance query ran.
template <class Bodies>
std::optional<DistanceBound> pairBoundAt(std::vector<DistanceBound>& bounds, std::vector<std::uint32_t>& touched,
                                         std::uint32_t pair, double threshold, const DistanceBound& hint,
                                         Bodies&& bodies, const PairDistance& with, bool& computed) {
  DistanceBound& bound = bounds[pair];
  computed = false;
  if (bound.answers(threshold, with.relative_error)) {
    if (bound.touching()) {
      const auto [a, b] = bodies();
      if (with.collision.overlap(a, b, with.stats)) return std::nullopt;
    }
    return bound;
  }
  // Copied: `bound` is overwritten below, and the hint may be that very bound's predecessor.
  const DistanceBound start = hint;
  const auto [a, b] = bodies();
  if (!bound.known()) touched.push_back(pair);
  computed = true;
  const BoundOrContact found = distanceOrContact(with.distance, with.collision, a, b, threshold, with.relative_error,
                                                 with.convex, with.stats, &start);
  bound = found.bound;
  if (found.contact) return std::nullopt;
  return bound;
}

/// A lower bound on a pair's distance from enclosing volumes alone: the gap
/// between the link's enclosing sphere (world centre, radius) and `other`
/// (another link's sphere, or an obstacle's), raised for an obstacle whose
/// enclosing box is given, when the spheres' gap is below `threshold` (m),
/// by the link's sphere against that box (much tighter around a board or a
/// table top): a lower bound for the same reason. Counts bv_tests.
inline double enclosingLowerBound(const Eigen::Vector3d& centre, double radius, const BvhDistance::Sphere& other,
                                  const BvhDistance::Enclosing* obstacleBox, const Transform& obstaclePose,
                                  double threshold, QueryCounts& stats) {
  ++stats.bv_tests;
  const double spheres = BvhDistance::sphereGap(centre, radius, other.centre, other.radius);
  if (spheres >= threshold || !obstacleBox) return spheres;
  ++stats.bv_tests;
  return std::max(spheres, BvhDistance::pointBoxDistance(centre, *obstacleBox, obstaclePose) - radius);
}

}  // namespace prmkit
