// What only the adaptive strategy has: exact counts of its bisection on a
// case solved by hand, the node cache, eta, and the distance bounds it uses.
// Its verdicts are tested with every other strategy in conformance_test.cpp.
#include "eval/edge_check.h"
#include "setup/build_problem.h"
#include "checkers/adaptive_checker.h"
#include "checkers/pair_table.h"
#include "geometry/collision_queries.h"
#include "robots/planar_chain.h"
#include "geometry/bvh_distance.h"
#include "geometry/gjk.h"
#include "geometry/slab_gap.h"
#include "base/largest_of.h"
#include "robots/rigid_body.h"
#include "test_support.h"

#include <catch2/catch.hpp>

using namespace prmkit;

namespace {
Config pose3(double x, double y, double z) {
  Config q(7);
  q << x, y, z, 0, 0, 0, 1;
  return q;
}

struct WallWorld {
  std::shared_ptr<Scene> scene = std::make_shared<Scene>();
  std::shared_ptr<RigidBody3D> robot;
  WallWorld() {
    // Wall face at y = 0; a 0.2 m cube at height y = 0.2 has 0.1 m clearance.
    scene->addObstacle("wall", boxMesh({10, 1, 1}), Transform(Eigen::Translation3d(0, -0.5, 0)));
    robot =
        std::make_shared<RigidBody3D>(boxMesh({0.2, 0.2, 0.2}), Eigen::Vector3d(-5, -5, -5), Eigen::Vector3d(5, 5, 5));
  }
};
}  // namespace

TEST_CASE("adaptive: a translation along a wall needs exactly the bisections the certificate predicts", "[adaptive]") {
  WallWorld world;
  AdaptiveSettings settings;
  settings.distance_relative_error = 0.0;  // exact distances: d = 0.1 m everywhere
  settings.probes = 1;                     // one cell: the bisection alone
  AdaptiveChecker checker(world.robot, world.scene, settings);
  // l = 1 m of translation. A piece of length l is certified when l < 0.1 + 0.1.
  // New nodes: the midpoint is measured first (0.1 < 0.5 certifies neither
  // half), then the nodes; the two 0.5 m and four 0.25 m pieces are split
  // (2 + 4 = 6 steps), the 0.125 m ones pass.
  const Config a = pose3(-0.5, 0.2, 0), b = pose3(0.5, 0.2, 0);
  REQUIRE(checker.checkEdge(a, b).verdict == Verdict::Free);
  CheckStats stats = checker.stats();
  REQUIRE(stats.strategy.value("bisection_steps") == 6);
  REQUIRE(stats.strategy.value("queue_pushes") == 6);
  REQUIRE(stats.distance_queries == 2 + 7);  // two nodes, seven split points (the midpoint and six more)
  REQUIRE(stats.strategy.value("unresolved_as_colliding") == 0);
  REQUIRE(stats.strategy.value("cache_hits") == 0);

  // The same edge again: the nodes' distances come from the cache, but do not
  // certify the whole edge (0.2 < 1), so it is probed at its midpoint and the
  // two halves are split as before: 6 steps, 7 split points.
  checker.resetStats();
  REQUIRE(checker.checkEdge(a, b).verdict == Verdict::Free);
  stats = checker.stats();
  REQUIRE(stats.strategy.value("bisection_steps") == 6);
  REQUIRE(stats.distance_queries == 7);
  REQUIRE(stats.strategy.value("cache_hits") > 0);

  // A 0.15 m move between new nodes is certified by its midpoint alone (0.1 > 0.075).
  checker.resetStats();
  REQUIRE(checker.checkEdge(pose3(0, 0.2, 0), pose3(0.15, 0.2, 0)).verdict == Verdict::Free);
  REQUIRE(checker.stats().strategy.value("bisection_steps") == 0);
  REQUIRE(checker.stats().distance_queries == 1);

  // Eight cells: each centre's 0.1 m covers half a cell (0.0625 m) either
  // side, so the probes alone certify the edge: no node is measured, no split.
  settings.probes = 8;
  settings.probe_step = 0.0;
  AdaptiveChecker probed(world.robot, world.scene, settings);
  REQUIRE(probed.checkEdge(a, b).verdict == Verdict::Free);
  REQUIRE(probed.stats().distance_queries == 8);
  REQUIRE(probed.stats().strategy.value("bisection_steps") == 0);
  // Four cells: 0.125 m reach > 0.1 m at every centre. The two end pieces
  // (0.125 m) are certified once their nodes are measured (0.2 > 0.125); the
  // three pieces between centres (0.2 < 0.25) are split once each.
  settings.probes = 4;
  AdaptiveChecker coarse(world.robot, world.scene, settings);
  REQUIRE(coarse.checkEdge(a, b).verdict == Verdict::Free);
  REQUIRE(coarse.stats().strategy.value("bisection_steps") == 3);
  REQUIRE(coarse.stats().distance_queries == 4 + 2 + 3);
}

