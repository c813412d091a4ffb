#pragma once
// Distance bounds between swept convex bodies, after Xavier, "Fast swept-volume
// distance for robust collision detection" (ICRA 1997): a convex piece that
// translates from one pose to another sweeps exactly the convex hull of its
// vertices at both poses, so Gilbert's algorithm (GJK) on the union of the
// two vertex sets gives the swept piece's distance to an obstacle at the
// cost of one query on twice the vertices (Xavier, Sec. 3 and Table 1).
// When the piece also turns, every point strays from the straight segment
// between its two positions by at most a growth the caller bounds
// (Robot::linkAccelerationBounds), and the gap must exceed that growth.
#include "geometry/query_counts.h"
#include "shapes/convex_hull.h"
#include "shapes/primitive.h"

namespace prmkit {

/// A convex hull (in its body's frame) moving from pose `from` to pose `to`.
struct SweptHull {
  const ConvexHull& hull;
  const Transform& from;
  const Transform& to;
};

/// Where a search on the same two bodies starts: the last separating
/// direction (world, from a to b; zero: from centre to centre) and the
/// support vertices of each hull at each of its poses. Nearby pieces of an
/// edge need few GJK steps from there (Xavier 1997 and Mirtich 1997 track
/// closest features across queries the same way).
struct SweptWarmStart {
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  int a_from = 0, a_to = 0, b_from = 0, b_to = 0;
};

/// A proven lower bound (m) on the distance between the convex hull of a's
/// vertices at both of its poses and that of b's (for a body that does not
/// move, pass the same pose twice): GJK on the two vertex sets' supports
/// (hill climbing at both poses, the larger one taken), then the slab gap
/// along the direction it found over every vertex at both poses, less a
/// rounding margin. 0 when GJK finds that the two may touch. GJK stops once
/// the separation reaches `enough` (m). Counts a GJK run and its iterations.
/// With `warm`, the search starts there and leaves its end there.
double sweptHullGap(const SweptHull& a, const SweptHull& b, double enough, QueryCounts& stats,
                    SweptWarmStart* warm = nullptr);

/// The same against a primitive that does not move, at `pose`.
double sweptHullGap(const SweptHull& a, const Primitive& b, const Transform& pose, double enough, QueryCounts& stats,
                    SweptWarmStart* warm = nullptr);

/// A lower bound (m) on the distance between a sphere of radius `radius`
/// whose centre moves along the segment [from, to] (a capsule) and a fixed
/// sphere, less a rounding margin of 64 ulps of the coordinates' magnitude.
double capsuleSphereGap(const Eigen::Vector3d& from, const Eigen::Vector3d& to, double radius,
                        const Eigen::Vector3d& centre, double otherRadius);

}  // namespace prmkit
