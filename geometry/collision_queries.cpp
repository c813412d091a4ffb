#include "geometry/collision_queries.h"

#include "geometry/gjk.h"

#include <fcl/narrowphase/detail/traversal/collision/mesh_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>
#include <fmt/format.h>

namespace prmkit {

CollisionQueries::CollisionQueries(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                                   Geometry geometry)
    : geometry_(geometry), robot_(std::move(robot)), scene_(std::move(scene)) {
  // Copies of the links' own objects: constructing one would rewrite the
  // shared BVH's bounds under other threads' checks (Link::object).
  for (const auto& link : robot_->links())
    linkObjects_.push_back(std::make_unique<fcl::CollisionObjectd>(*link.object));
  // Each model's traversal information (a walk over its vertices and nodes)
  // made here, in setup, rather than by the first checks that reach it: a
  // verifier made for one run paid 6 % of its path certification on the
  // Panda for it.
  for (const auto& link : robot_->links()) distance_.enclosing(*link.bvh);
  for (const Obstacle& obstacle : scene_->obstacles()) distance_.enclosing(*obstacle.bvh);
}

CollisionQueries::CollisionQueries(const CollisionQueries& other)
    : CollisionQueries(other.robot_, other.scene_, other.geometry_) {}

bool CollisionQueries::meshesOverlap(const BvhModel& a, const Transform& poseA, const BvhModel& b,
                                     const Transform& poseB, QueryCounts& stats) {
  fcl::detail::MeshCollisionTraversalNodeOBBRSS<double> node;
  fcl::CollisionRequestd request;  // one contact is enough: stop at the first
  fcl::CollisionResultd result;
  fcl::detail::initialize(node, a, poseA, b, poseB, request, result);
  node.enable_statistics = true;
  fcl::detail::collide(&node);
  ++stats.pair_tests;
  stats.bv_tests += static_cast<std::uint64_t>(node.num_bv_tests);
  stats.primitive_tests += static_cast<std::uint64_t>(node.num_leaf_tests);
  return result.isCollision();
}

bool CollisionQueries::overlap(const PlacedBody& a, const PlacedBody& b, QueryCounts& stats) {
  return b.primitive ? distance_.primitiveOverlap(a, b, stats) : meshesOverlap(a.bvh, a.pose, b.bvh, b.pose, stats);
}

namespace {
/// Bodies are solids: with no triangles meeting, a body lies inside a closed
/// one when a point of one of its components does. A point beyond the outer
/// mesh's bounding box, or its convex hull, is outside without a ray cast (most points: the ray
/// casts cost 7% of `adaptive`'s time per edge on a Panda problem before).
bool insideSolid(const SolidInfo& inner, const Transform& innerPose, const BvhModel& outer, const SolidInfo& outerSolid,
                 const ConvexCover& outerCover, const Transform& outerPose) {
  if (!outerSolid.closed) return false;
  const Transform toOuter = outerPose.inverse() * innerPose;
  for (const Eigen::Vector3d& p : inner.component_points) {
    const Eigen::Vector3d q = toOuter * p;
    // Beyond the outer mesh's box: no vertex scan, no ray cast.
    if (!outerSolid.bounds.contains(q)) continue;
    if (outerCover.hull && provenOutside(*outerCover.hull, q)) continue;
    if (containsPoint(outer, outerSolid, q)) return true;
  }
  return false;
}
}  // namespace

namespace {
/// A vertex of the link lies inside the box by more than rounding: the link's
/// surface enters the solid box, a collision (exact, no tolerance given).
/// The vertices tried are the link hull's extreme ones towards the box's
/// centre and towards the box along each of its axes (a link crossing a thin
/// board reaches deepest along the board's normal). Most (link, box) pairs
/// whose hulls the covers cannot separate collide (99.7% on MotionBenchMaker's
/// shelves), and this settles them for a few support searches where FCL's
/// traversal tests dozens of box pairs.
bool vertexInsideBox(const ConvexHull& hull, const Transform& linkPose, const Primitive& box,
                     const Transform& boxPose) {
  const Transform toBox = boxPose.inverse() * linkPose;
  const double margin =
      1e-12 * (hull.radius + linkPose.translation().norm() + boxPose.translation().norm() + box.half_extents.norm());
  const Eigen::Vector3d centre = toBox * hull.center;  // the link's, in the box's frame
  const Eigen::Matrix3d toLink = toBox.linear().transpose();
  int vertex = -1;
  for (int k = -1; k < 3; ++k) {
    Eigen::Vector3d direction = -centre;  // box frame
    if (k >= 0) direction = Eigen::Vector3d::Unit(k) * (centre[k] > 0 ? -1.0 : 1.0);
    vertex = supportVertex(hull, toLink * direction, vertex);
    const Eigen::Vector3d p = toBox * hull.vertices[static_cast<std::size_t>(vertex)];
    if ((p.cwiseAbs() - box.half_extents).maxCoeff() < -margin) return true;
  }
  return false;
}
}  // namespace

bool CollisionQueries::touches(std::size_t link, const Transform& linkPose, const Obstacle& obstacle,
                               QueryCounts& stats) {
  if (!obstacle.checkedPrimitive()) {
    const Link& l = robot_->links()[link];
    if (geometry_ == Geometry::Convex && obstacle.primitive && obstacle.primitive->kind == PrimitiveKind::Box &&
        l.cover.hull) {
      if (distance_.provenApart(PlacedBody{*l.bvh, &l.cover, linkPose},
                                PlacedBody{*obstacle.bvh, &obstacle.cover, obstacle.pose}, stats))
        return false;
      if (vertexInsideBox(*l.cover.hull, linkPose, *obstacle.primitive, obstacle.pose)) {
        ++stats.vertex_confirmations;
        return true;
      }
      return meshesTouch(link, linkPose, *obstacle.bvh, obstacle.cover, obstacle.solid, obstacle.pose, stats);
    }
    return touches(link, linkPose, *obstacle.bvh, obstacle.cover, obstacle.solid, obstacle.pose, stats);
  }
  const Link& l = robot_->links()[link];
  const PlacedBody linkBody{*l.bvh, &l.cover, linkPose};
  const PlacedBody primitiveBody = placedObstacle(obstacle);
  if (geometry_ == Geometry::Convex && distance_.provenApart(linkBody, primitiveBody, stats)) return false;
  // A primitive is solid natively (a link inside it overlaps a triangle);
  // a primitive inside a closed link has its centre inside the link.
  return overlap(linkBody, primitiveBody, stats) ||
         primitiveInsideMesh(*obstacle.checkedPrimitive(), obstacle.pose, *l.bvh, l.solid, linkPose);
}

bool CollisionQueries::touches(std::size_t link, const Transform& linkPose, const BvhModel& bvh,
                               const ConvexCover& cover, const SolidInfo& solid, const Transform& pose,
                               QueryCounts& stats) {
  const Link& l = robot_->links()[link];
  if (geometry_ == Geometry::Convex &&
      distance_.provenApart(PlacedBody{*l.bvh, &l.cover, linkPose}, PlacedBody{bvh, &cover, pose}, stats))
    return false;
  return meshesTouch(link, linkPose, bvh, cover, solid, pose, stats);
}

bool CollisionQueries::meshesTouch(std::size_t link, const Transform& linkPose, const BvhModel& bvh,
                                   const ConvexCover& cover, const SolidInfo& solid, const Transform& pose,
                                   QueryCounts& stats) {
  const Link& l = robot_->links()[link];
  return meshesOverlap(*l.bvh, linkPose, bvh, pose, stats) || insideSolid(l.solid, linkPose, bvh, solid, cover, pose) ||
         insideSolid(solid, pose, *l.bvh, l.solid, l.cover, linkPose);
}

namespace {
/// One link against the broad phase; `touches` is the narrow phase of one obstacle.
template <class Touches>
struct BroadphaseQuery {
  const fcl::CollisionObjectd* link_object;
  const Scene* scene;
  Touches touches;
  int hit_obstacle = -1;
};

template <class Query>
bool narrowPhase(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  auto& query = *static_cast<Query*>(data);
  const fcl::CollisionObjectd* obstacleObject = (o1 == query.link_object) ? o2 : o1;
  const auto index = static_cast<int>(reinterpret_cast<std::intptr_t>(obstacleObject->getUserData()));
  if (query.touches(query.scene->obstacles()[static_cast<std::size_t>(index)])) {
    query.hit_obstacle = index;
    return true;  // stop the broad phase
  }
  return false;
}
}  // namespace

bool CollisionQueries::inCollision(const Config& q, QueryCounts& stats, Contact* contact) {
  ++stats.static_queries;
  robot_->linkPoses(q, poses_);
  const auto& links = robot_->links();
  if (!scene_->obstacles().empty()) {
    for (std::size_t i = 0; i < links.size(); ++i) {
      auto& object = *linkObjects_[i];
      object.setTransform(poses_[i]);
      object.computeAABB();
      auto touchesObstacle = [&](const Obstacle& o) { return touches(i, poses_[i], o, stats); };
      BroadphaseQuery<decltype(touchesObstacle)> query{&object, scene_.get(), touchesObstacle};
      scene_->broadphase().collide(&object, &query, narrowPhase<decltype(query)>);
      if (query.hit_obstacle >= 0) {
        if (contact) *contact = {static_cast<int>(i), query.hit_obstacle, -1};
        return true;
      }
    }
  }
  for (const auto& [i, k] : robot_->selfCollisionPairs()) {
    const auto other = static_cast<std::size_t>(k);
    if (touches(static_cast<std::size_t>(i), poses_[i], *links[other].bvh, links[other].cover, links[other].solid,
                poses_[other], stats)) {
      if (contact) *contact = {i, -1, k};
      return true;
    }
  }
  return false;
}

std::string geometryName(Geometry geometry) { return geometry == Geometry::Convex ? "convex" : "mesh"; }

std::vector<BodyPair> bodyPairs(const Robot& robot, const Scene& scene) {
  std::vector<BodyPair> pairs;
  const int linkCount = static_cast<int>(robot.links().size());
  const int obstacleCount = static_cast<int>(scene.obstacles().size());
  for (int i = 0; i < linkCount; ++i)
    for (int j = 0; j < obstacleCount; ++j) pairs.push_back({i, j, -1});
  for (const auto& [i, k] : robot.selfCollisionPairs()) pairs.push_back({i, -1, k});
  return pairs;
}

BoundOrContact distanceOrContact(BvhDistance& distance, CollisionQueries& collision, const PlacedBody& a,
                                 const PlacedBody& b, double threshold, double relativeError, bool useHulls,
                                 QueryCounts& stats, const DistanceBound* hint) {
  const DistanceBound bound =
      distance.lowerBound(a, b, threshold, relativeError, useHulls, stats, hint, BvhDistance::AtConvexContact::Stop);
  if (bound.convex_contact) {
    if (collision.overlap(a, b, stats)) return {bound, true};
    return {distance.lowerBound(a, b, threshold, relativeError, useHulls, stats, hint), false};
  }
  return {bound, bound.touching() && collision.overlap(a, b, stats)};
}

std::string describe(const Contact& contact, const Robot& robot, const Scene& scene) {
  const auto& links = robot.links();
  if (contact.link < 0) return "nothing";
  if (contact.obstacle >= 0)
    return fmt::format("link '{}' with obstacle '{}'", links[contact.link].name,
                       scene.obstacles()[contact.obstacle].name);
  return fmt::format("link '{}' with link '{}'", links[contact.link].name, links[contact.other_link].name);
}

}  // namespace prmkit
