#include "checkers/adaptive_checker.h"
#include "checkers/bisection_samples.h"
#include "checkers/cell_broad_phase.h"
#include "registry/checker_registry.h"
#include "checkers/discrete_checker.h"
#include "checkers/motion_models.h"
#include "checkers/node_bound_cache.h"
#include "checkers/path_probes.h"
#include "checkers/spheres_checker.h"
#include "checkers/swept_checker.h"
#include "io/urdf_robot.h"
#include "geometry/swept_hull.h"
#include "geometry/collision_queries.h"
#include "shapes/convex_hull.h"
#include "generators/generators.h"
#include "eval/edge_check.h"
#include "eval/verify.h"
#include "setup/build_problem.h"
#include "test_support.h"
#include "robots/rigid_body.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <regex>
#include <set>
#include <thread>

using namespace prmkit;

namespace {

struct BoxWorld {
  std::shared_ptr<Scene> scene = std::make_shared<Scene>();
  std::shared_ptr<RigidBody3D> robot;
  explicit BoxWorld(Mesh body) {
    scene->addObstacle("block", boxMesh({1, 1, 1}), Transform::Identity());  // occupies [-0.5, 0.5]^3
    robot = std::make_shared<RigidBody3D>(std::move(body), Eigen::Vector3d(-5, -5, -5), Eigen::Vector3d(5, 5, 5));
  }
};

Config pose(double x, double y, double z) {
  Config q(7);
  q << x, y, z, 0, 0, 0, 1;
  return q;
}

}  // namespace

TEST_CASE("discrete checker: a cube crossing a block collides at the known parameter", "[checkers]") {
  BoxWorld world(boxMesh({0.2, 0.2, 0.2}));
  DiscreteSettings settings;
  settings.space = DiscreteSettings::Space::Workspace;
  settings.eps = 0.01;
  settings.order = DiscreteSettings::Order::Sequential;
  DiscreteChecker checker(world.robot, world.scene, settings);
  // Centre from x = -3 to 3: the cube touches the block while |x| <= 0.6, i.e. t in [0.4, 0.6].
  const EdgeResult hit = checker.checkEdge(pose(-3, 0, 0), pose(3, 0, 0));
  REQUIRE(hit.verdict == Verdict::Colliding);
  REQUIRE(hit.witness_t >= 0.4);
  REQUIRE(hit.witness_t <= 0.4 + 0.01 / 6 + 1e-12);
  // Sequential order stops at the first colliding sample: exactly that many static queries.
  const std::size_t n = checker.segmentCount(pose(-3, 0, 0), pose(3, 0, 0));
  REQUIRE(n == 600);
  REQUIRE(checker.stats().static_queries == static_cast<std::uint64_t>(std::llround(hit.witness_t * n)));
  REQUIRE(checker.stats().edges_checked == 1);
  REQUIRE(checker.stats().bv_tests > 0);

  // Passing 0.05 m beside the block is free, after exactly n - 1 interior samples.
  checker.resetStats();
  REQUIRE(checker.checkEdge(pose(-3, 0.65, 0), pose(3, 0.65, 0)).verdict == Verdict::Free);
  REQUIRE(checker.stats().static_queries == n - 1);
}

TEST_CASE("discrete checker: bisection order finds the same collision and a 1% C-space step can miss a thin wall",
          "[checkers]") {
  auto scene = std::make_shared<Scene>();
  scene->addObstacle("wall", boxMesh({0.02, 4, 4}), Transform::Identity());
  auto robot =
      std::make_shared<RigidBody3D>(boxMesh({0.05, 0.05, 0.05}), Eigen::Vector3d(-5, -2, -2), Eigen::Vector3d(5, 2, 2));
  DiscreteSettings coarse;  // 1% of the extent (about 0.13 m here) steps over 0.07 m of wall+cube
  DiscreteChecker coarseChecker(robot, scene, coarse);
  DiscreteSettings fine;
  fine.space = DiscreteSettings::Space::Workspace;
  fine.eps = 0.01;
  DiscreteChecker fineChecker(robot, scene, fine);
  int missed = 0;
  for (int i = 0; i < 50; ++i) {
    const double offset = 0.003 * i;
    const Config a = pose(-2 + offset, 0, 0), b = pose(2.1 + offset, 0, 0);
    REQUIRE(fineChecker.checkEdge(a, b).verdict == Verdict::Colliding);  // eps < wall + cube: never missed
    if (coarseChecker.checkEdge(a, b).verdict == Verdict::Free) ++missed;
  }
  REQUIRE(missed > 0);
}

TEST_CASE("discrete checker: sphere near a box, static checks and bounds", "[checkers]") {
  BoxWorld world(sphereMesh(0.5));
  CheckerSettings settings;
  settings.type = "discrete";
  auto checker = makeChecker(settings, world.robot, world.scene);
  // The tessellated sphere encloses the true one and is less than 3% larger.
  REQUIRE(checker->isValid(pose(0.5 + 0.5 * 1.03, 0, 0)));
  REQUIRE_FALSE(checker->isValid(pose(0.5 + 0.5 - 0.01, 0, 0)));
  REQUIRE_FALSE(checker->isValid(pose(6, 0, 0)));  // out of bounds
  REQUIRE(checker->stats().static_queries == 2);   // the out-of-bounds one needs no collision query
  REQUIRE_THROWS_AS(checker->isValid(Config::Zero(3)), std::invalid_argument);
  auto copy = checker->clone();
  REQUIRE(copy->stats().static_queries == 0);
  REQUIRE(copy->name() == "discrete");
}

