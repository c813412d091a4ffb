#include "geometry/penetration.h"

#include <fcl/narrowphase/detail/traversal/collision/mesh_collision_traversal_node.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>

#include <cmath>

namespace prmkit {

void penetrationContacts(const Robot& robot, const Scene& scene, const std::vector<Transform>& linkPoses,
                         std::size_t perPair, QueryCounts& stats, std::vector<PenetrationContact>& out) {
  out.clear();
  const auto& links = robot.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (const Obstacle& obstacle : scene.obstacles()) {
      // FCL's traversal reads the shared BVHs only (an FCL collision object
      // would rewrite their bounds under other threads: Link::object).
      fcl::detail::MeshCollisionTraversalNodeOBBRSS<double> node;
      fcl::CollisionRequestd request(perPair, true);
      fcl::CollisionResultd result;
      fcl::detail::initialize(node, *links[i].bvh, linkPoses[i], *obstacle.bvh, obstacle.pose, request, result);
      node.enable_statistics = true;
      fcl::detail::collide(&node);
      ++stats.pair_tests;
      stats.bv_tests += static_cast<std::uint64_t>(node.num_bv_tests);
      stats.primitive_tests += static_cast<std::uint64_t>(node.num_leaf_tests);
      for (std::size_t c = 0; c < result.numContacts(); ++c) {
        const fcl::Contactd& contact = result.getContact(c);
        const double length = contact.normal.norm();
        if (!(length > 0.0) || !std::isfinite(contact.penetration_depth) || !contact.pos.allFinite()) continue;
        out.push_back(PenetrationContact{.link = i,
                                         .point = contact.pos,
                                         .normal = contact.normal / length,
                                         .depth = std::abs(contact.penetration_depth)});
      }
    }
  }
}

}  // namespace prmkit
