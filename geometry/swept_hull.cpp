#include "geometry/swept_hull.h"

#include "geometry/gjk.h"
#include "geometry/slab_gap.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prmkit {

namespace {
using Eigen::Vector3d;

/// The support mapping of a hull's vertices at two poses: each pose's
/// support vertex by hill climbing from the last one (gjk.h), the one
/// further along the direction. A guide for GJK only; bounds are proven by
/// `provenSupport` over every vertex.
class SweptSupport {
 public:
  SweptSupport(const SweptHull& body, int startFrom, int startTo)
      : body_(body),
        toFrom_(body.from.linear().transpose()),
        toTo_(body.to.linear().transpose()),
        moving_(body.from.matrix() != body.to.matrix()),
        vertexFrom_(startFrom),
        vertexTo_(startTo) {}

  Vector3d operator()(const Vector3d& d) {
    vertexFrom_ = supportVertex(body_.hull, toFrom_ * d, vertexFrom_);
    const Vector3d atFrom = body_.from * body_.hull.vertices[static_cast<std::size_t>(vertexFrom_)];
    if (!moving_) return atFrom;
    vertexTo_ = supportVertex(body_.hull, toTo_ * d, vertexTo_);
    const Vector3d atTo = body_.to * body_.hull.vertices[static_cast<std::size_t>(vertexTo_)];
    return d.dot(atTo) > d.dot(atFrom) ? atTo : atFrom;
  }

  /// max of <u, x> over every vertex at both poses.
  double provenSupport(const Vector3d& u) const {
    const double atFrom = placedSupport(body_.hull, body_.from, u);
    return moving_ ? std::max(atFrom, placedSupport(body_.hull, body_.to, u)) : atFrom;
  }

  Vector3d centre() const { return 0.5 * (body_.from * body_.hull.center + body_.to * body_.hull.center); }
  /// The coordinates' magnitude, the scale of the slab gap's rounding margin.
  double magnitude() const {
    return body_.hull.radius + body_.from.translation().norm() + body_.to.translation().norm();
  }

 private:
  SweptHull body_;  // references to the caller's hull and poses
  Eigen::Matrix3d toFrom_, toTo_;
  bool moving_;
  int vertexFrom_, vertexTo_;

 public:
  int vertexFrom() const { return vertexFrom_; }
  int vertexTo() const { return vertexTo_; }
};

/// A direction from b to a to start from: the warm start's, else from centre to centre.
Vector3d startDirection(const SweptWarmStart* warm, const Vector3d& fromBToA) {
  if (warm && !warm->direction.isZero()) return -warm->direction;
  return fromBToA.isZero() ? Vector3d::UnitX() : fromBToA;
}
}  // namespace

double sweptHullGap(const SweptHull& a, const SweptHull& b, double enough, QueryCounts& stats, SweptWarmStart* warm) {
  SweptSupport supportA(a, warm ? warm->a_from : 0, warm ? warm->a_to : 0);
  SweptSupport supportB(b, warm ? warm->b_from : 0, warm ? warm->b_to : 0);
  auto difference = [&](const Vector3d& d) { return Vector3d(supportA(d) - supportB(-d)); };
  ++stats.gjk_queries;
  // Asked for a little more than `enough`, so that the proven gap (the
  // search's estimate less a rounding margin) still reaches it.
  const GjkResult gjk = gjkSearch(difference, startDirection(warm, supportA.centre() - supportB.centre()),
                                  enough * (1.0 + 1e-9), supportA.magnitude() + supportB.magnitude() + 1e-300);
  stats.gjk_iterations += static_cast<std::uint64_t>(gjk.iterations);
  if (warm)
    *warm = {gjk.direction, supportA.vertexFrom(), supportA.vertexTo(), supportB.vertexFrom(), supportB.vertexTo()};
  const double length = gjk.direction.norm();
  if (gjk.may_overlap || !(gjk.distance > 0.0) || !(length > 0.0) || !std::isfinite(length)) return 0.0;
  const Vector3d& u = gjk.direction;  // from a to b
  return provenGap((-supportB.provenSupport(-u) - supportA.provenSupport(u)) / length,
                   supportA.magnitude() + supportB.magnitude());
}

double sweptHullGap(const SweptHull& a, const Primitive& b, const Transform& pose, double enough, QueryCounts& stats,
                    SweptWarmStart* warm) {
  // GJK runs in the primitive's frame, where its support points are closed
  // forms; the gap is proven in the world, as for a placed primitive.
  const Transform toPrimitive = pose.inverse();
  const Transform from = toPrimitive * a.from, to = toPrimitive * a.to;
  SweptSupport local(SweptHull{a.hull, from, to}, warm ? warm->a_from : 0, warm ? warm->a_to : 0);
  const Vector3d start = warm && !warm->direction.isZero() ? Vector3d(-(pose.linear().transpose() * warm->direction))
                                                           : startDirection(nullptr, local.centre());
  ++stats.gjk_queries;
  const GjkResult gjk =
      gjkAgainstPrimitive(local, b, start, enough * (1.0 + 1e-9), local.magnitude() + b.boundingRadius() + 1e-300);
  stats.gjk_iterations += static_cast<std::uint64_t>(gjk.iterations);
  const Vector3d u = pose.linear() * gjk.direction;
  if (warm) *warm = {u, local.vertexFrom(), local.vertexTo(), 0, 0};
  const double length = u.norm();
  if (gjk.may_overlap || !(gjk.distance > 0.0) || !(length > 0.0) || !std::isfinite(length)) return 0.0;
  const SweptSupport world(a, 0, 0);
  return provenGap((-placedSupport(b, pose, -u) - world.provenSupport(u)) / length,
                   world.magnitude() + b.boundingRadius() + pose.translation().norm());
}

double capsuleSphereGap(const Vector3d& from, const Vector3d& to, double radius, const Vector3d& centre,
                        double otherRadius) {
  const Vector3d along = to - from;
  const double length = along.squaredNorm();
  const double t = length > 0.0 ? std::clamp((centre - from).dot(along) / length, 0.0, 1.0) : 0.0;
  const double magnitude =
      2.0 * (from.cwiseAbs().maxCoeff() + to.cwiseAbs().maxCoeff() + centre.cwiseAbs().maxCoeff()) + radius +
      otherRadius;
  return (from + t * along - centre).norm() - radius - otherRadius -
         64.0 * std::numeric_limits<double>::epsilon() * magnitude;
}

}  // namespace prmkit