TEST_CASE("the path probe schedule: cell counts, rounds across segments and the memo of free cells", "[checkers]") {
  const auto robot = test::loadForPlanning("maze2d").robot;
  Config a(3), b(3);
  a << 1, 1, 0;
  b << 2, 1, 0;
  const double step = robot->distance(a, b) / robot->maxExtent() / 4.5;  // 4.5 steps from a to b: 5 cells
  CHECK(probeCellCount(*robot, a, b, 15, step) == 5);
  CHECK(probeCellCount(*robot, a, b, 3, step) == 3);   // at most `most`
  CHECK(probeCellCount(*robot, a, b, 0, step) == 1);   // at least one
  CHECK(probeCellCount(*robot, a, a, 15, step) == 1);  // a segment of length 0
  CHECK(probeCellCount(*robot, a, b, 15, 0.0) == 15);  // no step: `most`
  CHECK(cellCentre(2, 5) == 0.5);

  // Round r probes cell order(n)[r] of every segment with more than r cells, in segment order.
  ProbeSchedule schedule;
  CHECK(schedule.order(4) == std::vector<int>{2, 1, 3, 0});
  const std::vector<std::size_t> cells{4, 1, 2};
  std::vector<std::pair<std::size_t, std::size_t>> visited;
  const auto none = schedule.inRounds(
      cells.size(), [&](std::size_t s) { return cells[s]; },
      [&](std::size_t s, std::size_t cell) -> std::optional<int> {
        visited.emplace_back(s, cell);
        return std::nullopt;
      });
  CHECK_FALSE(none);
  CHECK(visited ==
        std::vector<std::pair<std::size_t, std::size_t>>{{0, 2}, {1, 0}, {2, 1}, {0, 1}, {2, 0}, {0, 3}, {0, 0}});
  std::size_t probes = 0;
  const auto first = schedule.inRounds(
      cells.size(), [&](std::size_t s) { return cells[s]; },
      [&](std::size_t s, std::size_t cell) -> std::optional<std::size_t> {
        ++probes;
        return s == 2 && cell == 0 ? std::optional<std::size_t>(s) : std::nullopt;
      });
  CHECK(first == std::optional<std::size_t>(2));
  CHECK(probes == 5);  // ends at the first answer

  // Free cells kept for a -> b are known for b -> a mirrored, only with the same count.
  StaticFreeCells memo;
  memo.keep(StaticFreeCells::key(a, b), 4, 0b0011, 10);
  CHECK(memo.known(StaticFreeCells::key(a, b), 4) == 0b0011);
  CHECK(memo.known(StaticFreeCells::key(b, a), 4) == 0b1100);
  CHECK(memo.known(StaticFreeCells::key(a, b), 5) == 0);
  CHECK(memo.known(StaticFreeCells::key(a, a), 4) == 0);
  // At its capacity it starts again.
  memo.keep(StaticFreeCells::key(a, a), 4, 0b1, 1);
  CHECK(memo.known(StaticFreeCells::key(a, b), 4) == 0);
  CHECK(memo.known(StaticFreeCells::key(a, a), 4) == 0b1);
}

TEST_CASE("the path probes: static probes in rounds with their memo, and a pair's coverage between measured samples",
          "[checkers]") {
  const Problem problem = test::loadForPlanning("maze2d");
  const Robot& robot = *problem.robot;
  CollisionQueries collision(problem.robot, problem.scene, Geometry::Mesh);
  // A short free segment from the start, then one straight to the goal through the maze's walls.
  Config near = problem.start;
  near[0] += 0.01;
  const std::vector<Config> path{problem.start, near, problem.goal};
  const std::vector<std::size_t> cells{3, 15};
  ProbeSchedule schedule;
  StaticFreeCells memo;
  Config scratch;
  CheckStats first(AdaptiveChecker::kCounters);
  const auto hit = staticProbes(schedule, robot, path, cells, collision, first, scratch, &memo, 100);
  REQUIRE(hit);
  CHECK(hit->segment == 1);
  CHECK(first.strategy.value("static_probes_reused") == 0);
  // Every centre probed up to the hit is the oracle's answer; the colliding segment keeps nothing.
  robot.interpolate(path[1], path[2], hit->t, scratch);
  CheckStats ignored;
  CHECK(collision.inCollision(scratch, ignored));
  const std::uint64_t kept = memo.known(StaticFreeCells::key(path[0], path[1]), 3);
  CHECK(kept != 0);
  CHECK(memo.known(StaticFreeCells::key(path[1], path[2]), 15) == 0);
  CheckStats second(AdaptiveChecker::kCounters);
  const auto again = staticProbes(schedule, robot, path, cells, collision, second, scratch, &memo, 100);
  REQUIRE(again);
  CHECK(again->segment == hit->segment);
  CHECK(again->t == hit->t);
  CHECK(second.strategy.value("static_probes_reused") == static_cast<std::uint64_t>(std::popcount(kept)));
  CHECK(second.static_queries + second.strategy.value("static_probes_reused") == first.static_queries);
  // Without a memo nothing is reused.
  CheckStats plain;
  CHECK(staticProbes(schedule, robot, path, cells, collision, plain, scratch)->t == hit->t);
  CHECK(plain.static_queries == first.static_queries);

  // A pair measured at centres 1 and 3 of 4 (t = 0.375, 0.875), with the nodes' bounds 0.1 and 0.
  const ProbedPair pair{0, 0b1010, 0, 0.1, 0.0};
  const double lowers[4] = {0.0, 0.2, 0.0, 0.05};
  // Unit bound 1: stretches [0, .375] (0.3 > .375? no), [.375, .875] (0.25 > .5? no), [.875, 1] (0.05 > .125? no).
  CHECK(uncoveredStretches(pair, 4, lowers, 1.0) == 3);
  // Unit bound 0.5: 0.3 > 0.1875, 0.25 > 0.25 no (strict), 0.05 > 0.0625 no.
  CHECK(uncoveredStretches(pair, 4, lowers, 0.5) == 2);
  CHECK(uncoveredStretches(pair, 4, lowers, 0.1) == 0);
  const std::vector<std::uint32_t> cellSamples{10, 11, 12, 13};
  const MeasuredNeighbours at2 = measuredNeighbours(pair, 2, cellSamples, lowers, 100, 101);
  CHECK(at2.left == 11);
  CHECK(at2.right == 13);
  CHECK(at2.t_left == 0.375);
  CHECK(at2.t_right == 0.875);
  CHECK(at2.lower_left == 0.2);
  CHECK(at2.lower_right == 0.05);
  const MeasuredNeighbours at0 = measuredNeighbours(pair, 0, cellSamples, lowers, 100, 101);
  CHECK(at0.left == 100);  // the node before the first measured centre
  CHECK(at0.t_left == 0.0);
  CHECK(at0.lower_left == 0.1);
  CHECK(at0.right == 11);
  const MeasuredNeighbours at3 = measuredNeighbours(pair, 3, cellSamples, lowers, 100, 101);
  CHECK(at3.left == 11);
  CHECK(at3.right == 101);  // the last cell has only its node after it
  CHECK(at3.t_right == 1.0);
}

