#include "app/independent_check.h"

#include "checkers/discrete_checker.h"

#include <fcl/narrowphase/collision.h>
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace prmkit {

namespace {
std::unique_ptr<fcl::CollisionObjectd> objectOf(const Mesh& mesh, const Transform& pose) {
  return std::make_unique<fcl::CollisionObjectd>(buildBvh(mesh), pose);
}

bool touch(const fcl::CollisionObjectd& a, const fcl::CollisionObjectd& b) {
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  fcl::collide(&a, &b, request, result);
  return result.isCollision();
}
}  // namespace

IndependentCheck::IndependentCheck(const Problem& problem, double resolution)
    : robot_(*problem.robot), resolution_(resolution) {
  if (!(resolution > 0.0 && resolution <= 1.0))
    throw std::invalid_argument(fmt::format("the independent check's resolution must be in (0, 1], got {:g}", resolution));
  for (const Link& link : robot_.links()) links_.push_back(objectOf(link.mesh, Transform::Identity()));
  for (const Obstacle& obstacle : problem.scene->obstacles()) obstacles_.push_back(objectOf(obstacle.mesh, obstacle.pose));
}

bool IndependentCheck::collides(const Config& q) {
  ++tested_;
  robot_.linkPoses(q, poses_);
  for (std::size_t i = 0; i < links_.size(); ++i) {
    links_[i]->setTransform(poses_[i]);
    links_[i]->computeAABB();
  }
  for (const auto& link : links_)
    for (const auto& obstacle : obstacles_)
      if (touch(*link, *obstacle)) return true;
  for (const auto& [i, k] : robot_.selfCollisionPairs())
    if (touch(*links_[static_cast<std::size_t>(i)], *links_[static_cast<std::size_t>(k)])) return true;
  return false;
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