TEST_CASE("adaptive: a path check repeats no static probe an earlier check found free", "[adaptive]") {
  WallWorld world;
  // A 0.1 m post on the second segment's midpoint, 0.45 m beyond the first segment's end.
  world.scene->addObstacle("post", boxMesh({0.1, 0.1, 0.1}), Transform(Eigen::Translation3d(1.0, 0.2, 0)));
  AdaptiveSettings settings;
  settings.probes = 4;  // cells in the order 2, 1, 3, 0 (van der Corput)
  settings.probe_step = 0.0;
  AdaptiveChecker checker(world.robot, world.scene, settings);
  const Config a = pose3(-0.5, 0.2, 0), b = pose3(0.5, 0.2, 0), c = pose3(1.5, 0.2, 0);
  // Round one: cell 2 of the first segment (free), then of the second (the post).
  const Config path[] = {a, b, c};
  const PathResult hit = checker.checkPath(path);
  REQUIRE(hit.verdict == Verdict::Colliding);
  REQUIRE(hit.first_colliding == std::size_t{1});
  REQUIRE(checker.stats().static_queries == 2);
  REQUIRE(checker.stats().strategy.value("static_probes_reused") == 0);
  // The first segment alone: its cell 2 is known free, cells 1, 3 and 0 are checked.
  checker.resetStats();
  const Config first[] = {a, b};
  REQUIRE(checker.checkPath(first).verdict == Verdict::Free);
  REQUIRE(checker.stats().strategy.value("static_probes_reused") == 1);
  REQUIRE(checker.stats().static_queries == 3);
  // Backwards: all four cells are known free (mirrored), none is checked; the
  // distances still certify the segment.
  checker.resetStats();
  const Config back[] = {b, a};
  REQUIRE(checker.checkPath(back).verdict == Verdict::Free);
  REQUIRE(checker.stats().strategy.value("static_probes_reused") == 4);
  REQUIRE(checker.stats().static_queries == 0);
  REQUIRE(checker.stats().distance_queries > 0);
  // The colliding segment learnt nothing: its next check finds the post at once.
  checker.resetStats();
  const Config second[] = {b, c};
  REQUIRE(checker.checkPath(second).verdict == Verdict::Colliding);
  REQUIRE(checker.stats().strategy.value("static_probes_reused") == 0);
  REQUIRE(checker.stats().static_queries == 1);
}

TEST_CASE("adaptive: a motion grazing closer than eta is reported colliding and counted", "[adaptive]") {
  WallWorld world;
  AdaptiveSettings settings;
  settings.eta = 1e-3;
  AdaptiveChecker checker(world.robot, world.scene, settings);
  // 0.2 mm clearance: free in truth, but no piece of motion bound above eta = 1 mm can be certified.
  const EdgeResult result = checker.checkEdge(pose3(-0.5, 0.1002, 0), pose3(0.5, 0.1002, 0));
  REQUIRE(result.verdict == Verdict::Colliding);
  REQUIRE(checker.stats().strategy.value("unresolved_as_colliding") == 1);
  // With the default eta (1e-6 of the scene size, 10 micrometres here) the same motion is certified free.
  AdaptiveChecker fine(world.robot, world.scene, AdaptiveSettings{});
  REQUIRE(fine.eta() == Approx(1e-6 * world.scene->bounds().diagonal().norm()));
  REQUIRE(fine.checkEdge(pose3(-0.5, 0.1002, 0), pose3(0.5, 0.1002, 0)).verdict == Verdict::Free);
  REQUIRE(fine.stats().strategy.value("unresolved_as_colliding") == 0);
}

