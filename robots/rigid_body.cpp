#include "robots/rigid_body.h"

#include <cmath>
#include <numbers>

namespace prmkit {

namespace {
constexpr double kPi = std::numbers::pi;
double wrapAngle(double a) { return a - 2 * kPi * std::floor((a + kPi) / (2 * kPi)); }
}  // namespace

double angleDifference(double a, double b) { return wrapAngle(b - a); }

RigidBody2D::RigidBody2D(Mesh body, const Eigen::Vector2d& lower, const Eigen::Vector2d& upper) {
  links_.emplace_back("body", std::move(body));
  coordinateNames_ = {"x", "y", "theta"};
  setBounds(lower, upper);
}

std::shared_ptr<Robot> RigidBody2D::scaled(double factor) const {
  return std::make_shared<RigidBody2D>(links_[0].mesh.scaled(factor), Eigen::Vector2d(bounds_.lower * factor),
                                       Eigen::Vector2d(bounds_.upper * factor));
}

std::shared_ptr<Robot> RigidBody2D::shrunkGeometry(double factor) const {
  return std::make_shared<RigidBody2D>(links_[0].mesh.shrunkAboutCentre(factor), Eigen::Vector2d(bounds_.lower),
                                       Eigen::Vector2d(bounds_.upper));
}

void RigidBody2D::doCanonicalize(Config& q) const { q[2] = wrapAngle(q[2]); }

void RigidBody2D::sampleUniform(Random& rng, Config& out) const {
  out.resize(3);
  for (int i = 0; i < 2; ++i) out[i] = rng.uniformReal(bounds_.lower[i], bounds_.upper[i]);
  out[2] = rng.uniformReal(-kPi, kPi);
}

void RigidBody2D::interpolate(const Config& a, const Config& b, double t, Config& out) const {
  out.resize(3);
  out.head<2>() = a.head<2>() + t * (b.head<2>() - a.head<2>());
  out[2] = wrapAngle(a[2] + t * angleDifference(a[2], b[2]));
}

double RigidBody2D::distance(const Config& a, const Config& b) const { return coordinateDistance(a.data(), b.data()); }

double RigidBody2D::coordinateDistance(const double* a, const double* b) const {
  return (Eigen::Map<const Eigen::Vector2d>(b) - Eigen::Map<const Eigen::Vector2d>(a)).norm() +
         std::abs(angleDifference(a[2], b[2]));
}

void RigidBody2D::embed(const Config& q, std::size_t, double* out) const {
  out[0] = q[0];
  out[1] = q[1];
  out[2] = std::cos(q[2]);
  out[3] = std::sin(q[2]);
}

double RigidBody2D::maxExtent() const { return (bounds_.upper - bounds_.lower).norm() + kPi; }

double RigidBody2D::resolutionSteps(const Config& a, const Config& b, double resolution) const {
  const double translation = (b.head<2>() - a.head<2>()).norm() / (bounds_.upper - bounds_.lower).norm();
  return std::max(translation, std::abs(angleDifference(a[2], b[2])) / kPi) / resolution;
}

void RigidBody2D::linkPoses(const Config& q, std::vector<Transform>& out) const {
  out.resize(1);
  out[0] = Transform(Eigen::Translation3d(q[0], q[1], 0.0) * Eigen::AngleAxisd(q[2], Eigen::Vector3d::UnitZ()));
}

double RigidBody2D::motionBound(std::size_t link, const Config& a, const Config& b) const {
  return (b.head<2>() - a.head<2>()).norm() + links_[link].radius * std::abs(angleDifference(a[2], b[2]));
}

void RigidBody2D::linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const {
  const double turn = angleDifference(a[2], b[2]);
  out.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) out[i] = links_[i].radius * turn * turn;
}

RigidBody3D::RigidBody3D(Mesh body, const Eigen::Vector3d& lower, const Eigen::Vector3d& upper) {
  links_.emplace_back("body", std::move(body));
  coordinateNames_ = {"x", "y", "z", "qx", "qy", "qz", "qw"};
  setBounds(lower, upper);
}

std::shared_ptr<Robot> RigidBody3D::scaled(double factor) const {
  return std::make_shared<RigidBody3D>(links_[0].mesh.scaled(factor), Eigen::Vector3d(bounds_.lower * factor),
                                       Eigen::Vector3d(bounds_.upper * factor));
}

std::shared_ptr<Robot> RigidBody3D::shrunkGeometry(double factor) const {
  return std::make_shared<RigidBody3D>(links_[0].mesh.shrunkAboutCentre(factor), Eigen::Vector3d(bounds_.lower),
                                       Eigen::Vector3d(bounds_.upper));
}

