#pragma once
// Free-flying rigid bodies: SE(2) (x, y, theta) and SE(3) (x, y, z, qx, qy, qz, qw).
#include "robots/robot.h"

namespace prmkit {

class RigidBody2D final : public Robot {
 public:
  /// `body` lies in the xy plane around the body frame's origin; `lower`/`upper` bound x, y.
  RigidBody2D(Mesh body, const Eigen::Vector2d& lower, const Eigen::Vector2d& upper);
  std::string kind() const override { return "rigid2d"; }
  std::size_t dof() const override { return 3; }
  bool planar() const override { return true; }
  bool boundsArePositions() const override { return true; }
  void sampleUniform(Random& rng, Config& out) const override;
  void interpolate(const Config& a, const Config& b, double t, Config& out) const override;
  double distance(const Config& a, const Config& b) const override;
  double coordinateDistance(const double* a, const double* b) const override;
  /// (x, y, cos theta, sin theta): the chord 2 sin(|dtheta| / 2) never exceeds |dtheta|.
  std::size_t embeddingDimension() const override { return 4; }
  std::vector<std::size_t> embeddingParts() const override { return {2, 2}; }
  void embed(const Config& q, std::size_t variant, double* out) const override;
  double maxExtent() const override;
  /// Translation against the bounds' diagonal, rotation against pi.
  double resolutionSteps(const Config& a, const Config& b, double resolution) const override;
  void linkPoses(const Config& q, std::vector<Transform>& out) const override;
  /// l = |dt| + R |dtheta|: no point of a body of radius R about its origin travels further.
  double motionBound(std::size_t link, const Config& a, const Config& b) const override;
  /// R dtheta^2: the translation is linear, so only the turn at a constant rate accelerates a point.
  bool hasAccelerationBounds() const override { return true; }
  void linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const override;
  std::shared_ptr<Robot> scaled(double factor) const override;
  void scaleConfig(Config& q, double factor) const override { q.head<2>() *= factor; }

 private:
  std::shared_ptr<Robot> shrunkGeometry(double factor) const override;
  void doCanonicalize(Config& q) const override;
};

class RigidBody3D final : public Robot {
 public:
  RigidBody3D(Mesh body, const Eigen::Vector3d& lower, const Eigen::Vector3d& upper);
  std::string kind() const override { return "rigid3d"; }
  std::size_t dof() const override { return 6; }
  bool planar() const override { return false; }
  bool boundsArePositions() const override { return true; }
  /// Translation, then the rotation as a unit quaternion (x, y, z, w).
  std::optional<Config> configAtPose(const Transform& pose) const override {
    const Eigen::Quaterniond r(pose.linear());
    Config q(7);
    q << pose.translation(), r.x(), r.y(), r.z(), r.w();
    return q;
  }
  bool canonical(const Config& q) const override;
  void sampleUniform(Random& rng, Config& out) const override;
  void interpolate(const Config& a, const Config& b, double t, Config& out) const override;
  /// OMPL's SE(3) metric: |dt| + acos(|<qa, qb>|).
  double distance(const Config& a, const Config& b) const override;
  double coordinateDistance(const double* a, const double* b) const override;
  /// (x, y, z, +-q): the chord |qa -+ qb| never exceeds acos(|<qa, qb>|);
  /// variant 0 has w >= 0, variant 1 is its opposite (the same rotation).
  std::size_t embeddingDimension() const override { return 7; }
  std::size_t embeddingVariants() const override { return 2; }
  std::vector<std::size_t> embeddingParts() const override { return {3, 4}; }
  void embed(const Config& q, std::size_t variant, double* out) const override;
  double maxExtent() const override;
  /// Translation against the bounds' diagonal, rotation against pi / 2 (OMPL's SO(3) extent).
  double resolutionSteps(const Config& a, const Config& b, double resolution) const override;
  void linkPoses(const Config& q, std::vector<Transform>& out) const override;
  /// l = |dt| + R * angle(R_a, R_b), the angle slerp sweeps at constant rate.
  double motionBound(std::size_t link, const Config& a, const Config& b) const override;
  /// R angle^2: the translation is linear and slerp turns about a fixed axis
  /// at a constant rate, so a point at radius r accelerates by r angle^2.
  bool hasAccelerationBounds() const override { return true; }
  void linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const override;

  std::shared_ptr<Robot> scaled(double factor) const override;
  void scaleConfig(Config& q, double factor) const override { q.head<3>() *= factor; }

  static Eigen::Quaterniond rotation(const Config& q) { return {q[6], q[3], q[4], q[5]}; }

 private:
  std::shared_ptr<Robot> shrunkGeometry(double factor) const override;
  void doCanonicalize(Config& q) const override;
  void scaleQuaternionsToUnit(Config& q) const override;
};

/// Angle (rad, in [0, pi]) of the rotation that takes a to b: 2 atan2(|v|, |w|)
/// of a^-1 b, accurate for tiny and near-pi angles alike (acos of a dot
/// product loses every angle below about 1e-8 and clips a norm above 1 to a
/// zero angle). Both quaternions are normalised first.
double rotationAngle(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b);

/// Shortest signed angle from a to b, in [-pi, pi).
double angleDifference(double a, double b);

}  // namespace prmkit