TEST_CASE("adaptive: a check's bisection steps are bounded, what is left reported colliding and counted",
          "[adaptive]") {
  WallWorld world;
  // The exact case above: six bisection steps certify the edge free.
  AdaptiveSettings settings;
  settings.distance_relative_error = 0.0;
  settings.probes = 1;
  const Config a = pose3(-0.5, 0.2, 0), b = pose3(0.5, 0.2, 0);
  settings.max_bisection_steps = 6;
  AdaptiveChecker enough(world.robot, world.scene, settings);
  REQUIRE(enough.checkEdge(a, b).verdict == Verdict::Free);
  REQUIRE(enough.stats().strategy.value("unresolved_as_colliding") == 0);
  settings.max_bisection_steps = 5;
  AdaptiveChecker bounded(world.robot, world.scene, settings);
  REQUIRE(bounded.checkEdge(a, b).verdict == Verdict::Colliding);
  REQUIRE(bounded.stats().strategy.value("bisection_steps") == 5);
  REQUIRE(bounded.stats().strategy.value("unresolved_as_colliding") == 1);
  // A passage narrower than eta along the whole edge: without the bound,
  // about (length / eta) steps before the first piece falls below eta; with
  // it, the check ends after the bound, reported colliding.
  AdaptiveSettings narrow;
  narrow.eta = 1e-6;
  narrow.probes = 1;
  narrow.max_bisection_steps = 2000;
  AdaptiveChecker checker(world.robot, world.scene, narrow);
  REQUIRE(checker.checkEdge(pose3(-4, 0.1 + 1e-7, 0), pose3(4, 0.1 + 1e-7, 0)).verdict == Verdict::Colliding);
  REQUIRE(checker.stats().strategy.value("bisection_steps") == 2000);
  REQUIRE(checker.stats().strategy.value("unresolved_as_colliding") == 1);
  REQUIRE_THROWS_AS(AdaptiveChecker(world.robot, world.scene,
                                    [] {
                                      AdaptiveSettings zero;
                                      zero.max_bisection_steps = 0;
                                      return zero;
                                    }()),
                    std::invalid_argument);
}

TEST_CASE("adaptive: settings are validated", "[adaptive]") {
  WallWorld world;
  AdaptiveSettings negative;
  negative.eta = -1;
  REQUIRE_THROWS_AS(AdaptiveChecker(world.robot, world.scene, negative), std::invalid_argument);
  AdaptiveSettings relativeError;
  relativeError.distance_relative_error = -0.5;
  REQUIRE_THROWS_AS(AdaptiveChecker(world.robot, world.scene, relativeError), std::invalid_argument);
}

TEST_CASE("BVH distance bounds: lower bounds, exact below the threshold, counted", "[adaptive]") {
  const auto cube = buildBvh(boxMesh({1, 1, 1}));
  const auto sphere = buildBvh(sphereMesh(0.5));
  BvhDistance distance;
  Random rng(3);
  for (int i = 0; i < 200; ++i) {
    Transform pose = Transform::Identity();
    pose.translation() = Eigen::Vector3d(rng.uniformReal(-2, 2), rng.uniformReal(-2, 2), rng.uniformReal(-2, 2));
    pose.linear() = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    CheckStats stats;
    // Reference: exact distance (relative error 0, threshold above any distance here).
    const DistanceBound exact = distance.lowerBound(*cube, Transform::Identity(), *sphere, pose, 100.0, 0.0, stats);
    // Apart, the bound is the distance; touching, the lower bound is 0 (the
    // upper bound is then a point pair's distance, not necessarily 0).
    CheckStats ignored;
    const bool overlap = CollisionQueries::meshesOverlap(*cube, Transform::Identity(), *sphere, pose, ignored);
    if (overlap)
      REQUIRE(exact.lower == 0.0);
    else
      REQUIRE(exact.lower == Approx(exact.upper).margin(1e-12));
    REQUIRE(stats.distance_queries == 1);
    REQUIRE(stats.exact_distance_queries == 1);
    REQUIRE(stats.bv_tests > 0);
    for (double threshold : {0.05, 0.3, 1.0})
      for (double relativeError : {0.0, 1.0}) {
        const DistanceBound bound =
            distance.lowerBound(*cube, Transform::Identity(), *sphere, pose, threshold, relativeError, stats);
        REQUIRE(bound.lower <= exact.lower + 1e-12);       // a lower bound
        REQUIRE(bound.upper >= exact.lower - 1e-12);       // and an upper one
        REQUIRE(bound.answers(threshold, relativeError));  // what was asked
        if (bound.lower < threshold && !overlap) REQUIRE(bound.lower * (1 + relativeError) >= bound.upper - 1e-12);
        if (overlap) REQUIRE(bound.touching());
      }
  }
}

