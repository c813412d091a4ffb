#pragma once
// Boxes, spheres and cylinders kept as what they are. Problem files and
// MoveIt scenes describe most obstacles this way; a tessellation would make
// collision tests conservative by the tessellation's error and turn a
// one-formula distance into a BVH traversal. A primitive gives:
//  - its support point in any direction (exact, closed form), from which
//    GJK finds separating directions and slab gaps prove distance bounds
//    (geometry/bvh_distance.h);
//  - an FCL shape for collision tests (FCL's mesh-shape narrow phase);
//  - an enclosing mesh, for pictures and for the cheap enclosing-sphere and
//    box bounds (it contains the primitive, so bounds on it stay bounds).
#include "shapes/mesh.h"

#include <fcl/geometry/collision_geometry.h>

#include <memory>
#include <string>
#include <variant>

namespace prmkit {

enum class PrimitiveKind { Box, Sphere, Cylinder };

/// Sides of the prism a cylinder's GJK searches on (Primitive::searchSupport).
inline constexpr int kCylinderSearchSides = 256;

/// A solid primitive in its own frame, centred on the origin; a cylinder's axis is z.
struct Primitive {
  PrimitiveKind kind = PrimitiveKind::Box;
  Eigen::Vector3d half_extents = Eigen::Vector3d::Zero();  // box
  double radius = 0.0;                                     // sphere, cylinder
  double half_length = 0.0;                                // cylinder, along z

  /// Full sizes (x, y, z), a radius, a radius and a full length; throws
  /// std::invalid_argument unless every size is positive and finite.
  static Primitive box(const Eigen::Vector3d& size);
  static Primitive sphere(double radius);
  static Primitive cylinder(double radius, double length);

  /// A point of the primitive with the largest <direction, point> (frame coordinates).
  Eigen::Vector3d support(const Eigen::Vector3d& direction) const;
  /// The point of the solid closest to `point` (frame coordinates; the point itself when inside).
  Eigen::Vector3d closestPoint(const Eigen::Vector3d& point) const;
  /// What GJK searches on instead of the primitive: a proxy whose support is
  /// `searchSupport`, grown by `searchMargin()`, that lies within
  /// `searchSlack()` of the primitive. GJK ends in a few steps on a point or
  /// a polytope but converges only linearly on curved bodies (64 iterations
  /// left 1.5e-5 of the distance on a sphere against a triangle's edge, 18%
  /// on a cylinder's rim against a box's edge). A sphere is its centre grown
  /// by its radius (exact, slack 0); a cylinder is searched on the prism of
  /// kCylinderSearchSides sides around it (slack r (1/cos(pi/n) - 1)); a box
  /// is itself. Bounds are then proven along the direction found with the
  /// primitive's exact support, so the proxy only decides how good a
  /// direction is found, never whether a bound holds.
  Eigen::Vector3d searchSupport(const Eigen::Vector3d& direction) const;
  double searchMargin() const { return kind == PrimitiveKind::Sphere ? radius : 0.0; }
  double searchSlack() const;
  /// The point (frame coordinates) lies in the closed solid.
  bool contains(const Eigen::Vector3d& point) const;
  /// Radius of the smallest sphere about the origin that contains the primitive (m).
  double boundingRadius() const;
  /// The same primitive with every length multiplied by `factor` (> 0).
  Primitive scaled(double factor) const;
  /// A mesh that contains the primitive (its faces lie outside it).
  Mesh enclosingMesh() const;
  /// The enclosing mesh is the primitive itself (a box): checking the mesh
  /// (FCL's triangle tests, an exact convex cover, the BVH traversal) is
  /// exact, and cheaper than GJK against the primitive at every BVH node.
  bool meshIsExact() const { return kind == PrimitiveKind::Box; }
  /// The FCL shape of the primitive, for FCL's collision tests and broad phase.
  std::shared_ptr<fcl::CollisionGeometryd> collisionGeometry() const;
  /// "box", "sphere" or "cylinder".
  std::string kindName() const;
};

/// What a geometry description gives: a mesh, or a primitive kept as one.
using Shape = std::variant<Mesh, Primitive>;
/// The mesh, or the primitive's enclosing mesh (for bodies that are meshes, such as robot links).
Mesh meshOf(const Shape& shape);

/// With no triangle of the mesh touching the primitive, the primitive lies
/// inside the closed mesh (world poses): its centre is inside the mesh.
bool primitiveInsideMesh(const Primitive& primitive, const Transform& primitivePose, const BvhModel& mesh,
                         const SolidInfo& solid, const Transform& meshPose);

}  // namespace prmkit
