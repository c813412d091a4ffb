#pragma once
// Triangle meshes: the one geometry representation of prmkit. Primitives are
// tessellated so that the mesh encloses the primitive (conservative for
// collision), which lets every checker traverse the same FCL OBBRSS BVHs.
#include "base/input_file.h"

#include <Eigen/Geometry>

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>

namespace prmkit {

using Transform = Eigen::Isometry3d;
using BvhModel = fcl::BVHModel<fcl::OBBRSSd>;

struct Mesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;

  bool empty() const { return triangles.empty(); }
  /// Appends `other` transformed by `pose`.
  void append(const Mesh& other, const Transform& pose = Transform::Identity());
  Mesh transformed(const Transform& pose) const;
  /// Every vertex multiplied by `factor` about the frame's origin.
  Mesh scaled(double factor) const;
  /// Every vertex moved towards `centre` to `factor` of its distance from it.
  Mesh scaledAbout(const Eigen::Vector3d& centre, double factor) const;
  Eigen::AlignedBox3d bounds() const;
  /// scaledAbout the centre of its bounding box (an empty mesh as it is).
  Mesh shrunkAboutCentre(double factor) const;
  /// Largest distance from the frame origin to a vertex (the R of a motion bound).
  double radiusAboutOrigin() const;
};

/// Merges vertices at exactly the same position, keeping the first of each in
/// its place. File formats store vertices per face (STL always; OBJ and COLLADA
/// whenever normals or texture coordinates differ between the faces at a
/// corner, which assimp then keeps apart), so a closed surface arrives as a
/// triangle soup: open, with one component per triangle, and so never a solid.
/// Every vertex must be finite.
void weldIdenticalVertices(Mesh& mesh);

/// What makes a mesh a solid: a closed mesh (every edge shared by exactly two
/// triangles) bounds a volume, and a body inside it touches it although no
/// two triangles meet. Computed once per mesh.
struct SolidInfo {
  bool closed = false;
  /// One vertex of each connected component: a body is inside a solid iff
  /// one of these is (when no triangles meet).
  std::vector<Eigen::Vector3d> component_points;
  Eigen::AlignedBox3d bounds;  // mesh frame
};
SolidInfo solidInfo(const Mesh& mesh);

/// The point (mesh frame) lies inside the volume a closed mesh bounds: the
/// parity of a ray's crossings (Moller-Trumbore), cast again in another
/// direction when it passes within rounding of an edge or a vertex.
bool containsPoint(const Mesh& mesh, const SolidInfo& solid, const Eigen::Vector3d& point);

/// The same by a traversal of the mesh's BVH (its oriented boxes cut each
/// ray's candidate triangles from all to a few): what the checkers use. The
/// independent truth keeps the loop over every triangle above.
bool containsPoint(const BvhModel& bvh, const SolidInfo& solid, const Eigen::Vector3d& point);

/// Bodies are solids: with no triangles meeting, a and b (in world poses)
/// still touch when one lies inside the other, a closed mesh. Tests one point
/// of each connected component of each body against the other.
bool oneInsideOther(const Mesh& meshA, const SolidInfo& solidA, const Transform& poseA, const Mesh& meshB,
                    const SolidInfo& solidB, const Transform& poseB);

/// Builds the FCL OBBRSS hierarchy of a mesh (in the mesh's own frame).
std::shared_ptr<BvhModel> buildBvh(const Mesh& mesh);

/// Axis-aligned box of full extents `size`, centred on the origin.
Mesh boxMesh(const Eigen::Vector3d& size);
/// Polyhedron enclosing a sphere of `radius` (vertices pushed out so every face stays outside).
Mesh sphereMesh(double radius, int segments = 32);
/// Prism enclosing a cylinder along z, centred on the origin.
Mesh cylinderMesh(double radius, double length, int segments = 24);
/// Extrudes a simple polygon (counter-clockwise or clockwise, in the xy plane)
/// symmetrically along z by `height`. Throws std::invalid_argument on a degenerate polygon.
Mesh extrudePolygon(const std::vector<Eigen::Vector2d>& polygon, double height);
/// Extrudes the region between an outer and an inner closed curve sampled at
/// the same number of points (a ring), symmetrically along z.
Mesh extrudeRing(const std::vector<Eigen::Vector2d>& outer, const std::vector<Eigen::Vector2d>& inner, double height);

/// Largest magnitude of a coordinate (m, or rad for angles) prmkit accepts
/// in meshes, poses and configuration bounds: squared differences stay far
/// from overflow (a distance of infinite length broke the roadmap's search)
/// and lengths keep a resolution near 1e-7 m.
inline constexpr double kMaxCoordinate = 1e9;
/// A pose with finite entries whose translation is within kMaxCoordinate.
inline bool withinCoordinateLimit(const Transform& pose) {
  return pose.matrix().allFinite() && pose.translation().cwiseAbs().maxCoeff() <= kMaxCoordinate;
}

/// Most triangles and scene nodes a mesh file (or a generated mesh) may
/// hold. A mesh costs about 0.7 GB per 10^6 triangles once its BVH (FCL's
/// OBBRSS, two nodes of 256 bytes a triangle) and convex cover are built, and
/// about 20 s of setup on one core: at 10^7 FCL's BVH alone ran out of 4 GB.
inline constexpr std::size_t kMaxMeshTriangles = 1'000'000;
/// Most triangles of a whole scene (about 2 GB built): one mesh file of the
/// limit, named by many obstacles, would otherwise hold memory times their count.
inline constexpr std::size_t kMaxSceneTriangles = 3'000'000;
/// Most corners of an extruded polygon: ear clipping and the simplicity
/// test are quadratic in them (cubic at worst).
inline constexpr std::size_t kMaxPolygonPoints = 1000;
inline constexpr std::size_t kMaxMeshNodes = 1'000'000;
/// Most corners of one polygon face in a mesh file, and most work its
/// polygons may ask of triangulation (the sum of their squared corner counts).
inline constexpr std::size_t kMaxFaceCorners = 10'000;
inline constexpr std::uintmax_t kMaxTriangulationWork = 400'000'000;

struct MeshLoadError : InvalidInput {
  using InvalidInput::InvalidInput;
};

}  // namespace prmkit