TEST_CASE("GJK between nearly parallel faces converges: its gap and its point pair agree", "[adaptive]") {
  // A box hovering over another, its bottom face tilted by at most 1e-4 rad
  // from the other's top (its corners drop at most 0.07 mm), 0.1 mm to 10 cm
  // above it: rounding once made GJK go round in circles here (half of such
  // pairs ran into its step limit).
  const auto lower = convexHullOf(boxMesh({0.6, 0.4, 0.2}));
  const auto upper = convexHullOf(boxMesh({0.7, 0.7, 0.7}));
  REQUIRE(lower);
  REQUIRE(upper);
  Random rng(11);
  int iterations = 0;
  const int pairs = test::scaled(2000);
  for (int i = 0; i < pairs; ++i) {
    const double gap = std::pow(10.0, rng.uniformReal(-4.0, -1.0));
    Transform pose = Transform::Identity();
    pose.linear() = (Eigen::AngleAxisd(rng.uniformReal(-1e-4, 1e-4), Eigen::Vector3d::UnitX()) *
                     Eigen::AngleAxisd(rng.uniformReal(-1e-4, 1e-4), Eigen::Vector3d::UnitY()) *
                     Eigen::AngleAxisd(rng.uniformReal(-1.0, 1.0), Eigen::Vector3d::UnitZ()))
                        .toRotationMatrix();
    pose.translation() = Eigen::Vector3d(rng.uniformReal(-0.2, 0.2), rng.uniformReal(-0.2, 0.2), 0.45 + gap);
    const GjkResult gjk = gjkSeparation(*lower, Transform::Identity(), *upper, pose, Eigen::Vector3d::Zero());
    INFO("pair " << i << ", gap " << gap);
    REQUIRE_FALSE(gjk.may_overlap);
    REQUIRE(gjk.iterations < 64);
    iterations += gjk.iterations;
    // The slab gap along its direction is a lower bound of the distance, its
    // point pair's distance an upper one: converged, they meet.
    const double proven = slabGap(*lower, Transform::Identity(), *upper, pose, gjk.direction);
    REQUIRE(proven <= gjk.distance);
    REQUIRE(proven >= gjk.distance * (1.0 - 1e-6));
  }
  CHECK(iterations < 10 * pairs);
}

TEST_CASE("support scans: four running maxima give one running maximum's value, bit for bit", "[adaptive]") {
  // Every count of points from 0 to 13 (each remainder of four), values of
  // both signs, NaNs among them (a maximum passes over them either way).
  Random rng(5);
  for (std::size_t count = 0; count <= 13; ++count) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> values(count);
      for (double& v : values)
        v = rng.uniformReal(0.0, 1.0) < 0.1 ? std::numeric_limits<double>::quiet_NaN() : rng.uniformReal(-5.0, 5.0);
      double one = -std::numeric_limits<double>::infinity();
      for (const double v : values) one = std::max(one, v);
      INFO("count " << count << ", trial " << trial);
      REQUIRE(largestOf(values, -std::numeric_limits<double>::infinity(), [](double v) { return v; }) == one);
    }
  }
  // The hull's support along random directions, placed by random poses.
  const auto hull = convexHullOf(
      boxMesh({0.6, 0.4, 0.2}).transformed(Transform(Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()))));
  REQUIRE(hull);
  for (int trial = 0; trial < 200; ++trial) {
    Transform pose = Transform::Identity();
    pose.linear() = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    pose.translation() = Eigen::Vector3d(rng.uniformReal(-1, 1), rng.uniformReal(-1, 1), rng.uniformReal(-1, 1));
    const Eigen::Vector3d u(rng.uniformReal(-1, 1), rng.uniformReal(-1, 1), rng.uniformReal(-1, 1));
    const Eigen::Vector3d local = pose.linear().transpose() * u;
    double one = -std::numeric_limits<double>::infinity();
    for (const Eigen::Vector3d& v : hull->vertices) one = std::max(one, local.dot(v));
    REQUIRE(placedSupport(*hull, pose, u) == one + u.dot(pose.translation()));
  }
}