TEST_CASE("the bisection samples: named nodes and split points, reused storage, bounds to and from the node cache",
          "[checkers]") {
  BisectionSamples samples(5, 100);
  Config a(2), b(2), m(2);
  a << 0, 0;
  b << 1, 0;
  m << 0.5, 0;
  samples.startCheck();
  const std::uint32_t na = samples.node(a), nb = samples.node(b);
  CHECK(na != nb);
  CHECK(samples.node(a) == na);  // found by its bytes
  const std::uint32_t split = samples.split(0, 0.5, m);
  CHECK(samples.split(0, 0.5, m) == split);
  CHECK(samples.split(1, 0.5, m) != split);  // another segment's point
  CHECK(samples.fresh(m) != split);          // unnamed
  CHECK(samples[na].bounds.size() == 5);
  DistanceBound bound;
  bound.lower = 0.3;
  bound.upper = 0.4;
  samples[na].bounds[2] = bound;
  samples[na].touched.push_back(2);
  samples.keepNodeBounds({na, nb});
  // The next check: a's bound comes from the cache, marked so; b measured nothing.
  samples.startCheck();
  const std::uint32_t again = samples.node(a);
  CHECK(again == 0);  // storage reused from the first sample
  CHECK(samples[again].bounds[2].lower == 0.3);
  CHECK(samples[again].from_cache[2]);
  CHECK(samples[again].touched == std::vector<std::uint32_t>{2});
  const std::uint32_t other = samples.node(b);
  CHECK_FALSE(samples[other].bounds[2].known());
  // A reused sample forgets what its previous configuration had.
  samples.startCheck();
  const std::uint32_t reused = samples.fresh(m);
  CHECK(reused == 0);
  CHECK_FALSE(samples[reused].bounds[2].known());
  CHECK_FALSE(samples[reused].from_cache[2]);
  CHECK(samples[reused].touched.empty());
}

TEST_CASE("the cell broad phase finds exactly the obstacles whose boxes meet a link's cell boxes", "[checkers]") {
  const Problem problem = loadProblem(test::problemFile("boxes3000"));
  const Scene& scene = *problem.scene;
  CHECK(CellBroadPhase::pays(scene, 64));
  CHECK_FALSE(CellBroadPhase::pays(scene, 3001));
  Random rng(3);
  CellBroadPhase broadPhase;
  CheckStats stats;
  const std::size_t links = 2, cells = 6;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::vector<Eigen::Vector3d>> centres(cells, std::vector<Eigen::Vector3d>(links));
    for (auto& cell : centres)
      for (auto& c : cell)
        c = Eigen::Vector3d(rng.uniformReal(-20, 20), rng.uniformReal(-20, 20), rng.uniformReal(-20, 20));
    const double grow[2] = {0.5, 1.5};
    const auto& near = broadPhase.find(
        scene, links, cells,
        [&](std::size_t cell, std::size_t link) -> const Eigen::Vector3d& { return centres[cell][link]; },
        [&](std::size_t link) { return grow[link]; }, stats);
    std::set<std::pair<std::uint32_t, std::uint64_t>> found, expected;
    for (const auto& pair : near) found.emplace(pair.pair, pair.cells);
    for (std::size_t link = 0; link < links; ++link)
      for (std::size_t o = 0; o < scene.obstacles().size(); ++o) {
        std::uint64_t overlapped = 0;
        for (std::size_t cell = 0; cell < cells; ++cell) {
          const Eigen::Vector3d r = Eigen::Vector3d::Constant(grow[link]);
          if (scene.obstacleBox(o).intersects(Eigen::AlignedBox3d(centres[cell][link] - r, centres[cell][link] + r)))
            overlapped |= std::uint64_t{1} << cell;
        }
        if (overlapped) expected.emplace(static_cast<std::uint32_t>(link * scene.obstacles().size() + o), overlapped);
      }
    REQUIRE(found == expected);
  }
  CHECK(stats.broad_phase_pairs > 0);
}

TEST_CASE("the node-bound cache: kept per node, bounded, and in rounds merged by the better bound in any order",
          "[checkers]") {
  const auto bound = [](double lower) {
    DistanceBound b;
    b.lower = lower;
    b.upper = lower + 1.0;
    return b;
  };
  NodeBoundCache cache(2);
  CHECK(cache.find("a") == nullptr);
  cache.keep({{"a", {{0, bound(1.0)}, {3, bound(2.0)}}}, {"", {}}});
  REQUIRE(cache.find("a"));
  CHECK(cache.find("a")->size() == 2);
  CHECK(cache.find("a")->at(1).second.lower == 2.0);
  cache.keep({{"a", {{5, bound(4.0)}}}});  // a node's entry replaces what was kept
  REQUIRE(cache.find("a")->size() == 1);
  CHECK(cache.find("a")->front().first == 5);
  cache.keep({{"b", {{0, bound(1.0)}}}, {"c", {{0, bound(1.0)}}}});  // past two nodes it starts again
  CHECK(cache.find("a") == nullptr);
  CHECK(cache.find("b"));

  // In rounds a clone shares the cache; what checks learn is read only after endRound.
  cache.startRounds();
  NodeBoundCache clone = cache.sharingRounds();
  CHECK(clone.find("b"));
  for (const auto& [first, second] : {std::pair{1.0, 3.0}, std::pair{3.0, 1.0}}) {
    const std::size_t settled = clone.find("b")->size();
    cache.keep({{"b", {{7, bound(first)}}}});
    clone.keep({{"b", {{7, bound(second)}}}});
    CHECK(clone.find("b")->size() == settled);
    cache.endRound();
    const NodeBoundCache::Bounds* merged = clone.find("b");
    REQUIRE(merged);
    REQUIRE(merged->size() == 2);
    CHECK(merged->back().first == 7);
    CHECK(merged->back().second.lower == 3.0);  // the better bound, whichever check came first
  }
  cache.stopRounds();
  REQUIRE(cache.find("b"));
  CHECK(cache.find("b")->size() == 2);
}

