#pragma once
// The convex hull of a mesh, computed once at load time with qhull: the
// first geometry a distance bound looks at after the enclosing sphere.
//
// Why it is always safe: the hull contains the mesh, so the distance between
// two hulls is at most the distance between the two meshes, whatever their
// shape; a lower bound on the hulls' distance is one on the meshes'. How
// useful it is depends on how convex the mesh is: `concavity` says how far
// below the hull's surface the mesh goes (0 for a convex mesh, such as the
// tessellated boxes and cylinders of MoveIt scenes and most links of robot
// collision models), and the distance between the meshes is at most the
// hulls' distance plus both concavities.
#include "shapes/mesh.h"

#include <memory>
#include <vector>

namespace prmkit {

struct ConvexHull {
  /// The hull's vertices (a subset of the mesh's), in the mesh's frame.
  std::vector<Eigen::Vector3d> vertices;
  /// Neighbours of each vertex along the hull's (triangulated) edges, so that
  /// a support search can climb from any vertex to the extreme one: those of
  /// vertex v are neighbour_list[neighbour_start[v] .. neighbour_start[v + 1]),
  /// one flat array so that a climb reads contiguous memory.
  std::vector<int> neighbour_start;
  std::vector<int> neighbour_list;
  /// Centre of the hull's bounding box (m, mesh frame), and the radius of
  /// the sphere about it that encloses the hull (m).
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  double bounding_radius = 0.0;

  /// Convex enough that its distance says much about the mesh's: concavity
  /// at most kUsableConcavity of its half extent.
  bool nearlyConvex() const;
  /// The largest depth of a mesh vertex below the hull's surface (m): how far
  /// the mesh is from convex. For a closed mesh, every point of the hull lies
  /// within this distance of the mesh only approximately (a dent's deepest
  /// point is a vertex; a tunnel through the mesh is not measured), so it
  /// only ever tightens upper bounds, never lower ones.
  double concavity = 0.0;
  /// Half the largest extent of the hull's bounding box (m), the scale concavity is judged against.
  double half_extent = 0.0;
  /// The largest distance of a vertex from the frame's origin (m): the scale of rounding errors.
  double radius = 0.0;
};

/// A hull this far from convex (its concavity over its half extent) bounds
/// little: a body near a concave shelf or a spring sits inside its hull.
inline constexpr double kUsableConcavity = 0.05;

/// The point (hull frame) is proven outside the hull: beyond the hull's
/// support plane in the direction from the hull's centre to the point (the
/// largest projection over every vertex, plus a rounding margin that also
/// covers qhull's roundoff). False proves nothing.
bool provenOutside(const ConvexHull& hull, const Eigen::Vector3d& point);

/// The convex hull of the mesh's vertices, or nullptr when they span no
/// volume (a flat or degenerate mesh, for which qhull has no 3D hull).
std::shared_ptr<const ConvexHull> convexHullOf(const Mesh& mesh);

/// Convex pieces whose union contains every triangle of a mesh: the mesh's
/// hull when it is nearly convex; otherwise the hulls of subtrees of its BVH
/// (each subtree's triangles lie in the hull of their vertices), the most
/// concave piece split into its two children first, until every piece is
/// nearly convex or there are kMaxConvexPieces. Empty when the mesh is flat.
struct ConvexCover {
  /// The hull of the whole mesh: one convex set that contains every piece,
  /// tried first (one GJK) before the pieces are (one per pair of pieces).
  std::shared_ptr<const ConvexHull> hull;
  std::vector<std::shared_ptr<const ConvexHull>> pieces;
  /// Runs of at most kPieceGroup consecutive pieces lying close together (a
  /// cover of many parts is ordered by median splits of the pieces'
  /// centres), each with a sphere around its pieces' bounding spheres: a
  /// query farther than its threshold from a group's sphere skips the
  /// group's pieces. Empty when there are at most kPieceGroup pieces.
  struct Group {
    std::size_t first, count;
    Eigen::Vector3d center;
    double radius;
  };
  std::vector<Group> groups;
  bool empty() const { return pieces.empty(); }
};
inline constexpr std::size_t kMaxConvexPieces = 16;
/// Most parts a mesh of separate parts may have for the parts' hulls to
/// cover it (the walls and furniture of a house: hundreds); beyond that its
/// BVH's subtrees do.
inline constexpr std::size_t kMaxConvexParts = 1024;
inline constexpr std::size_t kPieceGroup = 16;

/// Calls visit(piece) on the pieces of every group for which near(group)
/// holds, in order (on every piece when the cover has no groups); returns
/// true as soon as visit does.
template <class Near, class Visit>
bool visitGroupedPieces(const ConvexCover& cover, Near&& near, Visit&& visit) {
  if (cover.groups.empty()) {
    for (const auto& piece : cover.pieces)
      if (visit(*piece)) return true;
    return false;
  }
  for (const ConvexCover::Group& group : cover.groups) {
    if (!near(group)) continue;
    for (std::size_t i = group.first; i < group.first + group.count; ++i)
      if (visit(*cover.pieces[i])) return true;
  }
  return false;
}
ConvexCover convexCoverOf(const Mesh& mesh, const BvhModel& bvh);

}  // namespace prmkit
