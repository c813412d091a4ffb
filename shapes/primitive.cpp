#include "shapes/primitive.h"

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace prmkit {

namespace {
double positiveSize(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument(fmt::format("{} must be positive and finite (got {})", what, value));
  return value;
}
}  // namespace

Primitive Primitive::box(const Eigen::Vector3d& size) {
  Primitive p;
  p.kind = PrimitiveKind::Box;
  for (int i = 0; i < 3; ++i) p.half_extents[i] = 0.5 * positiveSize(size[i], "a box size");
  return p;
}

Primitive Primitive::sphere(double radius) {
  Primitive p;
  p.kind = PrimitiveKind::Sphere;
  p.radius = positiveSize(radius, "a sphere radius");
  return p;
}

Primitive Primitive::cylinder(double radius, double length) {
  Primitive p;
  p.kind = PrimitiveKind::Cylinder;
  p.radius = positiveSize(radius, "a cylinder radius");
  p.half_length = 0.5 * positiveSize(length, "a cylinder length");
  return p;
}

Eigen::Vector3d Primitive::support(const Eigen::Vector3d& d) const {
  auto sign = [](double x) { return x < 0.0 ? -1.0 : 1.0; };
  switch (kind) {
    case PrimitiveKind::Box:
      return {sign(d.x()) * half_extents.x(), sign(d.y()) * half_extents.y(), sign(d.z()) * half_extents.z()};
    case PrimitiveKind::Sphere: {
      const double length = d.norm();
      return length > 0.0 ? Eigen::Vector3d(d * (radius / length)) : Eigen::Vector3d(radius, 0.0, 0.0);
    }
    case PrimitiveKind::Cylinder: {
      const double radial = std::hypot(d.x(), d.y());
      const double z = sign(d.z()) * half_length;
      if (!(radial > 0.0)) return {radius, 0.0, z};
      return {d.x() * (radius / radial), d.y() * (radius / radial), z};
    }
  }
  return Eigen::Vector3d::Zero();
}

Eigen::Vector3d Primitive::searchSupport(const Eigen::Vector3d& d) const {
  if (kind == PrimitiveKind::Sphere) return Eigen::Vector3d::Zero();
  if (kind == PrimitiveKind::Box) return support(d);
  // The vertex of the enclosing prism nearest the direction's azimuth.
  const double step = 2.0 * std::numbers::pi / kCylinderSearchSides;
  const double angle = step * std::round(std::atan2(d.y(), d.x()) / step);
  const double outer = radius / std::cos(0.5 * step);
  return {outer * std::cos(angle), outer * std::sin(angle), d.z() < 0.0 ? -half_length : half_length};
}

double Primitive::searchSlack() const {
  return kind == PrimitiveKind::Cylinder ? radius * (1.0 / std::cos(std::numbers::pi / kCylinderSearchSides) - 1.0)
                                         : 0.0;
}

Eigen::Vector3d Primitive::closestPoint(const Eigen::Vector3d& p) const {
  switch (kind) {
    case PrimitiveKind::Box:
      return p.cwiseMax(-half_extents).cwiseMin(half_extents);
    case PrimitiveKind::Sphere: {
      const double length = p.norm();
      return length > radius ? Eigen::Vector3d(p * (radius / length)) : p;
    }
    case PrimitiveKind::Cylinder: {
      const double radial = std::hypot(p.x(), p.y());
      const double scale = radial > radius ? radius / radial : 1.0;
      return {p.x() * scale, p.y() * scale, std::clamp(p.z(), -half_length, half_length)};
    }
  }
  return p;
}

bool Primitive::contains(const Eigen::Vector3d& p) const {
  switch (kind) {
    case PrimitiveKind::Box:
      return (p.cwiseAbs() - half_extents).maxCoeff() <= 0.0;
    case PrimitiveKind::Sphere:
      return p.squaredNorm() <= radius * radius;
    case PrimitiveKind::Cylinder:
      return std::abs(p.z()) <= half_length && p.x() * p.x() + p.y() * p.y() <= radius * radius;
  }
  return false;
}

double Primitive::boundingRadius() const {
  switch (kind) {
    case PrimitiveKind::Box:
      return half_extents.norm();
    case PrimitiveKind::Sphere:
      return radius;
    case PrimitiveKind::Cylinder:
      return std::hypot(radius, half_length);
  }
  return 0.0;
}

Primitive Primitive::scaled(double factor) const {
  positiveSize(factor, "a scale factor");
  Primitive p = *this;
  p.half_extents *= factor;
  p.radius *= factor;
  p.half_length *= factor;
  return p;
}

Mesh Primitive::enclosingMesh() const {
  switch (kind) {
    case PrimitiveKind::Box:
      return boxMesh(2.0 * half_extents);
    case PrimitiveKind::Sphere:
      return sphereMesh(radius);
    case PrimitiveKind::Cylinder:
      return cylinderMesh(radius, 2.0 * half_length);
  }
  return {};
}

std::shared_ptr<fcl::CollisionGeometryd> Primitive::collisionGeometry() const {
  switch (kind) {
    case PrimitiveKind::Box:
      return std::make_shared<fcl::Boxd>(2.0 * half_extents);
    case PrimitiveKind::Sphere:
      return std::make_shared<fcl::Sphered>(radius);
    case PrimitiveKind::Cylinder:
      return std::make_shared<fcl::Cylinderd>(radius, 2.0 * half_length);
  }
  return nullptr;
}

Mesh meshOf(const Shape& shape) {
  if (const Mesh* mesh = std::get_if<Mesh>(&shape)) return *mesh;
  return std::get<Primitive>(shape).enclosingMesh();
}

bool primitiveInsideMesh(const Primitive&, const Transform& primitivePose, const BvhModel& mesh, const SolidInfo& solid,
                         const Transform& meshPose) {
  if (!solid.closed) return false;
  return containsPoint(mesh, solid, meshPose.inverse() * primitivePose.translation());
}

std::string Primitive::kindName() const {
  switch (kind) {
    case PrimitiveKind::Box:
      return "box";
    case PrimitiveKind::Sphere:
      return "sphere";
    case PrimitiveKind::Cylinder:
      return "cylinder";
  }
  return "";
}

}  // namespace prmkit
