// The broad phases over a problem's obstacles, built once and queried with
// the boxes a link sweeps over steps of random edges, against the same
// structures rebuilt for every query: Mirtich 1997's comparison of coherent
// hashing with a static rebuild (his Table 1 found maintaining the hash
// several times faster). Our obstacles never move, so "coherent" here is
// simply "built once"; the rebuild cost is what a checker would pay if it
// had to build its structure per query.
//
//   prmkit_broad_phase PROBLEM.yaml [QUERIES] [STEP_FRACTION]
//
// QUERIES (default 2000) steps of STEP_FRACTION (default 0.1) of the C-space
// extent, one box per link and step (its enclosing sphere at both ends).
// The fastest of three rounds counts (these machines are noisy).
#include "scene/spatial_hash.h"
#include "setup/build_problem.h"
#include "bench/fastest_of.h"

#include <fcl/broadphase/broadphase_SaP.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

using namespace prmkit;

namespace {

double seconds(const std::function<void()>& work) { return bench::fastestOf(3, work); }

std::unique_ptr<fcl::CollisionObjectd> boxObject(const Eigen::AlignedBox3d& box) {
  auto object = std::make_unique<fcl::CollisionObjectd>(std::make_shared<fcl::Boxd>(box.sizes().cwiseMax(1e-12)),
                                                        Transform(Eigen::Translation3d(box.center())));
  object->computeAABB();
  return object;
}

bool countCandidate(fcl::CollisionObjectd*, fcl::CollisionObjectd*, void* count) {
  ++*static_cast<std::size_t*>(count);
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: prmkit_broad_phase PROBLEM.yaml [QUERIES] [STEP_FRACTION]\n");
    return 2;
  }
  try {
    const Problem problem = loadProblem(argv[1]);
    const int count = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2000;
    const double fraction = argc > 3 ? std::atof(argv[3]) : 0.1;
    const Robot& robot = *problem.robot;
    const Scene& scene = *problem.scene;
    std::vector<Eigen::AlignedBox3d> obstacles;
    for (std::size_t i = 0; i < scene.obstacles().size(); ++i) obstacles.push_back(scene.obstacleBox(i));
    // The query boxes: each link's enclosing sphere (about its frame's origin) at both ends of a step.
    std::vector<Eigen::AlignedBox3d> queries;
    Random rng(1);
    Config a, b, to;
    std::vector<Transform> posesA, posesB;
    for (int q = 0; q < count; ++q) {
      robot.sampleUniform(rng, a);
      robot.sampleUniform(rng, b);
      const double length = robot.distance(a, b);
      robot.interpolate(a, b, length > 0.0 ? std::min(1.0, fraction * robot.maxExtent() / length) : 0.0, to);
      robot.linkPoses(a, posesA);
      robot.linkPoses(to, posesB);
      for (std::size_t link = 0; link < robot.links().size(); ++link) {
        const Eigen::Vector3d r = Eigen::Vector3d::Constant(robot.links()[link].radius);
        Eigen::AlignedBox3d box(posesA[link].translation() - r, posesA[link].translation() + r);
        box.extend(posesB[link].translation() - r);
        box.extend(posesB[link].translation() + r);
        queries.push_back(box);
      }
    }
    double smallest = std::numeric_limits<double>::infinity();
    for (const auto& box : obstacles) smallest = std::min(smallest, box.sizes().maxCoeff());
    std::size_t found = 0;
    std::vector<int> out;
    std::uint64_t visited = 0;

    // Mirtich's hierarchical hash.
    auto buildHash = [&] {
      auto hash = std::make_unique<HierarchicalHash>(smallest);
      for (std::size_t i = 0; i < obstacles.size(); ++i) hash->insert(static_cast<int>(i), obstacles[i]);
      return hash;
    };
    const double hashBuild = seconds([&] { buildHash(); });
    const auto hash = buildHash();
    const double hashQueries = seconds([&] {
      found = 0;
      for (const auto& box : queries) {
        hash->query(box, out, visited);
        found += out.size();
      }
    });
    const std::size_t hashFound = found;

    // FCL's managers over boxes of the same extents.
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
    std::vector<fcl::CollisionObjectd*> pointers;
    for (const auto& box : obstacles) {
      objects.push_back(boxObject(box));
      pointers.push_back(objects.back().get());
    }
    auto managerRow = [&](auto make) {
      const double build = seconds([&] {
        auto manager = make();
        manager->registerObjects(pointers);
        manager->setup();
      });
      auto manager = make();
      manager->registerObjects(pointers);
      manager->setup();
      const double query = seconds([&] {
        found = 0;
        for (const auto& box : queries) {
          const auto object = boxObject(box);
          manager->collide(object.get(), &found, countCandidate);
        }
      });
      return std::array<double, 3>{build, query, static_cast<double>(found)};
    };
    const auto tree = managerRow([] { return std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>(); });
    const auto sap = managerRow([] { return std::make_unique<fcl::SaPCollisionManagerd>(); });

    const double n = static_cast<double>(queries.size());
    fmt::print("problem {}: {} obstacles, {} queries (link boxes over steps of {:g} of the C-space extent)\n",
               problem.name, obstacles.size(), queries.size(), fraction);
    fmt::print("| broad phase | build (ms) | query (us) | candidates per query | rebuilt per query / built once |\n");
    fmt::print("|---|---|---|---|---|\n");
    auto row = [&](const char* name, double build, double queryTotal, double candidates) {
      const double query = queryTotal / n;
      fmt::print("| {} | {:.3f} | {:.3f} | {:.2f} | {:.0f} |\n", name, 1e3 * build, 1e6 * query, candidates / n,
                 (build + query) / query);
    };
    row("hash (Mirtich)", hashBuild, hashQueries, static_cast<double>(hashFound));
    row("aabb_tree (FCL)", tree[0], tree[1], tree[2]);
    row("sort_and_sweep (FCL)", sap[0], sap[1], sap[2]);
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  }
}
