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
#include "shapes/convex_hull.h"
#include "shapes/primitive.h"

#include <array>
#include <cmath>
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

namespace gjk_detail {
/// Adds nothing: reduces the simplex (its `count` points, the newest last) to
/// the smallest face whose closest point to the origin is the simplex's, and
/// sets v to that point. Returns false when the origin lies inside the
/// simplex (a tetrahedron): the bodies may overlap.
bool reduceSimplex(std::array<Eigen::Vector3d, 4>& simplex, int& count, Eigen::Vector3d& v);
}  // namespace gjk_detail

/// GJK on any two convex bodies given by the support mapping of their
/// Minkowski difference: `support(d)` returns a point of a - b (world frame)
/// with the largest <d, point>, i.e. support_a(d) - support_b(-d). `start`
/// is a direction from b to a to begin with (non-zero); `scale` is the
/// bodies' size, below whose 1e-12 the closest point counts as the origin.
/// The search stops early once the separation along its current direction
/// reaches `enough` (m). Hulls, primitives, triangles and boxes all go
/// through this one loop.
template <class SupportDifference>
GjkResult gjkSearch(SupportDifference&& support, const Eigen::Vector3d& start, double enough, double scale) {
  GjkResult result;
  // v: the point of the current simplex closest to the origin; it
  // approximates pA - pB, so -v points from a to b.
  std::array<Eigen::Vector3d, 4> simplex;
  simplex[0] = support(-start);
  int count = 1;
  Eigen::Vector3d v = simplex[0];
  constexpr int kMaxIterations = 64;
  for (result.iterations = 0; result.iterations < kMaxIterations; ++result.iterations) {
    const Eigen::Vector3d w = support(-v);
    const double vv = v.squaredNorm();
    // w is the furthest the difference reaches towards the origin along -v:
    // the difference lies beyond v.w / |v| along v (the slab gap the caller
    // will prove), and if w brings no real progress, v is (nearly) the closest point.
    if (v.dot(w) >= enough * std::sqrt(vv) || vv - v.dot(w) <= 1e-12 * vv) break;
    simplex[static_cast<std::size_t>(count++)] = w;
    const Eigen::Vector3d previous = v;
    if (!gjk_detail::reduceSimplex(simplex, count, v) || v.squaredNorm() <= 1e-24 * scale * scale) {
      result.may_overlap = true;
      return result;
    }
    // Each step shortens v in exact arithmetic; one that does not is rounding
    // going round in circles (near-parallel faces), so the search stops with
    // the shortest v, still a point of the difference (an upper bound).
    if (!(v.squaredNorm() < vv)) {
      v = previous;
      break;
    }
  }
  result.direction = -v;
  result.distance = v.norm();
  return result;
}

/// GJK between a convex body a, given by its support mapping `supportA(d)`
/// in the primitive's frame, and primitive b at that frame's origin: on the
/// primitive's search proxy first (Primitive::searchSupport, a point or a
/// polytope, where GJK ends in a few steps), then, when the proxy may touch
/// a but the primitive leaves room (searchSlack > 0), on the primitive's
/// exact support. `start` is a direction from b to a. A separation found
/// has `distance` at least the true distance (the proxy's, plus its slack).
template <class SupportA>
GjkResult gjkAgainstPrimitive(SupportA&& supportA, const Primitive& b, const Eigen::Vector3d& start, double enough,
                              double scale) {
  auto proxy = [&](const Eigen::Vector3d& d) { return Eigen::Vector3d(supportA(d) - b.searchSupport(-d)); };
  GjkResult result = gjkSearch(proxy, start, enough + b.searchMargin(), scale);
  result.distance -= b.searchMargin();
  if (!result.may_overlap && result.distance > 0.0) {
    result.distance += b.searchSlack();
    return result;
  }
  if (b.searchSlack() > 0.0) {
    auto exact = [&](const Eigen::Vector3d& d) { return Eigen::Vector3d(supportA(d) - b.support(-d)); };
    const int iterations = result.iterations;
    result = gjkSearch(exact, start, enough, scale);
    result.iterations += iterations;
    if (!result.may_overlap && result.distance > 0.0) return result;
  }
  result.may_overlap = true;
  return result;
}

/// `guess`: a direction from a to b to start from (zero: from centre to
/// centre); `startA`/`startB`: vertices to start the support searches from.
/// The search stops early once the separation along its current direction
/// reaches `enough` (m): a caller that needs no more than that is served.
GjkResult gjkSeparation(const ConvexHull& a, const Transform& poseA, const ConvexHull& b, const Transform& poseB,
                        const Eigen::Vector3d& guess, int startA = 0, int startB = 0,
                        double enough = std::numeric_limits<double>::infinity());

/// The same between a placed hull and a placed primitive (exact support
/// points, run on the primitive's core and less its margin: primitive.h);
/// `vertex_b` is unused.
GjkResult gjkSeparation(const ConvexHull& a, const Transform& poseA, const Primitive& b, const Transform& poseB,
                        const Eigen::Vector3d& guess, int startA = 0,
                        double enough = std::numeric_limits<double>::infinity());

/// The vertex of the hull with the largest <direction, vertex> (mesh frame),
/// climbing from `start` along the hull's edges.
int supportVertex(const ConvexHull& hull, const Eigen::Vector3d& direction, int start);

}  // namespace prmkit