TEST_CASE("the motion models bound every link point's travel and advance over random pieces of arm edges",
          "[checkers]") {
  // The arm of arm6_shelf has speed and acceleration bounds: the piece bound
  // (lever or tent, whichever is smaller), the half reach and the directional
  // certificate are each checked against the link vertices' motion sampled
  // densely over the piece.
  const Problem problem = loadProblem(test::problemFile("arm6_shelf"));
  const Robot& robot = *problem.robot;
  REQUIRE(robot.hasSpeedBounds());
  Random rng(7);
  constexpr int kSteps = 400;
  std::size_t certified = 0, tighterThanLever = 0;
  Config a, b, qa, qb, q;
  std::vector<Transform> poses;
  for (int edge = 0; edge < test::scaled(40); ++edge) {
    robot.sampleUniform(rng, a);
    robot.sampleUniform(rng, b);
    SegmentMotion motion;
    motion.compute(robot, a, b, true);
    REQUIRE(motion.hasAccelerations());
    std::vector<double> lever, self;
    robot.motionBounds(a, b, lever, self);
    REQUIRE(motion.link == lever);
    const MotionSegment segment{robot, 0, a, b, motion};
    const double t0 = rng.uniformReal(0.0, 0.9), width = rng.uniformReal(0.01, 1.0 - t0);
    robot.interpolate(a, b, t0, qa);
    robot.interpolate(a, b, t0 + width, qb);
    std::vector<Transform> posesA, posesB;
    SampleTwists twistsA, twistsB;
    const PieceEnd start{qa, posesA, twistsA}, end{qb, posesB, twistsB};
    // Each link vertex's path length and its advance along a random direction, sampled densely.
    const Eigen::Vector3d normal = Eigen::Vector3d(rng.gaussian01(), rng.gaussian01(), rng.gaussian01()).normalized();
    std::vector<std::vector<Eigen::Vector3d>> previous(robot.links().size());
    std::vector<double> travelled(robot.links().size(), 0.0), firstHalf(robot.links().size(), 0.0);
    std::vector<double> supportStart(robot.links().size()), advance(robot.links().size(), 0.0);
    for (int k = 0; k <= kSteps; ++k) {
      robot.interpolate(a, b, t0 + width * k / kSteps, q);
      robot.linkPoses(q, poses);
      for (std::size_t link = 0; link < robot.links().size(); ++link) {
        double support = -std::numeric_limits<double>::infinity(), step = 0.0;
        std::vector<Eigen::Vector3d> points;
        for (const Eigen::Vector3d& v : robot.links()[link].mesh.vertices) points.push_back(poses[link] * v);
        for (std::size_t i = 0; i < points.size(); ++i) {
          support = std::max(support, points[i].dot(normal));
          if (k > 0) step = std::max(step, (points[i] - previous[link][i]).norm());
        }
        // The sum of per-step maxima: at least any one vertex's chord sum, so a
        // bound above it is stricter than the bound on each vertex's path.
        travelled[link] += step;
        if (2 * k <= kSteps) firstHalf[link] = travelled[link];
        if (k == 0) supportStart[link] = support;
        advance[link] = std::max(advance[link], support - supportStart[link]);
        previous[link] = std::move(points);
      }
    }
    for (std::size_t link = 0; link < robot.links().size(); ++link) {
      if (robot.links()[link].mesh.vertices.empty()) continue;
      const double bound = linkPieceBound(segment, link, start, end, width);
      REQUIRE(bound <= width * motion.link[link] * (1 + 1e-12));
      REQUIRE(travelled[link] <= bound * (1 + 1e-9) + 1e-12);
      tighterThanLever += bound < 0.999 * width * motion.link[link];
      REQUIRE(firstHalf[link] <= linkHalfReach(segment, link, start, width) * (1 + 1e-9) + 1e-12);
      // A plane of normal `normal` at gap g ahead of the link at the piece's
      // start: certified free only if the link advances less than g.
      for (const double gap : {0.5 * advance[link], 2.0 * advance[link] + 1e-6, 1e-3, 0.05}) {
        DistanceBound from;
        from.direction = normal;
        from.direction_gap = gap;
        if (!directionalCertificate(segment, link, start, end, width, from, DistanceBound{})) continue;
        ++certified;
        REQUIRE(advance[link] < gap);
      }
    }
  }
  // Both refinements take effect: neither check above is empty.
  REQUIRE(certified > 0);
  REQUIRE(tighterThanLever > 0);
}

TEST_CASE("making a checker leaves the shared link BVHs' bounds as they are", "[checkers]") {
  // FCL's collision object constructor recomputes its geometry's bounds in
  // place; checkers copy each link's own object instead (Link::object), so
  // another thread reading the bounds while checkers are made sees them whole.
  const Problem problem = loadProblem(test::problemFile("thin_wall"));
  const BvhModel& bvh = *problem.robot->links()[0].bvh;
  const double radius = bvh.aabb_radius;
  REQUIRE(radius > 0);
  std::atomic<bool> making{true};
  std::size_t changed = 0;
  // Read through volatile, so that every pass reads memory (a plain read may be hoisted out of the loop).
  const volatile double* shared = &bvh.aabb_radius;
  std::thread reader([&] {
    while (making.load())
      if (*shared != radius) ++changed;
  });
  for (int i = 0; i < test::scaled(2000); ++i) CollisionQueries queries(problem.robot, problem.scene, Geometry::Mesh);
  making = false;
  reader.join();
  REQUIRE(changed == 0);
}

TEST_CASE("checkPath stops at the first colliding segment", "[checkers]") {
  BoxWorld world(boxMesh({0.2, 0.2, 0.2}));
  DiscreteChecker checker(world.robot, world.scene, DiscreteSettings{});
  const std::vector<Config> path{pose(-3, 2, 0), pose(-3, 0, 0), pose(3, 0, 0), pose(3, 2, 0)};
  const PathResult result = checker.checkPath(path);
  REQUIRE(result.verdict == Verdict::Colliding);
  REQUIRE(result.first_colliding == std::optional<std::size_t>(1));
  REQUIRE(result.segments[0]->verdict == Verdict::Free);
  REQUIRE_FALSE(result.segments[2].has_value());
}

TEST_CASE("a BVH is built only from a mesh FCL can take: no triangles or a vertex out of range is refused",
          "[checkers]") {
  REQUIRE_THROWS_AS(buildBvh(Mesh{}), std::invalid_argument);
  Mesh outOfRange = boxMesh({1, 1, 1});
  outOfRange.triangles.back()[2] = 8;  // the box has vertices 0 to 7
  REQUIRE_THROWS_WITH(buildBvh(outOfRange), Catch::Contains("names vertex 8; the mesh has 8 vertices"));
  outOfRange.triangles.back()[2] = -1;
  REQUIRE_THROWS_AS(buildBvh(outOfRange), std::invalid_argument);
  REQUIRE(buildBvh(boxMesh({1, 1, 1}))->num_tris == 12);
}

