#include "geometry/gjk.h"

#include "geometry/triangle_distance.h"

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

/// Closest point to the origin of the triangle simplex[0..2]; the simplex
/// keeps only the vertices whose barycentric weight in that point is
/// positive (the closest feature: face, edge or vertex), as GJK's simplex
/// reduction does, so that a point that no longer helps does not slow the
/// search down (on curved bodies it made GJK hit its iteration limit).
Vector3d closestOnTriangle(std::array<Vector3d, 4>& simplex, int& count) {
  const Vector3d a = simplex[0], b = simplex[1], c = simplex[2];
  const Vector3d p = closestPointOnTriangle(Vector3d::Zero(), a, b, c);
  const Vector3d normal = (b - a).cross(c - a);
  const double area = normal.squaredNorm();
  if (!(area > 1e-24 * (b - a).squaredNorm() * (c - a).squaredNorm())) return p;  // a sliver: keep all three
  const double weights[3] = {normal.dot((b - p).cross(c - p)) / area, normal.dot((c - p).cross(a - p)) / area,
                             normal.dot((a - p).cross(b - p)) / area};
  const Vector3d points[3] = {a, b, c};
  int kept = 0;
  for (int k = 0; k < 3; ++k)
    if (weights[k] > 1e-12) simplex[static_cast<std::size_t>(kept++)] = points[k];
  if (kept == 0) {
    simplex[0] = p;
    kept = 1;
  }
  count = kept;
  return p;
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

namespace gjk_detail {
bool reduceSimplex(std::array<Vector3d, 4>& simplex, int& count, Vector3d& v) {
  if (count == 1) {
    v = simplex[0];
  } else if (count == 2) {
    v = closestOnSegment(simplex[0], simplex[1], simplex, count);
  } else if (count == 3) {
    v = closestOnTriangle(simplex, count);
  } else {
    // A tetrahedron: the origin inside means the bodies may overlap;
    // otherwise keep the face nearest the origin. A flat one (the four
    // points in one plane, as when a triangle's plane passes through a
    // sphere's centre and every support stays in it) has no inside: its
    // side tests compare roundings, so its nearest face decides.
    const Vector3d e1 = simplex[1] - simplex[0], e2 = simplex[2] - simplex[0], e3 = simplex[3] - simplex[0];
    const bool flat = std::abs(e1.cross(e2).dot(e3)) <= 1e-9 * e1.norm() * e2.norm() * e3.norm();
    const bool inside = !flat && sameSide(simplex[0], simplex[1], simplex[2], simplex[3]) &&
                        sameSide(simplex[0], simplex[1], simplex[3], simplex[2]) &&
                        sameSide(simplex[0], simplex[2], simplex[3], simplex[1]) &&
                        sameSide(simplex[1], simplex[2], simplex[3], simplex[0]);
    if (inside) return false;
    constexpr int kFaces[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    double bestNorm = std::numeric_limits<double>::infinity();
    int bestFace = 0;
    for (int f = 0; f < 4; ++f) {
      const Vector3d p = closestPointOnTriangle(Vector3d::Zero(), simplex[static_cast<std::size_t>(kFaces[f][0])],
                                                simplex[static_cast<std::size_t>(kFaces[f][1])],
                                                simplex[static_cast<std::size_t>(kFaces[f][2])]);
      if (p.squaredNorm() < bestNorm) {
        bestNorm = p.squaredNorm();
        bestFace = f;
      }
    }
    const std::array<Vector3d, 4> old = simplex;
    for (int k = 0; k < 3; ++k)
      simplex[static_cast<std::size_t>(k)] = old[static_cast<std::size_t>(kFaces[bestFace][k])];
    count = 3;
    v = closestOnTriangle(simplex, count);
  }
  return true;
}
}  // namespace gjk_detail

GjkResult gjkSeparation(const ConvexHull& a, const Transform& poseA, const ConvexHull& b, const Transform& poseB,
                        const Vector3d& guess, int startA, int startB, double enough) {
  int vertexA = startA, vertexB = startB;
  const Eigen::Matrix3d toA = poseA.linear().transpose(), toB = poseB.linear().transpose();
  // A point of the Minkowski difference a - b extreme in direction d.
  auto support = [&](const Vector3d& d) {
    vertexA = supportVertex(a, toA * d, vertexA);
    vertexB = supportVertex(b, toB * -d, vertexB);
    return Vector3d(poseA * a.vertices[static_cast<std::size_t>(vertexA)] -
                    poseB * b.vertices[static_cast<std::size_t>(vertexB)]);
  };
  Vector3d start = guess.isZero() ? Vector3d(poseA * a.center - poseB * b.center) : Vector3d(-guess);
  if (start.isZero()) start = Vector3d::UnitX();
  GjkResult result = gjkSearch(support, start, enough, a.radius + b.radius + 1e-300);
  result.vertex_a = vertexA;
  result.vertex_b = vertexB;
  return result;
}

GjkResult gjkSeparation(const ConvexHull& a, const Transform& poseA, const Primitive& b, const Transform& poseB,
                        const Vector3d& guess, int startA, double enough) {
  // In the primitive's frame, where its support points are closed forms.
  const Transform relative = poseB.inverse() * poseA;
  const Eigen::Matrix3d toA = relative.linear().transpose();
  int vertexA = startA;
  auto supportA = [&](const Vector3d& d) {
    vertexA = supportVertex(a, toA * d, vertexA);
    return Vector3d(relative * a.vertices[static_cast<std::size_t>(vertexA)]);
  };
  Vector3d start = guess.isZero() ? Vector3d(relative * a.center) : Vector3d(-(poseB.linear().transpose() * guess));
  if (start.isZero()) start = Vector3d::UnitX();
  GjkResult result = gjkAgainstPrimitive(supportA, b, start, enough, a.radius + b.boundingRadius() + 1e-300);
  result.direction = poseB.linear() * result.direction;
  result.vertex_a = vertexA;
  return result;
}

}  // namespace prmkit
