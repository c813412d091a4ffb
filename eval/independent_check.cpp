#include "eval/independent_check.h"

#include "checkers/discrete_checker.h"

#include <fcl/narrowphase/collision.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prmkit {

namespace {
std::unique_ptr<fcl::CollisionObjectd> objectOf(const Mesh& mesh, const Transform& pose) {
  return std::make_unique<fcl::CollisionObjectd>(buildBvh(mesh), pose);
}

bool touch(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b) {
  fcl::CollisionRequestd request;
  request.gjk_tolerance = 1e-9;
  fcl::CollisionResultd result;
  fcl::collide(&a, &b, request, result);
  return result.isCollision();
}
}  // namespace

IndependentCheck::IndependentCheck(const Robot& robot, const Scene& scene, double resolution)
    : robot_(robot), scene_(scene), resolution_(resolution) {
  if (!(resolution > 0.0 && resolution <= 1.0))
    throw std::invalid_argument(
        fmt::format("the independent check's resolution must be in (0, 1], got {:g}", resolution));
  // FCL's mesh-primitive test (libccd) has absolute tolerances, tuned for
  // bodies of about a metre: every length is divided by the problem's size
  // so that the test sees such bodies at every scale (mesh-mesh tests do not
  // depend on the unit, so this changes nothing for them).
  unit_ = scene_.bounds().isEmpty() ? 0.0 : scene_.bounds().sizes().maxCoeff();
  for (const Link& link : robot_.links()) unit_ = std::max(unit_, link.radius);
  if (!(unit_ > 0.0) || !std::isfinite(unit_)) unit_ = 1.0;
  for (const Link& link : robot_.links())
    links_.push_back(objectOf(link.mesh.scaled(1.0 / unit_), Transform::Identity()));
  for (const Obstacle& obstacle : scene.obstacles()) {
    const Transform pose = inUnits(obstacle.pose);
    obstacles_.push_back(obstacle.checkedPrimitive()
                             ? std::make_unique<fcl::CollisionObjectd>(
                                   obstacle.checkedPrimitive()->scaled(1.0 / unit_).collisionGeometry(), pose)
                             : objectOf(obstacle.mesh.scaled(1.0 / unit_), pose));
    obstacles_.back()->computeAABB();
  }
}

bool IndependentCheck::collides(const Config& q) {
  ++tested_;
  robot_.linkPoses(q, poses_);
  for (std::size_t i = 0; i < links_.size(); ++i) {
    links_[i]->setTransform(inUnits(poses_[i]));
    links_[i]->computeAABB();
  }
  const auto& links = robot_.links();
  const auto& obstacles = scene_.obstacles();
  for (std::size_t l = 0; l < links_.size(); ++l)
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      // FCL's own world boxes: bodies whose boxes are apart neither touch
      // nor hold one another (thousands of obstacles, few near a link).
      if (!links_[l]->getAABB().overlap(obstacles_[o]->getAABB())) continue;
      if (touch(*links_[l], *obstacles_[o])) return true;
      const Obstacle& obstacle = obstacles[o];
      // Primitives are solids natively; one inside a closed link has its centre inside.
      if (obstacle.checkedPrimitive()
              ? containsPoint(links[l].mesh, links[l].solid, poses_[l].inverse() * obstacle.pose.translation())
              : oneInsideOther(links[l].mesh, links[l].solid, poses_[l], obstacle.mesh, obstacle.solid, obstacle.pose))
        return true;
    }
  for (const auto& [i, k] : robot_.selfCollisionPairs()) {
    const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(k);
    if (touch(*links_[a], *links_[b]) ||
        oneInsideOther(links[a].mesh, links[a].solid, poses_[a], links[b].mesh, links[b].solid, poses_[b]))
      return true;
  }
  return false;
}

Transform IndependentCheck::inUnits(const Transform& pose) const {
  Transform scaled = pose;
  scaled.translation() /= unit_;
  return scaled;
}

std::optional<double> IndependentCheck::firstCollision(const Config& a, const Config& b) {
  const double steps = std::ceil(robot_.resolutionSteps(a, b, resolution_));
  if (!(steps <= static_cast<double>(kMaxSegments)))
    throw std::invalid_argument(fmt::format("the independent check would need {:.3g} steps on one edge", steps));
  const auto n = std::max<std::size_t>(1, static_cast<std::size_t>(steps));
  for (std::size_t i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(n);
    robot_.interpolate(a, b, t, step_);
    if (collides(step_)) return t;
  }
  return std::nullopt;
}

}  // namespace prmkit
