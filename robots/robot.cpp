#include "robots/robot.h"

#include "shapes/mesh_cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prmkit {

Link::Link(std::string name_, Mesh mesh_) : name(std::move(name_)), mesh(std::move(mesh_)) {
  PreparedMesh prepared = prepareMesh(mesh, true);
  bvh = std::move(prepared.bvh);
  object = std::make_shared<const fcl::CollisionObjectd>(bvh, Transform::Identity());
  cover = std::move(prepared.cover);
  solid = solidInfo(mesh);
  radius = mesh.radiusAboutOrigin();
}

Eigen::Quaterniond unitQuaternion(const Eigen::Vector4d& xyzw) {
  const double norm = xyzw.norm();
  if (norm == 0.0) throw std::invalid_argument("a zero quaternion is not a rotation");
  if (!(std::abs(norm - 1.0) <= kQuaternionNormTolerance))
    throw std::invalid_argument(
        fmt::format("a quaternion of norm {:.9g}; expected a unit quaternion (norm within {:g} of 1)", norm,
                    kQuaternionNormTolerance));
  return Eigen::Quaterniond(xyzw[3], xyzw[0], xyzw[1], xyzw[2]).normalized();
}

void Robot::setBounds(Eigen::VectorXd lower, Eigen::VectorXd upper) {
  if (lower.size() != upper.size()) throw std::invalid_argument("lower and upper bounds of different sizes");
  for (Eigen::Index i = 0; i < lower.size(); ++i) {
    const std::string name = static_cast<std::size_t>(i) < coordinateNames_.size()
                                 ? coordinateNames_[static_cast<std::size_t>(i)]
                                 : std::to_string(i);
    if (!(std::abs(lower[i]) <= kMaxCoordinate && std::abs(upper[i]) <= kMaxCoordinate))
      throw std::invalid_argument(fmt::format("the bounds of '{}' are [{}, {}]; bounds must be finite and within {:g}",
                                              name, lower[i], upper[i], kMaxCoordinate));
    if (!(lower[i] < upper[i]))
      throw std::invalid_argument(
          fmt::format("the bounds of '{}' are [{}, {}]; the lower must be below the upper", name, lower[i], upper[i]));
  }
  bounds_ = {std::move(lower), std::move(upper)};
}

void Robot::canonicalize(Config& q) const {
  if (static_cast<std::size_t>(q.size()) != configSize())
    throw std::invalid_argument("a configuration of " + std::to_string(q.size()) + " numbers, the robot needs " +
                                std::to_string(configSize()));
  if (!q.allFinite()) throw std::invalid_argument("a configuration with a non-finite number");
  doCanonicalize(q);
}

void Robot::normalize(Config& q) const {
  if (static_cast<std::size_t>(q.size()) != configSize() || !q.allFinite())
    throw std::invalid_argument("normalize: a configuration of the wrong size or with a non-finite number");
  scaleQuaternionsToUnit(q);
  doCanonicalize(q);
}

double Robot::coordinateDistance(const double* a, const double* b) const {
  const auto size = static_cast<Eigen::Index>(configSize());
  return distance(Eigen::Map<const Config>(a, size), Eigen::Map<const Config>(b, size));
}

bool Robot::inBounds(const Config& q) const {
  if (static_cast<std::size_t>(q.size()) != configSize() || !q.allFinite()) return false;
  for (Eigen::Index i = 0; i < bounds_.lower.size(); ++i)
    if (q[i] < bounds_.lower[i] || q[i] > bounds_.upper[i]) return false;
  return true;
}

double Robot::relativeMotionBound(std::size_t i, std::size_t k, const Config& a, const Config& b) const {
  return motionBound(i, a, b) + motionBound(k, a, b);
}

void Robot::motionBounds(const Config& a, const Config& b, std::vector<double>& links,
                         std::vector<double>& selfPairs) const {
  links.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) links[i] = motionBound(i, a, b);
  selfPairs.resize(selfCollisionPairs_.size());
  for (std::size_t p = 0; p < selfCollisionPairs_.size(); ++p) {
    const auto [i, k] = selfCollisionPairs_[p];
    selfPairs[p] = relativeMotionBound(static_cast<std::size_t>(i), static_cast<std::size_t>(k), a, b);
  }
}