TEST_CASE("a convex hull's concavity is the deepest measured point below its facets, as a scan of every facet finds",
          "[checkers][hull]") {
  // The hull keeps no planes, so they are found here from its vertices
  // alone: every plane through three of them with all the others on one side.
  auto bruteForceConcavity = [](const Mesh& mesh, const ConvexHull& hull) {
    const auto& v = hull.vertices;
    const double tolerance = 1e-9 * (1.0 + hull.radius);
    std::vector<Eigen::Vector4d> planes;
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t j = i + 1; j < v.size(); ++j)
        for (std::size_t k = j + 1; k < v.size(); ++k) {
          Eigen::Vector3d n = (v[j] - v[i]).cross(v[k] - v[i]);
          if (n.norm() < 1e-12) continue;
          n.normalize();
          double above = 0.0, below = 0.0;
          for (const auto& w : v) {
            const double d = n.dot(w - v[i]);
            above = std::max(above, d);
            below = std::min(below, d);
          }
          if (above <= tolerance) planes.emplace_back(n.x(), n.y(), n.z(), -n.dot(v[i]));
          if (below >= -tolerance) planes.emplace_back(-n.x(), -n.y(), -n.z(), n.dot(v[i]));
        }
    double concavity = 0.0;
    auto measure = [&](const Eigen::Vector3d& p) {
      double depth = std::numeric_limits<double>::infinity();
      for (const auto& plane : planes) depth = std::min(depth, -(plane.head<3>().dot(p) + plane[3]));
      concavity = std::max(concavity, depth);
    };
    for (const auto& p : mesh.vertices) measure(p);
    for (const auto& t : mesh.triangles) {
      const auto& a = mesh.vertices[static_cast<std::size_t>(t[0])];
      const auto& b = mesh.vertices[static_cast<std::size_t>(t[1])];
      const auto& c = mesh.vertices[static_cast<std::size_t>(t[2])];
      measure((a + b + c) / 3.0);
      measure(0.5 * (a + b));
      measure(0.5 * (b + c));
      measure(0.5 * (c + a));
    }
    return concavity;
  };
  SpringParams spring;
  spring.segments = 24;
  spring.sides = 5;
  GearParams gear;
  gear.teeth = 6;
  RandomBoxesParams boxes;
  boxes.count = 6;
  boxes.polygons = true;
  const std::pair<const char*, Mesh> meshes[] = {{"spring", springMesh(spring)},
                                                 {"gear", gearMesh(gear)},
                                                 {"random polygons", randomObstaclesMesh(boxes)},
                                                 {"box", boxMesh({1, 2, 3})}};
  for (const auto& [name, mesh] : meshes) {
    INFO(name);
    const auto hull = convexHullOf(mesh);
    REQUIRE(hull);
    const double expected = bruteForceConcavity(mesh, *hull);
    REQUIRE(hull->concavity == Approx(expected).margin(1e-9 * (1.0 + hull->radius)));
    if (std::string(name) != "box") REQUIRE(hull->concavity > 0.0);
  }
}

TEST_CASE("swept hulls: a box translating past a box, against the analytic swept distance", "[checkers][swept]") {
  // A unit cube sweeps the Minkowski sum of its path and itself: its distance
  // to the unit cube at the origin is the distance from its centre's segment
  // to the box [-1, 1]^3.
  const Mesh cube = boxMesh({1, 1, 1});
  const auto hull = convexHullOf(cube);
  REQUIRE(hull);
  const Transform fixed = Transform::Identity();
  auto at = [](double x, double y, double z) { return Transform(Eigen::Translation3d(x, y, z)); };
  CheckStats stats;
  struct Case {
    Eigen::Vector3d from, to;
    double distance;
  };
  const Case cases[] = {
      // Level pass 1 m above the top face: the gap is the vertical one, whatever the length.
      {{-5, 2, 0}, {5, 2, 0}, 1.0},
      // A slanted pass: the path y = 2.5 + x / 4 comes closest to the box's edge x = -1, y = 1.
      {{-4, 1.5, 0}, {4, 3.5, 0}, 5.0 / std::sqrt(17.0)},
      // Ends far from the box, path through a corner region: |(1.5, 1.5, 1.5) - (1, 1, 1)|.
      {{-2.5, 5.5, 1.5}, {5.5, -2.5, 1.5}, std::sqrt(3.0) * 0.5},
      // The path crosses the box: no gap, though both ends are 3 m away.
      {{-4, 0.5, 0}, {4, 0.5, 0}, 0.0},
  };
  for (const Case& c : cases) {
    const Transform from = at(c.from.x(), c.from.y(), c.from.z()), to = at(c.to.x(), c.to.y(), c.to.z());
    const double gap = sweptHullGap(SweptHull{*hull, from, to}, SweptHull{*hull, fixed, fixed},
                                    std::numeric_limits<double>::infinity(), stats);
    INFO("from " << c.from.transpose() << " to " << c.to.transpose());
    REQUIRE(gap <= c.distance);
    REQUIRE(gap >= c.distance - 1e-9);
    // The same against the box as a primitive.
    const double primitiveGap = sweptHullGap(SweptHull{*hull, from, to}, Primitive::box({1, 1, 1}), fixed,
                                             std::numeric_limits<double>::infinity(), stats);
    REQUIRE(primitiveGap <= c.distance);
    REQUIRE(primitiveGap >= c.distance - 1e-9);
  }
  // The swept hull is the ends' hull: its gap is never above either end's static gap.
  const Transform from = at(-5, 2, 0);
  REQUIRE(sweptHullGap(SweptHull{*hull, from, from}, SweptHull{*hull, fixed, fixed},
                       std::numeric_limits<double>::infinity(), stats) >= std::sqrt(16.0 + 1.0) - 1e-9);
  REQUIRE(stats.gjk_queries == 9);
}

