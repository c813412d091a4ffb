// Static checks per second: prmkit's exact static check (CollisionQueries on
// the convex geometry, as every checker's isValid) against FCL's `collide`
// on the same meshes and primitives, set up as MoveIt's FCL collision
// environment does (the obstacles in FCL's dynamic AABB tree, each link's
// BVH against it, then the allowed self-collision pairs), on the same
// configurations in one run, so the ratio compares like with like.
//
//   prmkit_static_checks PROBLEM [COUNT] [SEED] [key.path=value ...]
//
// COUNT (default 20000) configurations drawn uniformly (seed SEED, default
// 1); a MoveIt request takes its robot from overrides (robot.file=URDF,
// robot.srdf=SRDF). The fastest of three rounds counts (these machines are
// noisy). Verdicts that differ are counted: FCL's mesh tests do not see one
// solid inside another, and its shape tests have absolute tolerances.
#include "geometry/collision_queries.h"
#include "bench/sampled_problem.h"
#include "bench/fastest_of.h"

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

using namespace prmkit;

namespace {

double seconds(const std::function<void()>& work) { return bench::fastestOf(3, work); }

std::shared_ptr<fcl::CollisionGeometryd> fclGeometry(const Obstacle& obstacle) {
  if (const Primitive* p = obstacle.checkedPrimitive()) {
    if (p->kind == PrimitiveKind::Sphere) return std::make_shared<fcl::Sphered>(p->radius);
    return std::make_shared<fcl::Cylinderd>(p->radius, 2.0 * p->half_length);
  }
  if (obstacle.primitive && obstacle.primitive->kind == PrimitiveKind::Box)
    return std::make_shared<fcl::Boxd>(2.0 * obstacle.primitive->half_extents);
  return obstacle.bvh;
}

bool stopAtFirstContact(fcl::CollisionObjectd* a, fcl::CollisionObjectd* b, void* data) {
  auto& found = *static_cast<bool*>(data);
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  if (fcl::collide(a, b, request, result) > 0) found = true;
  return found;
}

/// MoveIt's FCL setup: obstacles in a dynamic AABB tree, the links queried
/// against it one by one, then the self pairs the SRDF leaves in.
class FclStaticCheck {
 public:
  FclStaticCheck(const Robot& robot, const Scene& scene) : robot_(robot) {
    for (const Obstacle& obstacle : scene.obstacles()) {
      obstacles_.push_back(std::make_unique<fcl::CollisionObjectd>(fclGeometry(obstacle), obstacle.pose));
      obstacles_.back()->computeAABB();
    }
    std::vector<fcl::CollisionObjectd*> raw;
    for (auto& o : obstacles_) raw.push_back(o.get());
    manager_.registerObjects(raw);
    manager_.setup();
    for (const Link& link : robot.links())
      links_.push_back(std::make_unique<fcl::CollisionObjectd>(link.bvh, Transform::Identity()));
  }

  bool inCollision(const Config& q) {
    robot_.linkPoses(q, poses_);
    for (std::size_t i = 0; i < links_.size(); ++i) {
      links_[i]->setTransform(poses_[i]);
      links_[i]->computeAABB();
      if (obstacles_.empty()) continue;
      bool found = false;
      manager_.collide(links_[i].get(), &found, stopAtFirstContact);
      if (found) return true;
    }
    for (const auto& [i, k] : robot_.selfCollisionPairs()) {
      fcl::CollisionRequestd request;
      fcl::CollisionResultd result;
      if (fcl::collide(links_[static_cast<std::size_t>(i)].get(), links_[static_cast<std::size_t>(k)].get(), request,
                       result) > 0)
        return true;
    }
    return false;
  }

 private:
  const Robot& robot_;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> obstacles_, links_;
  fcl::DynamicAABBTreeCollisionManagerd manager_;
  std::vector<Transform> poses_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: prmkit_static_checks PROBLEM [COUNT] [SEED] [key.path=value ...]\n");
    return 2;
  }
  try {
    const int count = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20000;
    const auto seed = argc > 3 ? static_cast<std::uint32_t>(std::strtoul(argv[3], nullptr, 10)) : 1u;
    const Problem problem = bench::loadWithOverrides(argc, argv, 4);
    const Robot& robot = *problem.robot;
    const std::vector<Config> configs = bench::uniformConfigs(robot, static_cast<std::size_t>(count), seed);

    CollisionQueries queries(problem.robot, problem.scene, Geometry::Convex);
    FclStaticCheck fcl(robot, *problem.scene);
    std::vector<char> ours(configs.size()), theirs(configs.size());
    CheckStats stats;
    const double oursSeconds = seconds([&] {
      stats = CheckStats{};
      for (std::size_t i = 0; i < configs.size(); ++i) ours[i] = queries.inCollision(configs[i], stats);
    });
    const double theirsSeconds = seconds([&] {
      for (std::size_t i = 0; i < configs.size(); ++i) theirs[i] = fcl.inCollision(configs[i]);
    });
    std::size_t colliding = 0, differ = 0;
    for (std::size_t i = 0; i < configs.size(); ++i) {
      colliding += ours[i] ? 1 : 0;
      differ += ours[i] != theirs[i] ? 1 : 0;
    }
    fmt::print(
        "{}: {} configurations ({} colliding, {} verdicts differ from FCL's); prmkit {:.0f} checks/s "
        "({:.2f} us each), FCL {:.0f} checks/s ({:.2f} us each); prmkit / FCL time {:.3f}; "
        "pairs settled by covers {}, GJK runs {}, pair tests {}\n",
        problem.name, configs.size(), colliding, differ, configs.size() / oursSeconds, 1e6 * oursSeconds / count,
        configs.size() / theirsSeconds, 1e6 * theirsSeconds / count, oursSeconds / theirsSeconds,
        stats.cover_separations, stats.gjk_queries, stats.pair_tests);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "prmkit_static_checks: {}\n", e.what());
    return 2;
  }
}
