#pragma once
// A scene: static obstacles as BVH meshes with poses, and an FCL broad phase over them.
#include "environments/convex_hull.h"
#include "environments/mesh.h"

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/narrowphase/collision_object.h>

namespace prmkit {

struct Obstacle {
  std::string name;
  Mesh mesh;  // in the obstacle's own frame
  Transform pose = Transform::Identity();
  std::shared_ptr<BvhModel> bvh;
  ConvexCover cover;  // convex pieces containing the mesh (empty for a flat mesh)
  SolidInfo solid;
};

class Scene {
 public:
  Scene() = default;
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  /// Adds an obstacle; throws std::invalid_argument on an empty mesh or a duplicate name.
  void addObstacle(std::string name, Mesh mesh, const Transform& pose);
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  /// The same obstacles in a world whose lengths are multiplied by `factor`
  /// (> 0): meshes and pose translations; orientations unchanged.
  std::shared_ptr<Scene> scaled(double factor) const;
  std::size_t triangleCount() const;
  /// World-frame axis-aligned bounds of all obstacles (empty box when there are none).
  Eigen::AlignedBox3d bounds() const;

  /// Broad phase over the obstacles. The collision objects' user data is the
  /// obstacle index (as std::intptr_t). Read-only queries may run concurrently.
  const fcl::BroadPhaseCollisionManagerd& broadphase() const { return broadphase_; }

 private:
  std::vector<Obstacle> obstacles_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects_;
  fcl::DynamicAABBTreeCollisionManagerd broadphase_;
};

}  // namespace prmkit