void RigidBody3D::scaleQuaternionsToUnit(Config& q) const {
  const double norm = q.tail<4>().norm();
  if (!(norm > 0.0)) throw std::invalid_argument("normalize: a zero quaternion");
  q.tail<4>() /= norm;
}

void RigidBody3D::doCanonicalize(Config& q) const {
  const Eigen::Quaterniond unit = unitQuaternion(q.tail<4>());
  q.tail<4>() << unit.x(), unit.y(), unit.z(), unit.w();
}

bool RigidBody3D::canonical(const Config& q) const {
  return q.size() == 7 && std::abs(q.tail<4>().squaredNorm() - 1.0) <= kCanonicalNormTolerance;
}

double rotationAngle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  const Eigen::Quaterniond relative = a.normalized().conjugate() * b.normalized();
  return 2.0 * std::atan2(relative.vec().norm(), std::abs(relative.w()));
}

void RigidBody3D::sampleUniform(Random& rng, Config& out) const {
  out.resize(7);
  for (int i = 0; i < 3; ++i) out[i] = rng.uniformReal(bounds_.lower[i], bounds_.upper[i]);
  rng.quaternion(out.data() + 3);  // (x, y, z, w), uniform on SO(3)
}

void RigidBody3D::interpolate(const Config& a, const Config& b, double t, Config& out) const {
  out.resize(7);
  out.head<3>() = a.head<3>() + t * (b.head<3>() - a.head<3>());
  // Eigen's slerp takes the shorter arc (it flips the sign of a negative dot product).
  const Eigen::Quaterniond q = rotation(a).slerp(t, rotation(b));
  out[3] = q.x();
  out[4] = q.y();
  out[5] = q.z();
  out[6] = q.w();
}

namespace {
/// Half the rotation angle: OMPL's SO(3) distance acos(|<qa, qb>|), the
/// angle between the quaternions on the unit sphere of R^4 (after choosing
/// the sign of qb that makes it at most pi/2). Computed as 2 asin(|qa - qb| / 2),
/// which is accurate at every angle where acos loses half its digits near 0,
/// and needs no quaternion product: the nearest-neighbour search and A*
/// evaluate this metric thousands of times per roadmap vertex. Configurations
/// hold unit quaternions (canonical to within kCanonicalNormTolerance).
double halfAngle(const double* a, const double* b) {
  const Eigen::Map<const Eigen::Vector4d> qa(a + 3), qb(b + 3);
  const double sign = qa.dot(qb) < 0 ? -1.0 : 1.0;
  const double chord = (qa - sign * qb).norm();
  return 2.0 * std::asin(std::min(1.0, 0.5 * chord));
}
double halfAngle(const Config& a, const Config& b) { return halfAngle(a.data(), b.data()); }
}  // namespace

double RigidBody3D::distance(const Config& a, const Config& b) const { return coordinateDistance(a.data(), b.data()); }

double RigidBody3D::coordinateDistance(const double* a, const double* b) const {
  return (Eigen::Map<const Eigen::Vector3d>(b) - Eigen::Map<const Eigen::Vector3d>(a)).norm() + halfAngle(a, b);
}

void RigidBody3D::embed(const Config& q, std::size_t variant, double* out) const {
  // Variant 0 in the hemisphere w >= 0, where the nearest rotations of most
  // configurations have their variant 0 too.
  const double sign = (q[6] >= 0.0 ? 1.0 : -1.0) * (variant == 0 ? 1.0 : -1.0);
  for (int i = 0; i < 3; ++i) out[i] = q[i];
  for (int i = 3; i < 7; ++i) out[i] = sign * q[i];
}

double RigidBody3D::maxExtent() const { return (bounds_.upper - bounds_.lower).norm() + kPi / 2; }

double RigidBody3D::resolutionSteps(const Config& a, const Config& b, double resolution) const {
  const double translation = (b.head<3>() - a.head<3>()).norm() / (bounds_.upper - bounds_.lower).norm();
  return std::max(translation, halfAngle(a, b) / (kPi / 2)) / resolution;
}

void RigidBody3D::linkPoses(const Config& q, std::vector<Transform>& out) const {
  out.resize(1);
  out[0] = Transform(Eigen::Translation3d(q.head<3>()) * rotation(q).normalized());
}

double RigidBody3D::motionBound(std::size_t link, const Config& a, const Config& b) const {
  return (b.head<3>() - a.head<3>()).norm() + links_[link].radius * 2.0 * halfAngle(a, b);
}

void RigidBody3D::linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const {
  const double turn = 2.0 * halfAngle(a, b);
  out.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) out[i] = links_[i].radius * turn * turn;
}

}  // namespace prmkit
