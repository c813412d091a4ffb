// Node sources: the sampling strategies, their mixes and PRM's
// random-bounce expansion.
#include "planner/planner_registry.h"
#include "io/problem.h"
#include "geometry/clearance.h"
#include "planner/planner.h"
#include "planner/sampler.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace prmkit;

namespace {

/// `count` samples of one strategy on a shipped problem, with the node-source statistics.
struct Drawn {
  std::vector<Config> samples;
  std::vector<NodeSourceStats> sources;
  std::uint64_t checkerStaticQueries = 0;
};

Drawn draw(const Problem& problem, const std::string& mix, std::size_t count, double sigma = 0.02) {
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  Drawn drawn;
  NodeSampler sampler(*checker, SamplerSettings{parseSamplerMix(mix), sigma, 3}, drawn.sources);
  std::uint64_t samplesDrawn = 0;
  while (drawn.samples.size() < count) {
    auto sample = sampler.sample([] { return false; }, samplesDrawn);
    REQUIRE(sample);
    REQUIRE(sample->second < drawn.sources.size());
    drawn.samples.push_back(sample->first);
  }
  drawn.checkerStaticQueries = checker->stats().static_queries;
  return drawn;
}

double meanClearance(const Problem& problem, const std::vector<Config>& samples) {
  ClearanceQuery query(*problem.robot, *problem.scene);
  CheckStats stats;
  double sum = 0.0;
  for (const Config& q : samples) sum += query.clearance(q, 0.0, stats);
  return sum / static_cast<double>(samples.size());
}

}  // namespace

TEST_CASE("sampler mixes: strategies, weights normalised, bad mixes named", "[sampling]") {
  const auto single = parseSamplerMix("bridge");
  REQUIRE(single.size() == 1);
  CHECK(single[0].strategy == "bridge");
  CHECK(single[0].weight == 1.0);
  const auto mix = parseSamplerMix("uniform:1,gaussian:3");
  REQUIRE(mix.size() == 2);
  CHECK(mix[0].weight == Approx(0.25));
  CHECK(mix[1].weight == Approx(0.75));
  CHECK_THROWS_WITH(parseSamplerMix("uniform,sobol"), Catch::Contains("unknown sampler 'sobol'"));
  CHECK_THROWS_WITH(parseSamplerMix("uniform:0.5,uniform:0.5"), Catch::Contains("appears twice"));
  CHECK_THROWS_WITH(parseSamplerMix("bridge:-1"), Catch::Contains("positive number"));
  CHECK_THROWS_WITH(parseSamplerMix("bridge:x"), Catch::Contains("positive number"));
  CHECK_THROWS_WITH(parseSamplerMix(""), Catch::Contains("empty"));
}

TEST_CASE("every sampler returns only valid configurations and counts its own checks", "[sampling]") {
  for (const std::string name : {"maze2d", "thin_wall", "twisted_slot", "arm6_shelf"}) {
    const Problem problem = loadProblem(test::problemFile(name));
    // An independent exact static check: a fresh checker of another strategy.
    CheckerSettings exactSettings = problem.checker;
    exactSettings.type = "discrete";
    auto exact = makeChecker(exactSettings, problem.robot, problem.scene);
    for (const std::string& strategy : samplerNames()) {
      // Bridge tests on thin walls need thousands of draws per node: fewer samples there.
      const std::size_t count =
          strategy == "bridge" && name != "maze2d" ? 5 : static_cast<std::size_t>(test::scaled(100));
      DYNAMIC_SECTION(name << " with " << strategy) {
        const Drawn drawn = draw(problem, strategy, count);
        for (const Config& q : drawn.samples) REQUIRE(exact->isValid(q));
        REQUIRE(drawn.sources.size() == 1);
        const NodeSourceStats& source = drawn.sources[0];
        CHECK(source.source == strategy);
        CHECK(source.nodes == count);
        CHECK(source.samples_drawn >= count);
        // Every static check the strategy made went through the checker, and the checker counted it.
        CHECK(source.static_checks == drawn.checkerStaticQueries);
        CHECK(source.static_checks >= count);
      }
    }
  }
}

TEST_CASE("gaussian and bridge samples lie closer to obstacles than uniform ones", "[sampling]") {
  const Problem problem = loadProblem(test::problemFile("maze2d"));
  const std::size_t count = static_cast<std::size_t>(test::scaled(300));
  const double uniform = meanClearance(problem, draw(problem, "uniform", count).samples);
  const double gaussian = meanClearance(problem, draw(problem, "gaussian", count).samples);
  const double bridge = meanClearance(problem, draw(problem, "bridge", count).samples);
  const double obstacleBased = meanClearance(problem, draw(problem, "obstacle_based", count).samples);
  const double maxClearance = meanClearance(problem, draw(problem, "max_clearance", count).samples);
  INFO("mean clearance (m): uniform " << uniform << ", gaussian " << gaussian << ", bridge " << bridge
                                      << ", obstacle_based " << obstacleBased << ", max_clearance " << maxClearance);
  CHECK(gaussian < 0.75 * uniform);
  CHECK(bridge < 0.75 * uniform);
  CHECK(obstacleBased < 0.75 * uniform);
  CHECK(maxClearance > uniform);
}

