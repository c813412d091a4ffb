#include "checkers/gjk.h"

#include "checkers/triangle_distance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace prmkit {

namespace {
using Eigen::Vector3d;

/// Closest point to the origin of segment [p, q] and the points it needs.
Vector3d closestOnSegment(const Vector3d& p, const Vector3d& q, std::array<Vector3d, 4>& points, int& count) {
  const Vector3d d = q - p;
  const double length = d.squaredNorm();
  const double t = length > 0.0 ? std::clamp(-p.dot(d) / length, 0.0, 1.0) : 0.0;
  if (t <= 0.0) {
    count = 1;
    points[0] = p;
    return p;
  }
  if (t >= 1.0) {
    count = 1;
    points[0] = q;
    return q;
  }
  return p + t * d;
}

/// Closest point to the origin of triangle (a, b, c); the simplex keeps all three points.
Vector3d closestOnTriangle(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  return closestPointOnTriangle(Vector3d::Zero(), a, b, c);
}

/// The origin and d lie on the same side of the plane through a, b, c.
bool sameSide(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  const Vector3d normal = (b - a).cross(c - a);
  const double sideD = normal.dot(d - a), sideOrigin = normal.dot(-a);
  return sideD * sideOrigin > 0.0;
}
}  // namespace

int supportVertex(const ConvexHull& hull, const Vector3d& direction, int start) {
  int best = (start >= 0 && static_cast<std::size_t>(start) < hull.vertices.size()) ? start : 0;
  double bestDot = direction.dot(hull.vertices[static_cast<std::size_t>(best)]);
  // Each step strictly increases the dot product, so this ends; on a convex
  // polytope a vertex with no better neighbour is the global maximum.
  const int* list = hull.neighbour_list.data();
  for (bool improved = true; improved;) {
    improved = false;
    const auto from = static_cast<std::size_t>(best);
    for (int k = hull.neighbour_start[from]; k < hull.neighbour_start[from + 1]; ++k) {
      const int n = list[k];
      const double dot = direction.dot(hull.vertices[static_cast<std::size_t>(n)]);
      if (dot > bestDot) {
        bestDot = dot;
        best = n;
        improved = true;
      }
    }
  }
  return best;
}

GjkResult gjkSeparation(const ConvexHull& a, const Transform& poseA, const ConvexHull& b, const Transform& poseB,
                        const Vector3d& guess, int startA, int startB, double enough) {
  GjkResult result;
  result.vertex_a = startA;
  result.vertex_b = startB;
  const Eigen::Matrix3d toA = poseA.linear().transpose(), toB = poseB.linear().transpose();
  // A point of the Minkowski difference a - b extreme in direction d.
  auto support = [&](const Vector3d& d) {
    result.vertex_a = supportVertex(a, toA * d, result.vertex_a);
    result.vertex_b = supportVertex(b, toB * -d, result.vertex_b);
    return Vector3d(poseA * a.vertices[static_cast<std::size_t>(result.vertex_a)] -
                    poseB * b.vertices[static_cast<std::size_t>(result.vertex_b)]);
  };
  // v: the point of the current simplex closest to the origin; it
  // approximates pA - pB, so -v points from a to b.
  Vector3d start = guess.isZero() ? Vector3d(poseA * a.center - poseB * b.center) : Vector3d(-guess);
  if (start.isZero()) start = Vector3d::UnitX();
  // The search starts from a point of the difference: its support towards the guessed closest point.
  std::array<Vector3d, 4> simplex;
  simplex[0] = support(-start);
  int count = 1;
  Vector3d v = simplex[0];
  constexpr int kMaxIterations = 64;
  for (result.iterations = 0; result.iterations < kMaxIterations; ++result.iterations) {
    const Vector3d w = support(-v);
    const double vv = v.squaredNorm();
    // w is the furthest the difference reaches towards the origin along -v:
    // the difference lies beyond v.w / |v| along v (the slab gap the caller
    // will prove), and if w brings no real progress, v is (nearly) the closest point.
    if (v.dot(w) >= enough * std::sqrt(vv) || vv - v.dot(w) <= 1e-12 * vv) break;
    simplex[static_cast<std::size_t>(count++)] = w;
    if (count == 1) {
      v = w;
    } else if (count == 2) {
      v = closestOnSegment(simplex[0], simplex[1], simplex, count);
    } else if (count == 3) {
      v = closestOnTriangle(simplex[0], simplex[1], simplex[2]);
    } else {
      // A tetrahedron: the origin inside means the hulls may overlap;
      // otherwise keep the face nearest the origin.
      const bool inside = sameSide(simplex[0], simplex[1], simplex[2], simplex[3]) &&
                          sameSide(simplex[0], simplex[1], simplex[3], simplex[2]) &&
                          sameSide(simplex[0], simplex[2], simplex[3], simplex[1]) &&
                          sameSide(simplex[1], simplex[2], simplex[3], simplex[0]);
      if (inside) {
        result.may_overlap = true;
        return result;
      }
      constexpr int kFaces[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
      double bestNorm = std::numeric_limits<double>::infinity();
      int bestFace = 0;
      Vector3d bestPoint = v;
      for (int f = 0; f < 4; ++f) {
        const Vector3d p = closestOnTriangle(simplex[static_cast<std::size_t>(kFaces[f][0])],
                                             simplex[static_cast<std::size_t>(kFaces[f][1])],
                                             simplex[static_cast<std::size_t>(kFaces[f][2])]);
        if (p.squaredNorm() < bestNorm) {
          bestNorm = p.squaredNorm();
          bestFace = f;
          bestPoint = p;
        }
      }
      const std::array<Vector3d, 4> old = simplex;
      for (int k = 0; k < 3; ++k) simplex[static_cast<std::size_t>(k)] = old[static_cast<std::size_t>(kFaces[bestFace][k])];
      count = 3;
      v = bestPoint;
    }
    if (v.squaredNorm() <= 1e-24 * (a.radius + b.radius + 1e-300) * (a.radius + b.radius + 1e-300)) {
      result.may_overlap = true;
      return result;
    }
  }
  result.direction = -v;
  result.distance = v.norm();
  return result;
}

}  // namespace prmkit
