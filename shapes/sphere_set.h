#pragma once
// Spheres that stand for a body: the approximation VAMP checks links with
// (Thomason, Kingston & Kavraki, "Motions in Microseconds via Vectorized
// Sampling-Based Planning", ICRA 2024), read from a spherized URDF or fitted
// to a mesh here. Fitted sets contain the mesh (every piece of every
// triangle inside one sphere), so a set that meets nothing proves the mesh
// meets nothing.
#include "shapes/mesh.h"

#include <cstddef>
#include <vector>

namespace prmkit {

struct Sphere {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double radius = 0.0;
};

/// The most spheres one body may have (a hostile spherized URDF or setting).
inline constexpr std::size_t kMaxSpheresPerBody = 4096;

/// At most `count` spheres (1 <= count <= kMaxSpheresPerBody) whose union
/// contains `mesh`: its triangles are cut into pieces no longer than about
/// the size of one of `count` spheres spread over the body, the pieces split
/// into groups along the longest side of their centroids' box, at the
/// median, the group with the largest sphere first (no recursion), until
/// there are `count` groups or none can be split; each group's sphere is
/// centred on its vertices' box and reaches its farthest vertex, which puts
/// each piece (their convex hull) inside it. Empty for an empty mesh.
std::vector<Sphere> containingSpheres(const Mesh& mesh, std::size_t count);

/// The smallest sphere about the centre of the spheres' box that holds them all.
Sphere enclosingSphere(const std::vector<Sphere>& spheres);

/// The point lies in one of the spheres, up to `tolerance` (m).
bool covers(const std::vector<Sphere>& spheres, const Eigen::Vector3d& point, double tolerance = 0.0);

}  // namespace prmkit