TEST_CASE("adaptive: directional certificates change the work, never a verdict", "[adaptive]") {
  // On the arm (speed bounds), the default checker certifies some link-obstacle
  // pieces by directional motion bounds; SSL's lever bound alone (no speed
  // bounds, so no directional ones) must reach the same verdict on every edge.
  const Problem problem = loadProblem(test::problemFile("arm6_shelf"));
  // Short edges (at most 10% of the extent, mostly free) and edges of any length.
  auto cases = randomEdges(problem.robot, problem.scene, static_cast<std::size_t>(test::scaled(300)), 0.1, 17);
  for (auto& edge : randomEdges(problem.robot, problem.scene, static_cast<std::size_t>(test::scaled(300)), 0.0, 18))
    cases.push_back(edge);
  AdaptiveChecker fast(problem.robot, problem.scene, AdaptiveSettings{});
  AdaptiveSettings leverSettings;
  leverSettings.speed_bounds = false;
  AdaptiveChecker lever(problem.robot, problem.scene, leverSettings);
  int colliding = 0;
  for (const auto& edge : cases) {
    const Verdict verdict = fast.checkEdge(edge.a, edge.b).verdict;
    REQUIRE(verdict == lever.checkEdge(edge.a, edge.b).verdict);
    colliding += verdict == Verdict::Colliding;
  }
  REQUIRE(colliding > 0);
  REQUIRE(colliding < static_cast<int>(cases.size()));
  REQUIRE(fast.stats().strategy.value("directional_certificates") > 0);
  REQUIRE(lever.stats().strategy.value("directional_certificates") == 0);
  REQUIRE(fast.stats().strategy.value("unresolved_as_colliding") == 0);
}

TEST_CASE("adaptive: self pair tables certify only where the pair is free, and only pairs of at most two joints",
          "[adaptive]") {
  // Link 2 is 0.2 m wide: folded back, it reaches link 0 over much of the
  // box of joints 1 and 2.
  const std::shared_ptr<const KinematicChain> chain =
      makePlanarChain({{1.0, 0.1}, {0.7, 0.1}, {0.5, 0.2}, {0.3, 0.1}}, Transform::Identity());
  QueryCounts counts;
  const auto table = SelfPairTable::build(*chain, 0, 2, 7, counts);
  REQUIRE(table);
  CHECK(table->coordinateCount() == 2);
  CHECK(table->queries() == counts.distance_queries);
  CHECK(table->queries() > 0);
  // Link 0 and link 3 follow three joints: no table.
  CHECK_FALSE(SelfPairTable::build(*chain, 0, 3, 7, counts));
  // The same content gives the same shared table.
  CHECK(SelfPairTable::shared(*chain, 0, 2, 7) == SelfPairTable::shared(*chain, 0, 2, 7));

  const auto& links = chain->links();
  std::vector<Transform> poses;
  QueryCounts ignored;
  auto pairTouches = [&](const Config& q) {
    chain->linkPoses(q, poses);
    return CollisionQueries::meshesOverlap(*links[0].bvh, poses[0], *links[2].bvh, poses[2], ignored);
  };
  Random rng(5);
  Config q, a, b, between;
  int certified = 0, touching = 0;
  for (int i = 0; i < test::scaled(4000); ++i) {
    chain->sampleUniform(rng, q);
    const bool touches = pairTouches(q);
    touching += touches;
    if (!table->certifiesAt(q)) continue;
    ++certified;
    INFO("sample " << i);
    REQUIRE_FALSE(touches);
  }
  INFO(certified << " certified, " << touching << " touching");
  CHECK(touching > 0);
  CHECK(certified > test::scaled(4000) / 2);
  CHECK(table->certifiedShare() > 0.5);
  // Motions: each certified one is free at 2000 samples.
  int certifiedMotions = 0;
  for (int i = 0; i < test::scaled(400); ++i) {
    chain->sampleUniform(rng, a);
    chain->sampleUniform(rng, b);
    chain->interpolate(a, b, 0.2, b);  // at most a fifth of the box's diagonal
    if (!table->certifiesAlong(a, b)) continue;
    ++certifiedMotions;
    for (int k = 0; k <= 2000; ++k) {
      chain->interpolate(a, b, k / 2000.0, between);
      INFO("motion " << i << " sample " << k);
      REQUIRE_FALSE(pairTouches(between));
    }
  }
  CHECK(certifiedMotions > 0);
  // Outside the joints' limits nothing is certified.
  q = Config::Constant(chain->dof(), 10.0);
  CHECK_FALSE(table->certifiesAt(q));
}