TEST_CASE("swept checker: translations are settled by one swept test each, contacts found, turns split",
          "[checkers][swept]") {
  BoxWorld world(boxMesh({0.2, 0.2, 0.2}));
  SweptChecker checker(world.robot, world.scene, SweptSettings{});
  // The cube passes 1 mm above the block (top face 0.5, the cube's bottom at
  // 0.501): one swept test of the whole pair settles it, no split.
  REQUIRE(checker.checkEdge(pose(-3, 0.601, 0), pose(3, 0.601, 0)).verdict == Verdict::Free);
  REQUIRE(checker.stats().strategy.value("swept_certificates") == 1);
  REQUIRE(checker.stats().strategy.value("bisection_steps") == 0);
  REQUIRE(checker.stats().strategy.value("queue_pushes") == 1);
  // 1 mm lower it grazes the block along 1.2 m of its path: Colliding, with
  // a witness where the cube overlaps the block (|x| <= 0.6).
  checker.resetStats();
  const EdgeResult graze = checker.checkEdge(pose(-3, 0.599, 0), pose(3, 0.599, 0));
  REQUIRE(graze.verdict == Verdict::Colliding);
  REQUIRE(std::abs(-3 + 6 * graze.witness_t) <= 0.6);
  REQUIRE(checker.stats().strategy.value("unresolved_as_colliding") == 0);
  // A thin overlap: the cube's corner dips 1e-6 m into the block's top only
  // near x = 0, on a path whose ends are far apart. Exact: Colliding.
  checker.resetStats();
  REQUIRE(checker.checkEdge(pose(-3, 0.6 - 1e-6, 0.6 - 1e-6), pose(3, 0.6 - 1e-6, 0.6 - 1e-6)).verdict ==
          Verdict::Colliding);
  // A quarter turn about z in place, the centre at y = 0.6424: the ends'
  // hull clears the block by 0.042 m, but the cube's edge dips to
  // 0.6424 - 0.1 sqrt(2) = 0.50098 at 45 degrees, and the turn's growth
  // (r angle^2 w^2 / 8, 0.053 m over the whole edge) forces splits until it
  // is below the hulls' gaps. Free, without an unresolved piece.
  checker.resetStats();
  Config turned = pose(0, 0.6424, 0);
  turned.tail<4>() << 0, 0, std::sin(std::numbers::pi / 4), std::cos(std::numbers::pi / 4);
  REQUIRE(checker.checkEdge(pose(0, 0.6424, 0), turned).verdict == Verdict::Free);
  REQUIRE(checker.stats().strategy.value("bisection_steps") > 0);
  REQUIRE(checker.stats().strategy.value("unresolved_as_colliding") == 0);
}

TEST_CASE("broad phases: hash, AABB tree and sort-and-sweep return exactly the obstacles whose boxes overlap",
          "[checkers][broadphase]") {
  RandomBoxesParams params;
  params.count = 400;
  params.region_min = {-10, -10, -10};
  params.region_max = {10, 10, 10};
  params.min_size = 0.01;  // sizes over two orders of magnitude: several levels of the hash
  params.max_size = 3.0;
  params.seed = 5;
  Scene scene;
  const auto pieces = randomObstacleMeshes(params);
  for (std::size_t i = 0; i < pieces.size(); ++i)
    scene.addObstacle("box" + std::to_string(i), pieces[i], Transform::Identity());
  REQUIRE(scene.obstacles().size() == 400);
  Random rng(3);
  std::vector<Eigen::AlignedBox3d> queries;
  for (int q = 0; q < 300; ++q) {
    const Eigen::Vector3d centre(rng.uniformReal(-12, 12), rng.uniformReal(-12, 12), rng.uniformReal(-12, 12));
    const Eigen::Vector3d half = Eigen::Vector3d::Constant(std::pow(10.0, rng.uniformReal(-3, 1)));
    queries.emplace_back(centre - half, centre + half);
  }
  std::size_t nonEmpty = 0;
  for (const BroadPhase kind : {BroadPhase::AabbTree, BroadPhase::SortAndSweep, BroadPhase::Hash, BroadPhase::None}) {
    scene.setBroadPhase(kind);
    REQUIRE(scene.broadPhase() == kind);
    for (const auto& query : queries) {
      std::vector<int> expected, found;
      for (std::size_t i = 0; i < scene.obstacles().size(); ++i)
        if (kind == BroadPhase::None || scene.obstacleBox(i).intersects(query)) expected.push_back(static_cast<int>(i));
      std::uint64_t visited = 0;
      scene.obstaclesOverlapping(query, found, visited);
      INFO(broadPhaseName(kind));
      REQUIRE(found == expected);
      REQUIRE(visited >= (kind == BroadPhase::None ? 400u : found.size()));
      nonEmpty += !found.empty() && found.size() < 400;
    }
  }
  REQUIRE(nonEmpty > 300);  // most queries find some boxes and not all

  // Chains of boxes along random lines (as a link's boxes over an edge's
  // cells): every broad phase returns the obstacles overlapping some box of
  // the chain, ascending, each with exactly the boxes it overlaps.
  std::size_t partial = 0;
  for (int q = 0; q < 200; ++q) {
    const Eigen::Vector3d from(rng.uniformReal(-12, 12), rng.uniformReal(-12, 12), rng.uniformReal(-12, 12));
    const Eigen::Vector3d to(rng.uniformReal(-12, 12), rng.uniformReal(-12, 12), rng.uniformReal(-12, 12));
    const Eigen::Vector3d half = Eigen::Vector3d::Constant(std::pow(10.0, rng.uniformReal(-2, 0.3)));
    const int length = 1 + q % static_cast<int>(Scene::kMaxChainBoxes);
    std::vector<Eigen::AlignedBox3d> chain;
    for (int k = 0; k < length; ++k) {
      const Eigen::Vector3d centre = from + (to - from) * (k + 0.5) / length;
      chain.emplace_back(centre - half, centre + half);
    }
    std::vector<Scene::ChainOverlap> expected;
    for (std::size_t i = 0; i < scene.obstacles().size(); ++i) {
      std::uint64_t bits = 0;
      for (std::size_t k = 0; k < chain.size(); ++k)
        if (scene.obstacleBox(i).intersects(chain[k])) bits |= std::uint64_t{1} << k;
      if (bits != 0) expected.push_back({static_cast<int>(i), bits});
    }
    for (const BroadPhase kind : {BroadPhase::AabbTree, BroadPhase::SortAndSweep, BroadPhase::Hash, BroadPhase::None}) {
      scene.setBroadPhase(kind);
      std::vector<Scene::ChainOverlap> found;
      std::uint64_t visited = 0;
      scene.obstaclesOverlappingChain(chain, found, visited);
      INFO(broadPhaseName(kind) << " chain " << q);
      REQUIRE(found.size() == expected.size());
      for (std::size_t j = 0; j < found.size(); ++j) {
        REQUIRE(found[j].obstacle == expected[j].obstacle);
        REQUIRE(found[j].boxes == expected[j].boxes);
      }
      REQUIRE(visited >= found.size());
    }
    // Some obstacle overlaps part of the chain only: the chain says which.
    partial += std::any_of(expected.begin(), expected.end(),
                           [&](const Scene::ChainOverlap& o) { return length > 1 && std::popcount(o.boxes) < length; });
  }
  REQUIRE(partial > 100);
  std::vector<Scene::ChainOverlap> ignored;
  std::uint64_t visited = 0;
  REQUIRE_THROWS_AS(
      scene.obstaclesOverlappingChain(std::vector<Eigen::AlignedBox3d>(Scene::kMaxChainBoxes + 1), ignored, visited),
      std::invalid_argument);
}

