#pragma once
// Distance between two triangles with a lower bound that holds at every scale.
//
// Why not FCL's TriangleDistance alone: FCL 0.7 skips its vertex-over-face
// case when a squared cross product is below an absolute 1e-15, so for
// triangles with legs under about 0.2 mm it returns an edge-edge distance that
// is larger than the true one, and a BVH traversal built on it certifies
// colliding motions of small parts as free.
//
// Here the closest pair is searched among the 6 vertex-face and 9 edge-edge
// candidates (Ericson, Real-Time Collision Detection, 5.1.5 and 5.1.9; every
// threshold is relative to the triangles' own size), and the lower bound does
// not trust that search: for any direction u, the slab gap
//   min_j <u, b_j> - max_i <u, a_i>   (|u| = 1)
// is at most the distance between the two convex hulls (every point pair
// a in A, b in B has |b - a| >= <u, b - a> >= the gap), so it is a lower bound
// whatever u is; with u along the closest pair found it equals the distance
// when the search is right, and only gets smaller when it is wrong. Rounding
// of the dot products is covered by a margin relative to the coordinates'
// magnitude.
#include <Eigen/Core>

namespace prmkit {

struct TriangleDistance {
  /// A proven lower bound on the distance (m), >= 0; 0 when the triangles may touch.
  double lower = 0.0;
  /// The distance between the two points found (m): an upper bound.
  double upper = 0.0;
  /// The points found, on triangle a and on triangle b.
  Eigen::Vector3d on_a, on_b;
};

/// Closest point of triangle (a, b, c) to p, by Voronoi regions (Ericson
/// 5.1.5). A degenerate triangle falls back to a vertex: callers that need
/// its edges test them as segments, and any point of it is a valid candidate.
Eigen::Vector3d closestPointOnTriangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                       const Eigen::Vector3d& c);

/// Both triangles given in the same frame.
TriangleDistance triangleDistance(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& a2,
                                  const Eigen::Vector3d& b0, const Eigen::Vector3d& b1, const Eigen::Vector3d& b2);

/// Smallest distance from a point set to a point set along direction u: a
/// lower bound on the distance between their convex hulls, minus a margin
/// for the rounding of the dot products (see the file comment). `u` need not
/// be unit; a zero or non-finite u gives 0.
double slabGapLowerBound(const Eigen::Vector3d& u, const Eigen::Vector3d* a, int countA, const Eigen::Vector3d* b,
                         int countB);

}  // namespace prmkit
