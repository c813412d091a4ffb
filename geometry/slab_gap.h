#pragma once
// Slab gaps: for any direction u, the gap between two convex bodies' support
// planes of normal u is a lower bound on their distance. Every distance
// bound prmkit proves from a GJK direction is one of these, computed over
// every vertex (exact on a polytope) or by a primitive's closed-form support
// point, less a rounding margin.
#include "base/largest_of.h"
#include "shapes/convex_hull.h"
#include "shapes/primitive.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prmkit {

/// max over the hull of <u, x> in the world, x = pose * vertex (every vertex: exact).
inline double placedSupport(const ConvexHull& hull, const Transform& pose, const Eigen::Vector3d& u) {
  const Eigen::Vector3d local = pose.linear().transpose() * u;
  return largestOf(hull.vertices, -std::numeric_limits<double>::infinity(),
                   [&local](const Eigen::Vector3d& v) { return local.dot(v); }) +
         u.dot(pose.translation());
}

/// A computed slab gap less its rounding margin, 64 ulps of the coordinates'
/// magnitude (0 when it is not a number).
inline double provenGap(double gap, double magnitude) {
  const double margin = 64.0 * std::numeric_limits<double>::epsilon() * magnitude;
  return std::isfinite(gap) ? std::max(gap - margin, 0.0) : 0.0;
}

/// The slab gap along u (a to b) between two placed convex hulls, minus a
/// rounding margin: a lower bound on the distance between them (and so
/// between the meshes they contain) for any u (triangle_distance.h). The margin covers the dot products
/// and pose products (relative to the coordinates' magnitude) and qhull's own
/// roundoff, which may leave a mesh vertex outside the hull of the vertices it
/// keeps by a few ulps.
inline double slabGap(const ConvexHull& a, const Transform& poseA, const ConvexHull& b, const Transform& poseB,
                      const Eigen::Vector3d& u) {
  const double length = u.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return 0.0;
  const double magnitude = std::max(a.radius, b.radius) + poseA.translation().norm() + poseB.translation().norm();
  return provenGap((-placedSupport(b, poseB, -u) - placedSupport(a, poseA, u)) / length, magnitude);
}

/// max over the placed primitive of <u, x> (its closed-form support point).
inline double placedSupport(const Primitive& primitive, const Transform& pose, const Eigen::Vector3d& u) {
  return u.dot(pose * primitive.support(pose.linear().transpose() * u));
}

/// The slab gap along u between a placed hull and a placed primitive, less
/// the same rounding margin (the primitive's support points are closed forms,
/// exact up to a few roundings).
inline double slabGap(const ConvexHull& a, const Transform& poseA, const Primitive& b, const Transform& poseB,
                      const Eigen::Vector3d& u) {
  const double length = u.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return 0.0;
  const double magnitude =
      std::max(a.radius, b.boundingRadius()) + poseA.translation().norm() + poseB.translation().norm();
  return provenGap((-placedSupport(b, poseB, -u) - placedSupport(a, poseA, u)) / length, magnitude);
}

}  // namespace prmkit
