#pragma once
// The counted static narrow phase every strategy builds on: FCL's OBBRSS
// mesh-mesh traversal, run through its traversal node so the BV and triangle
// tests FCL performs are counted, behind the scene's broad phase; with the
// convex geometry, each pair first goes through its enclosing volumes and
// convex covers (BvhDistance::provenApart), and only pairs they cannot prove
// apart reach the meshes, so the verdict is FCL's on the meshes either way.
// Primitive obstacles are tested as primitives, never through their enclosing
// meshes: FCL's shape in the broad phase, and in the narrow phase a GJK test
// whose tolerances are relative to the bodies' size. FCL's mesh-shape test
// (libccd) has absolute ones: on a maze scaled to 1e-5 m it called a body
// 2e-7 m (2% of its size) from a box touching it.
#include "geometry/bvh_distance.h"
#include "geometry/query_counts.h"
#include "scene/scene.h"
#include "robots/robot.h"

#include <fcl/narrowphase/collision_object.h>

namespace prmkit {

/// What a configuration collides with: a link against an obstacle or another link.
struct Contact {
  int link = -1;
  int obstacle = -1;    // index in Scene::obstacles(), or -1 for a self-collision
  int other_link = -1;  // for a self-collision
};

/// The geometry checks look at first; verdicts are the same on both.
enum class Geometry {
  Convex,  // enclosing spheres and boxes, then convex covers; the meshes only where those may touch
  Mesh,    // the meshes' BVHs alone (FCL's traversal)
};

/// "convex" or "mesh", as problem files spell it.
std::string geometryName(Geometry geometry);

class CollisionQueries {
 public:
  CollisionQueries(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, Geometry geometry);
  CollisionQueries(const CollisionQueries& other);
  CollisionQueries& operator=(const CollisionQueries&) = delete;

  /// True if the robot at q touches an obstacle or itself. Counts into `stats`.
  bool inCollision(const Config& q, QueryCounts& stats, Contact* contact = nullptr);

  /// Counted mesh-mesh overlap test of two BVHs in world poses.
  static bool meshesOverlap(const BvhModel& a, const Transform& poseA, const BvhModel& b, const Transform& poseB,
                            QueryCounts& stats);
  /// Counted overlap test of two placed bodies: FCL's on two meshes,
  /// BvhDistance::primitiveOverlap on a mesh and a primitive.
  bool overlap(const PlacedBody& a, const PlacedBody& b, QueryCounts& stats);

 private:
  /// Link `link` at `linkPose` touches the body (an obstacle or another
  /// link): FCL on the meshes, or one inside the other (bodies are solids).
  bool touches(std::size_t link, const Transform& linkPose, const BvhModel& bvh, const ConvexCover& cover,
               const SolidInfo& solid, const Transform& pose, QueryCounts& stats);
  /// The same against an obstacle, a mesh or a primitive.
  bool touches(std::size_t link, const Transform& linkPose, const Obstacle& obstacle, QueryCounts& stats);
  /// The narrow phase of `touches` once the covers could not separate the
  /// two: FCL on the meshes, then one body inside the other.
  bool meshesTouch(std::size_t link, const Transform& linkPose, const BvhModel& bvh, const ConvexCover& cover,
                   const SolidInfo& solid, const Transform& pose, QueryCounts& stats);

  Geometry geometry_;
  BvhDistance distance_;
  std::shared_ptr<const Robot> robot_;
  std::shared_ptr<const Scene> scene_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> linkObjects_;
  std::vector<Transform> poses_;
};

/// Two bodies that must not touch: a link and an obstacle, or two links.
struct BodyPair {
  int link;
  int obstacle;    // -1 for a self-collision pair
  int other_link;  // -1 for an obstacle pair
};
/// The pairs an exact strategy certifies: every (link, obstacle) pair, link
/// by link (link i and obstacle j at i * obstacles + j), then the robot's
/// self-collision pairs in their order.
std::vector<BodyPair> bodyPairs(const Robot& robot, const Scene& scene);

/// The step exact strategies take at a sample: a lower bound on the two
/// bodies' distance that answers `threshold` (BvhDistance::lowerBound), and
/// whether they touch, confirmed by the exact test. Convex bodies whose hulls
/// may touch usually do: the exact test comes first there, and the exact
/// distance only if it finds them apart.
struct BoundOrContact {
  DistanceBound bound;
  bool contact = false;
};
BoundOrContact distanceOrContact(BvhDistance& distance, CollisionQueries& collision, const PlacedBody& a,
                                 const PlacedBody& b, double threshold, double relativeError, bool useHulls,
                                 QueryCounts& stats, const DistanceBound* hint);

/// Human-readable "link 'a' with obstacle 'b'".
std::string describe(const Contact& contact, const Robot& robot, const Scene& scene);

}  // namespace prmkit
