#include "geometry/triangle_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace prmkit {

using Eigen::Vector3d;

namespace {
/// Ericson 5.1.5: p projects onto the edge from `start` along `edge` when its
/// barycentric region test `region` <= 0 and its dot products with the edge
/// from either end, `fromStart` and `fromEnd`, straddle it; then the
/// projection (the start itself for a degenerate edge).
std::optional<Vector3d> onEdge(double region, double fromStart, double fromEnd, const Vector3d& start,
                               const Vector3d& edge) {
  if (!(region <= 0.0 && fromStart >= 0.0 && fromEnd <= 0.0)) return std::nullopt;
  const double denominator = fromStart - fromEnd;
  return denominator > 0.0 ? Vector3d(start + (fromStart / denominator) * edge) : start;
}
}  // namespace

Vector3d closestPointOnTriangle(const Vector3d& p, const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  const Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (const auto q = onEdge(vc, d1, d3, a, ab)) return *q;
  const Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (const auto q = onEdge(vb, d2, d6, a, ac)) return *q;
  const double va = d3 * d6 - d5 * d4;
  if (const auto q = onEdge(va, d4 - d3, -(d5 - d6), b, c - b)) return *q;
  const double sum = va + vb + vc;
  if (!(sum > 0.0) || !std::isfinite(sum)) return a;
  return a + ab * (vb / sum) + ac * (vc / sum);
}

namespace {
/// Closest points of segments [p1, q1] and [p2, q2] (Ericson 5.1.9), with the
/// parallel test relative to the segments' lengths instead of an absolute epsilon.
void closestOnSegments(const Vector3d& p1, const Vector3d& q1, const Vector3d& p2, const Vector3d& q2, Vector3d& c1,
                       Vector3d& c2) {
  const Vector3d d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a <= 0.0 && e <= 0.0) {
    // Two points.
  } else if (a <= 0.0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 0.0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denominator = a * e - b * b;  // >= 0, = |d1 x d2|^2
      if (denominator > 1e-14 * a * e) s = std::clamp((b * f - c * e) / denominator, 0.0, 1.0);
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  c1 = p1 + d1 * s;
  c2 = p2 + d2 * t;
}
}  // namespace

double slabGapLowerBound(const Vector3d& u, const Vector3d* a, int countA, const Vector3d* b, int countB) {
  const double length = u.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return 0.0;
  double maxA = -std::numeric_limits<double>::infinity();
  double minB = std::numeric_limits<double>::infinity();
  double magnitude = 0.0;  // the largest coordinate magnitude: dot products round off relative to it
  for (int i = 0; i < countA; ++i) {
    maxA = std::max(maxA, u.dot(a[i]));
    magnitude = std::max(magnitude, a[i].lpNorm<Eigen::Infinity>());
  }
  for (int j = 0; j < countB; ++j) {
    minB = std::min(minB, u.dot(b[j]));
    magnitude = std::max(magnitude, b[j].lpNorm<Eigen::Infinity>());
  }
  // Each dot product of 3 terms errs by at most about 3 eps |u| |x|_1 <= 9 eps |u| max|x_k|;
  // 32 eps covers both and the division.
  const double margin = 32.0 * std::numeric_limits<double>::epsilon() * magnitude;
  const double gap = (minB - maxA) / length - margin;
  return std::isfinite(gap) ? std::max(gap, 0.0) : 0.0;
}

TriangleDistance triangleDistance(const Vector3d& a0, const Vector3d& a1, const Vector3d& a2, const Vector3d& b0,
                                  const Vector3d& b1, const Vector3d& b2) {
  const Vector3d a[3] = {a0, a1, a2};
  const Vector3d b[3] = {b0, b1, b2};
  TriangleDistance result;
  double best = std::numeric_limits<double>::infinity();
  auto offer = [&](const Vector3d& onA, const Vector3d& onB) {
    const double squared = (onB - onA).squaredNorm();
    if (squared < best) {
      best = squared;
      result.on_a = onA;
      result.on_b = onB;
    }
  };
  for (int i = 0; i < 3; ++i) {
    offer(a[i], closestPointOnTriangle(a[i], b0, b1, b2));
    offer(closestPointOnTriangle(b[i], a0, a1, a2), b[i]);
  }
  Vector3d onA, onB;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      closestOnSegments(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3], onA, onB);
      offer(onA, onB);
    }
  result.upper = std::sqrt(best);
  result.lower = std::min(result.upper, slabGapLowerBound(result.on_b - result.on_a, a, 3, b, 3));
  return result;
}

}  // namespace prmkit
