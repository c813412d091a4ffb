// The budgeted BVTT traversal (Lin & Li) that the `budgeted` checker will be
// built on: with no budget it must give exactly FCL's collide() verdict, with
// a budget it must respect it, and its confidence must mean what Fig. 9 says.
#include "eval/lin_li_experiment.h"
#include "setup/build_problem.h"
#include "geometry/bvtt_traversal.h"
#include "geometry/collision_queries.h"
#include "test_support.h"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace prmkit;

namespace {

std::vector<MeshPair> meshPairs(const Problem& problem, const Config& q) {
  std::vector<Transform> poses;
  problem.robot->linkPoses(q, poses);
  std::vector<MeshPair> pairs;
  robotMeshPairs(*problem.robot, *problem.scene, poses, pairs);
  return pairs;
}
}  // namespace

TEST_CASE("traversal: with no budget the verdict is exactly FCL's collide, for every order", "[traversal]") {
  for (const auto order : {TraversalOrder::DepthFirst, TraversalOrder::Coherence, TraversalOrder::Overlap}) {
    for (const auto& name : test::shippedProblems()) {
      const Problem problem = loadProblem(test::problemFile(name));
      TraversalSettings settings;
      settings.order = order;
      BvttTraversal traversal(settings);
      Random rng(21);
      Config q;
      CheckStats oracleStats, stats;
      int colliding = 0;
      const int samples = test::scaled(400);
      for (int s = 0; s < samples; ++s) {
        problem.robot->sampleUniform(rng, q);
        const std::vector<MeshPair> pairs = meshPairs(problem, q);
        const TraversalResult result = traversal.check(pairs, stats);
        INFO(name << " order " << static_cast<int>(order) << " sample " << s);
        REQUIRE(result.complete);
        REQUIRE(result.confidence == 100.0);
        // FCL's collide on the same pairs' triangles (not prmkit's solids: a
        // link inside one of boxes3000's boxes meets no triangle).
        const bool fclCollide = std::any_of(pairs.begin(), pairs.end(), [&](const MeshPair& pair) {
          return CollisionQueries::meshesOverlap(*pair.a, pair.pose_a, *pair.b, pair.pose_b, oracleStats);
        });
        REQUIRE(result.colliding == fclCollide);
        colliding += result.colliding;
      }
      REQUIRE(colliding > 0);
      REQUIRE(colliding < samples);
    }
  }
}

TEST_CASE("traversal: the budget is respected and confidence is 100 exactly when the check completed", "[traversal]") {
  const Problem problem = loadProblem(test::problemFile("spring_spring"));
  CollisionQueries oracle(problem.robot, problem.scene, Geometry::Mesh);
  for (const auto order : {TraversalOrder::DepthFirst, TraversalOrder::Coherence, TraversalOrder::Overlap}) {
    for (const std::uint64_t budget : {20u, 200u, 1000u}) {
      TraversalSettings settings;
      settings.order = order;
      settings.budget_bv_tests = budget;
      BvttTraversal traversal(settings);
      // Consecutive configurations along edges, as the budgeted checker will check them.
      Random rng(5);
      Config a, b, q;
      CheckStats oracleStats;
      int incomplete = 0;
      for (int edge = 0; edge < test::scaled(20); ++edge) {
        problem.robot->sampleUniform(rng, a);
        problem.robot->sampleUniform(rng, b);
        traversal.forget();
        for (int step = 0; step <= 20; ++step) {
          problem.robot->interpolate(a, b, step / 20.0, q);
          CheckStats stats;
          const TraversalResult result = traversal.check(meshPairs(problem, q), stats);
          INFO("order " << static_cast<int>(order) << " budget " << budget);
          REQUIRE(result.bv_tests <= budget);
          REQUIRE(stats.bv_tests == result.bv_tests);
          REQUIRE(result.confidence >= 0.0);
          REQUIRE(result.confidence <= 100.0);
          REQUIRE((result.confidence == 100.0) == result.complete);
          if (!result.complete) {
            ++incomplete;
            REQUIRE(result.bv_tests == budget);
            REQUIRE_FALSE(result.colliding);
          } else {
            REQUIRE(result.colliding == oracle.inCollision(q, oracleStats));
          }
        }
      }
      if (budget == 20u) REQUIRE(incomplete > 0);  // the 1800-triangle springs do not fit in 20 BV tests
    }
  }
}

TEST_CASE("traversal: settings are validated", "[traversal]") {
  TraversalSettings settings;
  settings.group_size = 1;
  REQUIRE_THROWS_AS(BvttTraversal(settings), std::invalid_argument);
  settings = TraversalSettings{};
  settings.initial_confidence = 120;
  REQUIRE_THROWS_AS(BvttTraversal(settings), std::invalid_argument);
}

TEST_CASE("Lin & Li experiment: tables are consistent with the checks they count", "[traversal]") {
  LinLiExperiment experiment = loadLinLiExperiment(test::sourceDir() / "configs/experiments/lin_li.yaml");
  experiment.samples = 10;
  experiment.k = 4;
  experiment.resolution = 0.01;
  experiment.budgets = {50, 200};
  experiment.table2_budget = 50;
  const LinLiResult result = runLinLi(experiment);
  REQUIRE(result.table1.size() == 2);
  REQUIRE(result.table2.size() == 11);
  for (int run = 0; run < 2; ++run) {
    std::size_t bucketed = 0;
    for (const auto& bucket : result.table2) bucketed += bucket.colliding[run] + bucket.free[run];
    REQUIRE(bucketed == result.table1[0].incomplete[run]);  // Table 2 counts exactly the out-of-budget checks
    REQUIRE(result.table2.back().colliding[run] + result.table2.back().free[run] == 0);  // never 100 when inexact
    for (const auto& row : result.table1) {
      REQUIRE(row.incomplete[run] <= row.checks);
      REQUIRE(row.mean_confidence[run] >= 0.0);
      REQUIRE(row.mean_confidence[run] <= 100.0);
    }
  }
  REQUIRE(result.table1[0].incomplete[0] > 0);  // 50 BV tests are too few for the springs
  REQUIRE(linLiTable1Csv(result).rfind("budget_bv_tests,checks,", 0) == 0);
  const std::string table2 = linLiTable2Csv(result);
  REQUIRE(std::count(table2.begin(), table2.end(), '\n') == 12);  // header and 11 buckets
}