TEST_CASE("swept and adaptive: every broad phase gives the same verdicts and hands the narrow phase only nearby pairs",
          "[checkers][broadphase][swept]") {
  const Problem problem = loadProblem(test::problemFile("boxes3000"));
  Random rng(2);
  std::vector<std::pair<Config, Config>> edges;
  Config a, b;
  CollisionQueries oracle(problem.robot, problem.scene, Geometry::Convex);
  CheckStats ignored;
  while (edges.size() < static_cast<std::size_t>(test::scaled(200))) {
    problem.robot->sampleUniform(rng, a);
    problem.robot->sampleUniform(rng, b);
    // Edges of at most 5 m between valid ends.
    const Eigen::Vector3d direction = b.head<3>() - a.head<3>();
    if (direction.norm() > 5.0) b.head<3>() = a.head<3>() + 5.0 * direction.normalized();
    if (!oracle.inCollision(a, ignored) && !oracle.inCollision(b, ignored)) edges.emplace_back(a, b);
  }
  std::vector<Verdict> reference;
  for (const BroadPhase kind : {BroadPhase::None, BroadPhase::AabbTree, BroadPhase::SortAndSweep, BroadPhase::Hash}) {
    // Read from the problem file, as a user selects it.
    const Problem with =
        loadProblem(test::problemFile("boxes3000"), {{"scene.broadphase=" + broadPhaseName(kind)}, true});
    REQUIRE(with.scene->broadPhase() == kind);
    SweptChecker swept(with.robot, with.scene, SweptSettings{});
    AdaptiveChecker adaptive(with.robot, with.scene, AdaptiveSettings{});
    std::vector<Verdict> verdicts, adaptiveVerdicts;
    for (const auto& [from, to] : edges) {
      verdicts.push_back(swept.checkEdge(from, to).verdict);
      adaptiveVerdicts.push_back(adaptive.checkEdge(from, to).verdict);
    }
    INFO(broadPhaseName(kind));
    REQUIRE(adaptiveVerdicts == verdicts);
    if (reference.empty()) {
      reference = verdicts;
      REQUIRE(swept.stats().broad_phase_pairs == 3000 * edges.size());
      REQUIRE(adaptive.stats().broad_phase_pairs == 0);  // no broad phase: every pair is probed
    } else {
      REQUIRE(verdicts == reference);
      REQUIRE(swept.stats().broad_phase_pairs * 100 < 3000 * edges.size());
      // adaptive's boxes grow by half the lever motion bound, swept's by the second-order growth.
      REQUIRE(adaptive.stats().broad_phase_pairs > 0);
      // adaptive's chain of boxes over its cells holds fewer obstacles than the one box around the edge.
      REQUIRE(adaptive.stats().broad_phase_pairs * 100 < 3000 * edges.size());
    }
  }
  REQUIRE(std::count(reference.begin(), reference.end(), Verdict::Colliding) > 0);
  REQUIRE(std::count(reference.begin(), reference.end(), Verdict::Free) > 0);
}

TEST_CASE("adaptive: the broad phase over a chain of links among many obstacles keeps every verdict",
          "[checkers][broadphase][adaptive][slow]") {
  // A planar five-link chain (link-link pairs after the link-obstacle ones)
  // among 150 boxes: with the AABB tree, adaptive asks the broad phase for
  // each link's cells; without one, it probes every pair. Same verdicts, no
  // miss against the dense ground truth, and far fewer pairs probed.
  const test::TempDir dir;
  const auto file = dir.write("chain_boxes.yaml", R"(name: chain_boxes
robot:
  type: planar_chain
  links:
    - {length: 1.0, width: 0.12}
    - {length: 0.8, width: 0.12}
    - {length: 0.7, width: 0.12}
    - {length: 0.5, width: 0.12}
    - {length: 0.4, width: 0.12}
  base: {xyz: [0, 0, 0]}
scene:
  obstacles:
    - name: box
      generator: {type: random, count: 150, region_min: [-3.5, -3.5, -0.1], region_max: [3.5, 3.5, 0.1],
                  min_size: 0.02, max_size: 0.3, seed: 4, separate: true}
start: [0, 0, 0, 0, 0]
goal: [1, 0, 0, 0, 0]
)");
  // Only the random edges matter (between valid configurations): the start and goal are not checked.
  std::vector<EdgeVerdict> reference;
  std::uint64_t pairsWithTree = 0;
  for (const BroadPhase kind : {BroadPhase::None, BroadPhase::AabbTree}) {
    const Problem problem = loadProblem(file, {{"scene.broadphase=" + broadPhaseName(kind)}, false});
    REQUIRE(problem.scene->obstacles().size() == 150);
    REQUIRE(!problem.robot->selfCollisionPairs().empty());
    const auto edges = randomEdges(problem.robot, problem.scene, static_cast<std::size_t>(test::scaled(600)),
                                   0.1 * problem.robot->maxExtent(), 3);
    AdaptiveChecker checker(problem.robot, problem.scene, AdaptiveSettings{});
    const EdgeCheckReport report =
        checkEdges(problem.robot, problem.scene, checker, edges, defaultVerifyEps(problem), 1);
    INFO(broadPhaseName(kind) << ": " << report.free << " free, " << report.colliding << " colliding");
    REQUIRE(report.misses == 0);
    REQUIRE(report.unknown == 0);
    REQUIRE(report.colliding > 0);
    REQUIRE(report.free > 0);
    if (reference.empty()) {
      reference = report.edges;
      REQUIRE(report.stats.broad_phase_pairs == 0);
    } else {
      REQUIRE(report.edges.size() == reference.size());
      for (std::size_t i = 0; i < reference.size(); ++i)
        REQUIRE(report.edges[i].result.verdict == reference[i].result.verdict);
      pairsWithTree = report.stats.broad_phase_pairs;
    }
  }
  // Five links x 150 obstacles per edge without the tree; a few with it.
  REQUIRE(pairsWithTree > 0);
  REQUIRE(pairsWithTree * 20 < 5 * 150 * reference.size());
}

namespace {
/// How far a sphere (world frame) is from touching the obstacle, in double
/// precision (negative when it overlaps): the primitive's closest point, or
/// for a mesh the solid `shape` it was made of.
double sphereClearance(const Obstacle& obstacle, const Primitive& shape, const Eigen::Vector3d& centre, double radius) {
  const Eigen::Vector3d local = obstacle.pose.inverse() * centre;
  const Primitive& solid = obstacle.primitive ? *obstacle.primitive : shape;
  return (solid.closestPoint(local) - local).norm() - radius;
}
}  // namespace

