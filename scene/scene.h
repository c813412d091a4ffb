#pragma once
// A scene: static obstacles (meshes, or boxes, spheres and cylinders kept as
// primitives) with poses, and an FCL broad phase over them.
#include "shapes/convex_hull.h"
#include "shapes/mesh.h"
#include "shapes/primitive.h"
#include "scene/spatial_hash.h"

#include <optional>
#include <span>
#include <string>
#include <unordered_set>

#include <fcl/broadphase/broadphase_SaP.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/narrowphase/collision_object.h>

namespace prmkit {

struct Obstacle {
  std::string name;
  /// In the obstacle's own frame. For a primitive: a mesh that encloses it,
  /// for pictures and enclosing-volume bounds; collision tests and exact
  /// distances use the primitive itself.
  Mesh mesh;
  Transform pose = Transform::Identity();
  std::shared_ptr<BvhModel> bvh;
  ConvexCover cover;  // convex pieces containing the mesh (empty for a flat mesh or a primitive)
  SolidInfo solid;
  std::optional<Primitive> primitive;

  /// The primitive the checks must treat as one: none for a mesh or for a
  /// primitive whose enclosing mesh is exact (a box), which is checked as that mesh.
  const Primitive* checkedPrimitive() const { return primitive && !primitive->meshIsExact() ? &*primitive : nullptr; }
};

/// How a scene keeps box, sphere and cylinder obstacles: as primitives
/// (exact), or as their enclosing meshes (conservative by the tessellation's
/// error; what prmkit did before it had primitives, kept for comparison).
enum class PrimitiveMode { Native, Tessellated };

/// How checkers find the obstacles near a box a link sweeps over a piece of an
/// edge: FCL's dynamic AABB tree (the one static checks use), FCL's
/// sort-and-sweep manager, or Mirtich's hierarchical spatial hash, which all
/// return the obstacles whose world boxes overlap the query box and differ
/// in how much they visit to find them; or none (every obstacle).
enum class BroadPhase { None, AabbTree, SortAndSweep, Hash };
/// "none", "aabb_tree", "sort_and_sweep" or "hash", as problem files spell it.
std::string broadPhaseName(BroadPhase kind);

class Scene {
 public:
  explicit Scene(PrimitiveMode mode = PrimitiveMode::Native) : mode_(mode) {}
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  /// Adds an obstacle; throws std::invalid_argument on an empty mesh or a duplicate name.
  void addObstacle(std::string name, Mesh mesh, const Transform& pose);
  /// Adds a primitive obstacle (its enclosing mesh when the scene tessellates
  /// primitives); throws std::invalid_argument on a duplicate name.
  void addObstacle(std::string name, const Primitive& primitive, const Transform& pose);
  void addObstacle(std::string name, Shape shape, const Transform& pose);
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  /// The same obstacles in a world whose lengths are multiplied by `factor`
  /// (> 0): meshes and pose translations; orientations unchanged.
  std::shared_ptr<Scene> scaled(double factor) const;
  std::size_t triangleCount() const;
  /// Obstacles kept as primitives.
  std::size_t primitiveCount() const;
  /// Obstacles whose checks go through a primitive (Obstacle::checkedPrimitive).
  std::size_t checkedPrimitiveCount() const { return checkedPrimitives_; }
  /// World-frame axis-aligned bounds of all obstacles (empty box when there are none).
  Eigen::AlignedBox3d bounds() const;

  /// Broad phase over the obstacles. The collision objects' user data is the
  /// obstacle index (as std::intptr_t). Read-only queries may run concurrently.
  const fcl::BroadPhaseCollisionManagerd& broadphase() const { return broadphase_; }

  /// Selects the broad phase of obstaclesOverlapping and builds it over the
  /// obstacles (an obstacle added later rebuilds it).
  void setBroadPhase(BroadPhase kind);
  BroadPhase broadPhase() const { return broadPhaseKind_; }
  /// The world-frame axis-aligned box of obstacle i (of its mesh, or its primitive's enclosing mesh).
  const Eigen::AlignedBox3d& obstacleBox(std::size_t i) const { return boxes_[i]; }
  /// The obstacles whose boxes overlap `box`, ascending, by the selected
  /// broad phase (with None: every obstacle); counts into `visited` the
  /// boxes and cells it visited (hash, none) or the candidates the FCL
  /// manager called back with. Read-only: queries may run concurrently.
  void obstaclesOverlapping(const Eigen::AlignedBox3d& box, std::vector<int>& out, std::uint64_t& visited) const;
  /// An obstacle whose box overlaps some of a chain of query boxes: bit k of
  /// `boxes` is set when it overlaps box k.
  struct ChainOverlap {
    int obstacle;
    std::uint64_t boxes;
  };
  /// The obstacles whose boxes overlap at least one of `boxes` (at most
  /// kMaxChainBoxes), ascending, with the boxes each overlaps. A chain of
  /// small boxes along a motion holds far fewer obstacles than the one box
  /// around it. The AABB tree prunes every node that overlaps none of them
  /// and counts the nodes it visits into `visited`; the other broad phases
  /// answer the box around the chain (as obstaclesOverlapping) and the
  /// chain's boxes decide. Read-only: queries may run concurrently.
  void obstaclesOverlappingChain(std::span<const Eigen::AlignedBox3d> boxes, std::vector<ChainOverlap>& out,
                                 std::uint64_t& visited) const;
  static constexpr std::size_t kMaxChainBoxes = 64;

 private:
  void add(Obstacle obstacle, std::shared_ptr<fcl::CollisionGeometryd> geometry);

  PrimitiveMode mode_;
  std::size_t checkedPrimitives_ = 0;
  std::size_t triangles_ = 0;  // of every obstacle's mesh, against kMaxSceneTriangles
  std::vector<Obstacle> obstacles_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects_;
  std::unordered_set<std::string> names_;
  fcl::DynamicAABBTreeCollisionManagerd broadphase_;
  std::vector<Eigen::AlignedBox3d> boxes_;  // per obstacle, world frame
  BroadPhase broadPhaseKind_ = BroadPhase::AabbTree;
  std::unique_ptr<fcl::SaPCollisionManagerd> sortAndSweep_;  // when selected
  std::unique_ptr<HierarchicalHash> hash_;                   // when selected
  void buildBroadPhase();
};

}  // namespace prmkit
