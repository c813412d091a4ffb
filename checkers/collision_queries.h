#pragma once
// The counted static narrow phase every strategy builds on: FCL's OBBRSS
// mesh-mesh traversal, run through its traversal node so the BV and triangle
// tests FCL performs are counted, behind the scene's broad phase.
#include "checkers/check_stats.h"
#include "environments/scene.h"
#include "robots/robot.h"

#include <fcl/narrowphase/collision_object.h>

namespace prmkit {

/// What a configuration collides with: a link against an obstacle or another link.
struct Contact {
  int link = -1;
  int obstacle = -1;    // index in Scene::obstacles(), or -1 for a self-collision
  int other_link = -1;  // for a self-collision
};

class CollisionQueries {
 public:
  CollisionQueries(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene);
  CollisionQueries(const CollisionQueries& other);
  CollisionQueries& operator=(const CollisionQueries&) = delete;

  /// True if the robot at q touches an obstacle or itself. Counts into `stats`.
  bool inCollision(const Config& q, CheckStats& stats, Contact* contact = nullptr);

  /// Counted mesh-mesh overlap test of two BVHs in world poses.
  static bool meshesOverlap(const BvhModel& a, const Transform& poseA, const BvhModel& b, const Transform& poseB,
                            CheckStats& stats);

 private:
  std::shared_ptr<const Robot> robot_;
  std::shared_ptr<const Scene> scene_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> linkObjects_;
  std::vector<Transform> poses_;
};

/// Human-readable "link 'a' with obstacle 'b'".
std::string describe(const Contact& contact, const Robot& robot, const Scene& scene);

}  // namespace prmkit