TEST_CASE("sphere sets: fitted spheres cover every point of the mesh, at most the count asked for", "[checkers]") {
  for (const Mesh& mesh : {boxMesh({0.3, 0.1, 2.0}), cylinderMesh(0.2, 0.5), sphereMesh(0.4)}) {
    for (const std::size_t count : {std::size_t{1}, std::size_t{4}, std::size_t{16}, std::size_t{64}}) {
      const std::vector<Sphere> spheres = containingSpheres(mesh, count);
      INFO(mesh.triangles.size() << " triangles, " << count << " spheres asked, " << spheres.size() << " made");
      REQUIRE(!spheres.empty());
      REQUIRE(spheres.size() <= count);
      // Points of every triangle on a barycentric grid of 1/16.
      for (const auto& [a, b, c] : mesh.triangles)
        for (int i = 0; i <= 16; ++i)
          for (int j = 0; i + j <= 16; ++j) {
            const Eigen::Vector3d p =
                (i * mesh.vertices[a] + j * mesh.vertices[b] + (16 - i - j) * mesh.vertices[c]) / 16.0;
            REQUIRE(covers(spheres, p));
          }
      const Sphere around = enclosingSphere(spheres);
      for (const Sphere& s : spheres) REQUIRE((s.centre - around.centre).norm() + s.radius <= around.radius);
    }
    // More spheres hug the mesh closer: the largest radius shrinks.
    auto largest = [&](std::size_t count) {
      double r = 0;
      for (const Sphere& s : containingSpheres(mesh, count)) r = std::max(r, s.radius);
      return r;
    };
    REQUIRE(largest(64) < largest(4));
  }
  REQUIRE_THROWS_AS(containingSpheres(boxMesh({1, 1, 1}), 0), std::invalid_argument);
  REQUIRE(containingSpheres(Mesh{}, 4).empty());
}

TEST_CASE("spheres: the lanes' single-precision kinematics and tests agree with double precision", "[checkers]") {
  const test::TempDir dir;
  // arm6 with two spheres per link (its own file, each collision element
  // replaced), and a scene of every obstacle kind.
  const std::string spherized = std::regex_replace(
      test::readText(test::sourceDir() / "configs/robots/arm6.urdf"), std::regex("<collision>.*?</collision>"),
      "<collision><origin xyz=\"0 0 0.05\"/><geometry><sphere radius=\"0.03\"/></geometry></collision>"
      "<collision><origin xyz=\"0.01 0 0.02\"/><geometry><sphere radius=\"0.02\"/></geometry></collision>");
  UrdfOptions options;
  options.spheres = dir.write("arm6_spheres.urdf", spherized);
  std::shared_ptr<const Robot> arm = loadUrdfRobot(test::sourceDir() / "configs/robots/arm6.urdf", options);
  REQUIRE(arm->links().front().spheres.size() == 2);
  auto scene = std::make_shared<Scene>();
  scene->addObstacle("box", Primitive::box({0.3, 0.2, 0.4}),
                     Transform(Eigen::Translation3d(0.4, 0.1, 0.5) * Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ())));
  scene->addObstacle("ball", Primitive::sphere(0.15), Transform(Eigen::Translation3d(-0.3, 0.35, 0.7)));
  scene->addObstacle(
      "can", Primitive::cylinder(0.08, 0.6),
      Transform(Eigen::Translation3d(0.0, -0.45, 0.4) * Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitX())));
  // A mesh (checked through FCL), the truth's box.
  const Primitive crateShape = Primitive::box({0.2, 0.2, 0.2});
  scene->addObstacle("crate", boxMesh({0.2, 0.2, 0.2}), Transform(Eigen::Translation3d(-0.45, -0.2, 0.3)));
  SpheresSettings settings;
  settings.model = SpheresSettings::Model::Given;
  SpheresChecker checker(arm, scene, settings);
  // The truth: every sphere placed by Robot::linkPoses in double precision.
  std::vector<Transform> poses;
  auto clearance = [&](const Config& q) {
    arm->linkPoses(q, poses);
    double nearest = std::numeric_limits<double>::infinity();
    auto world = [&](std::size_t link, const Sphere& s) { return poses[link] * s.centre; };
    for (std::size_t link = 0; link < arm->links().size(); ++link)
      for (const Sphere& s : arm->links()[link].spheres)
        for (const Obstacle& obstacle : scene->obstacles())
          nearest = std::min(nearest, sphereClearance(obstacle, crateShape, world(link, s), s.radius));
    for (const auto& [i, k] : arm->selfCollisionPairs())
      for (const Sphere& a : arm->links()[i].spheres)
        for (const Sphere& b : arm->links()[k].spheres)
          nearest = std::min(nearest, (world(i, a) - world(k, b)).norm() - a.radius - b.radius);
    return nearest;
  };
  Random rng(5);
  std::vector<Config> batch(kSphereLanes);
  int colliding = 0, free = 0, judged = 0;
  for (int round = 0; round < test::scaled(200); ++round) {
    for (Config& q : batch) arm->sampleUniform(rng, q);
    const LaneMask hits = checker.collidingBatch(batch);
    for (std::size_t lane = 0; lane < kSphereLanes; ++lane) {
      const double c = clearance(batch[lane]);
      // Within the kernel's margins (1e-6 of the problem's size, and single precision) either verdict holds.
      if (std::abs(c) < 1e-4) continue;
      ++judged;
      const bool hit = hits >> lane & 1;
      INFO("round " << round << " lane " << lane << " clearance " << c);
      REQUIRE(hit == (c < 0));
      REQUIRE(checker.isValid(batch[lane]) == !hit);
      ++(hit ? colliding : free);
    }
  }
  REQUIRE(judged > test::scaled(200) * static_cast<int>(kSphereLanes) / 4);
  REQUIRE(colliding > 0);
  REQUIRE(free > 0);
  // Every collision element of a spherized URDF must be a sphere.
  const auto boxed = dir.write("boxed.urdf",
                               "<robot name=\"a\"><link name=\"tool\"><collision><geometry><box size=\"1 1 "
                               "1\"/></geometry></collision></link></robot>");
  options.spheres = boxed;
  REQUIRE_THROWS_WITH(loadUrdfRobot(test::sourceDir() / "configs/robots/arm6.urdf", options),
                      Catch::Contains("every collision element of a spherized URDF must be a sphere"));
}