double Robot::maxMotionBound(const Config& a, const Config& b) const {
  std::vector<double> links, selfPairs;
  motionBounds(a, b, links, selfPairs);
  double m = 0.0;
  for (double bound : links) m = std::max(m, bound);
  return m;
}

void Robot::linkSpeeds(const Config& a, const Config& b, const Config& q, std::vector<double>& out) const {
  std::vector<LinkTwist> twists;
  linkTwists(a, b, q, twists, nullptr);
  out.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) out[i] = linkSpeed(i, twists[i]);
}

void Robot::linkTwists(const Config&, const Config&, const Config&, std::vector<LinkTwist>&,
                       std::vector<Transform>*) const {
  throw std::logic_error(kind() + " robots have no speed bounds");
}

double Robot::linkSpeed(std::size_t, const LinkTwist&) const {
  throw std::logic_error(kind() + " robots have no speed bounds");
}

double Robot::linkDirectionalSpeed(std::size_t, const LinkTwist&, const Eigen::Vector3d&) const {
  throw std::logic_error(kind() + " robots have no speed bounds");
}

void Robot::linkAccelerationBounds(const Config&, const Config&, std::vector<double>&) const {
  throw std::logic_error(kind() + " robots have no acceleration bounds");
}

namespace {
/// The integral of max(0, f) over [x0, x1] for f linear, f(x0) = f0, f(x1) = f1.
double positivePart(double f0, double f1, double x0, double x1) {
  if (!(x1 > x0)) return 0.0;
  if (f0 >= 0.0 && f1 >= 0.0) return 0.5 * (f0 + f1) * (x1 - x0);
  if (f0 <= 0.0 && f1 <= 0.0) return 0.0;
  // One sign change: a triangle from the root to the positive end.
  const double root = x0 + (x1 - x0) * (f0 / (f0 - f1));
  return f0 > 0.0 ? 0.5 * f0 * (root - x0) : 0.5 * f1 * (x1 - root);
}
}  // namespace

double directionalTravel(double speedStart, double speedEnd, double acceleration, double width, double from,
                         double to) {
  from = std::clamp(from, 0.0, width);
  to = std::clamp(to, from, width);
  // With no acceleration bound the speed is constant; the larger end serves
  // whatever rounding separates the two.
  if (!(acceleration > 0.0)) return std::max(0.0, std::max(speedStart, speedEnd)) * (to - from);
  // The bound min(speedStart + a s, speedEnd + a (width - s)) is a tent: the
  // start's line up to the crossing s, the end's line after it.
  const double s = std::clamp((speedEnd - speedStart + acceleration * width) / (2.0 * acceleration), 0.0, width);
  auto rising = [&](double x) { return speedStart + acceleration * x; };
  auto falling = [&](double x) { return speedEnd + acceleration * (width - x); };
  const double riseEnd = std::min(to, s), fallStart = std::max(from, s);
  return positivePart(rising(from), rising(riseEnd), from, riseEnd) +
         positivePart(falling(fallStart), falling(to), fallStart, to);
}

double speedBoundedLength(double speedStart, double speedEnd, double acceleration, double width) {
  if (!(acceleration > 0.0)) return width * std::min(speedStart, speedEnd);
  // The two linear bounds cross at s; before it the start's bound is the smaller.
  const double s = std::clamp((speedEnd - speedStart + acceleration * width) / (2.0 * acceleration), 0.0, width);
  const double rest = width - s;
  return speedStart * s + 0.5 * acceleration * s * s + speedEnd * rest + 0.5 * acceleration * rest * rest;
}

std::shared_ptr<Robot> Robot::shrunk(double factor) const {
  if (!(factor > 0.0 && factor <= 1.0))
    throw std::invalid_argument(fmt::format("a robot shrinks by a factor in (0, 1], not {}", factor));
  std::shared_ptr<Robot> copy = shrunkGeometry(factor);
  copy->selfCollisionPairs_ = selfCollisionPairs_;
  return copy;
}

std::shared_ptr<Robot> Robot::withSelfCollisionPairs(const std::vector<std::pair<int, int>>& keep) const {
  std::shared_ptr<Robot> copy = scaled(1.0);
  std::vector<std::pair<int, int>> pairs;
  for (const auto& pair : selfCollisionPairs_)
    if (std::find(keep.begin(), keep.end(), pair) != keep.end()) pairs.push_back(pair);
  copy->selfCollisionPairs_ = std::move(pairs);
  return copy;
}

}  // namespace prmkit