TEST_CASE("a mix draws from each of its strategies in proportion", "[sampling]") {
  const Problem problem = loadProblem(test::problemFile("maze2d"));
  const Drawn drawn = draw(problem, "uniform:0.25,gaussian:0.75", 400);
  REQUIRE(drawn.sources.size() == 2);
  CHECK(drawn.sources[0].nodes + drawn.sources[1].nodes == 400);
  CHECK(drawn.sources[0].nodes > 60);
  CHECK(drawn.sources[0].nodes < 140);
  CHECK(drawn.sources[0].static_checks + drawn.sources[1].static_checks == drawn.checkerStaticQueries);
}

TEST_CASE("expansion never adds invalid nodes or unchecked edges to a PRM roadmap", "[sampling]") {
  for (const std::string name : {"maze2d", "thin_wall"}) {
    DYNAMIC_SECTION(name) {
      const Problem problem =
          test::loadForPlanning(name, {"planner.type=prm", "planner.expand=0.5", "checker.type=adaptive", "seed=4"});
      auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
      const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
      INFO(result.status);
      REQUIRE(result.solved);
      REQUIRE(result.planner_stats.expansion_nodes > 0);
      auto exact = makeChecker(problem.checker, problem.robot, problem.scene);
      for (const Config& q : result.roadmap_configs) REQUIRE(exact->isValid(q));
      for (const auto& [a, b, state] : result.roadmap_edge_list) {
        REQUIRE(state == EdgeState::Free);
        REQUIRE(exact->checkEdge(result.roadmap_configs[a], result.roadmap_configs[b]).verdict == Verdict::Free);
      }
      const auto expansion = std::find_if(result.node_sources.begin(), result.node_sources.end(),
                                          [](const NodeSourceStats& s) { return s.source == "expansion"; });
      REQUIRE(expansion != result.node_sources.end());
      CHECK(expansion->nodes == result.planner_stats.expansion_nodes);
    }
  }
}

TEST_CASE("node sources account for every intermediate vertex of the path", "[sampling]") {
  for (const std::string planner : {"prm", "lazy_prm"}) {
    DYNAMIC_SECTION(planner) {
      const Problem problem =
          test::loadForPlanning("maze2d", {"planner.type=" + planner, "planner.sampler=uniform:0.5,bridge:0.5",
                                           "planner.expand=" + std::string(planner == "prm" ? "0.3" : "0")});
      auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
      const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
      REQUIRE(result.solved);
      REQUIRE(result.node_sources.size() >= 2);
      CHECK(result.node_sources[0].source == "uniform");
      CHECK(result.node_sources[1].source == "bridge");
      std::uint64_t onPath = 0, nodes = 0, drawn = 0;
      for (const NodeSourceStats& s : result.node_sources) {
        onPath += s.nodes_on_path;
        nodes += s.nodes;
        drawn += s.samples_drawn;
        CHECK(s.nodes_on_path <= s.nodes);
      }
      CHECK(onPath == result.path.size() - 2);
      CHECK(nodes == result.roadmap_vertices - 2);
      CHECK(drawn == result.planner_stats.samples_drawn);
    }
  }
}

TEST_CASE("the twisted slot is solvable only by turning inside it", "[sampling]") {
  const Problem problem = loadProblem(test::problemFile("twisted_slot"));
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  REQUIRE(checker->isValid(problem.start));
  REQUIRE(checker->isValid(problem.goal));
  // The straight, unturned motion hits the walls ...
  CHECK(checker->checkEdge(problem.start, problem.goal).verdict == Verdict::Colliding);
  // ... and a motion turning with the slots (to the mean angle of the two
  // slots the plank is in, 15, 45 and 75 degrees) is free.
  auto pose = [&](double x, double rollDegrees) {
    Config q = problem.start;
    q[0] = x;
    const double half = rollDegrees * M_PI / 360.0;
    q.tail<4>() << std::sin(half), 0, 0, std::cos(half);
    return q;
  };
  const std::vector<Config> path{pose(-1.4, 0),    pose(-0.8, 0),   pose(-0.435, 15), pose(-0.265, 15),
                                 pose(-0.085, 45), pose(0.085, 45), pose(0.265, 75),  pose(0.435, 75),
                                 pose(0.8, 90),    pose(1.4, 90),   problem.goal};
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    INFO("segment " << i);
    CHECK(checker->checkEdge(path[i], path[i + 1]).verdict == Verdict::Free);
  }
}
