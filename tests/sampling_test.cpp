// Node sources: the sampling strategies, their mixes and PRM's
// random-bounce expansion.
#include "registry/planner_registry.h"
#include "setup/build_problem.h"
#include "geometry/clearance.h"
#include "planner/lazy_prm.h"
#include "planner/planner.h"
#include "sampling/retraction_sampler.h"
#include "sampling/sampler.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
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
  // The shifting mix: uniform first, its narrow-passage samplers at weight 0 until the planner shifts.
  const auto shifting = parseSamplerMix("auto");
  REQUIRE(shifting.size() == 4);
  CHECK(shifting[0].strategy == "uniform");
  CHECK(shifting[0].weight == 1.0);
  CHECK(shifting[3].strategy == "retraction");
  CHECK(shifting[3].weight == 0.0);
  const auto named = parseSamplerMix("auto:gaussian,medial_axis");
  REQUIRE(named.size() == 3);
  CHECK(named[1].strategy == "gaussian");
  CHECK(named[2].strategy == "medial_axis");
  CHECK(named[2].weight == 0.0);
  CHECK(isShiftingMix("auto:gaussian"));
  CHECK_FALSE(isShiftingMix("autos"));
  CHECK_THROWS_WITH(parseSamplerMix("auto:uniform"), Catch::Contains("'uniform' is its first"));
  CHECK_THROWS_WITH(parseSamplerMix("auto:gaussian:0.5"), Catch::Contains("without weights"));
  CHECK_THROWS_WITH(parseSamplerMix("auto:sobol"), Catch::Contains("unknown sampler 'sobol'"));
  CHECK_THROWS_WITH(parseSamplerMix("auto:"), Catch::Contains("empty"));
  CHECK_THROWS_WITH(parseSamplerMix("auto:auto"), Catch::Contains("without weights"));
  std::string nested;
  for (int i = 0; i < 100'000; ++i) nested += "auto:";
  CHECK_THROWS_WITH(parseSamplerMix(nested + "gaussian"), Catch::Contains("without weights"));
}

TEST_CASE("every sampler returns only valid configurations and counts its own checks", "[sampling][slow]") {
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
  const double retraction = meanClearance(problem, draw(problem, "retraction", count).samples);
  INFO("mean clearance (m): uniform " << uniform << ", gaussian " << gaussian << ", bridge " << bridge
                                      << ", obstacle_based " << obstacleBased << ", max_clearance " << maxClearance
                                      << ", retraction " << retraction);
  CHECK(gaussian < 0.75 * uniform);
  CHECK(bridge < 0.75 * uniform);
  CHECK(obstacleBased < 0.75 * uniform);
  CHECK(retraction < 0.75 * uniform);
  CHECK(maxClearance > uniform);
}

TEST_CASE("medial-axis samples lie on the middle line of a corridor, whatever they started from", "[sampling]") {
  // The only free space is a corridor 0.4 m wide between two blocks (y from
  // 0.8 to 1.2) that the 0.04 m square robot turns freely in: its medial
  // axis is the line y = 1, where the square's clearance is largest in every
  // orientation. Uniform samples spread over the corridor's free width.
  const test::TempDir dir;
  const auto file = dir.write("corridor.yaml", R"(name: corridor
robot:
  type: rigid2d
  geometry: {box: [0.04, 0.04, 0.1]}
bounds: {lower: [0, 0], upper: [4, 2]}
scene:
  obstacles:
    - {name: south, box: [4.4, 0.8, 0.1], pose: {xyz: [2, 0.4, 0]}}
    - {name: north, box: [4.4, 0.8, 0.1], pose: {xyz: [2, 1.6, 0]}}
start: [0.5, 1, 0]
goal: [3.5, 1, 0]
checker: {type: adaptive}
)");
  const Problem problem = loadProblem(file);
  const std::size_t count = static_cast<std::size_t>(test::scaled(200));
  auto offMiddle = [](const std::vector<Config>& samples) {
    std::vector<double> off;
    for (const Config& q : samples) off.push_back(std::abs(q[1] - 1.0));
    std::sort(off.begin(), off.end());
    return off;
  };
  const std::vector<double> uniform = offMiddle(draw(problem, "uniform", count).samples);
  const Drawn medial = draw(problem, "medial_axis", count);
  const std::vector<double> retracted = offMiddle(medial.samples);
  INFO("median distance from the middle line (m): uniform "
       << uniform[count / 2] << ", medial_axis " << retracted[count / 2] << ", largest " << retracted.back());
  // Uniform samples: about half the free half-width (0.17 m) from the middle.
  CHECK(uniform[count / 2] > 0.06);
  CHECK(retracted[count / 2] < 0.01);
  CHECK(retracted[count * 9 / 10] < 0.03);
}

TEST_CASE("retraction moves a box out of a wall the short way, by about its overlap", "[sampling]") {
  // A 0.2 m square robot at x = 0.95 overlaps by 0.05 m a wall whose face is
  // at x = 1 (the wall is taller than the robot, so no faces are coplanar).
  // The short way out is -x: the contacts' depths are 0.05 m, the step 1.5
  // times that, so it ends near x = 0.875, free, hardly turned.
  const test::TempDir dir;
  const auto file = dir.write("wall.yaml", R"(name: wall
robot:
  type: rigid2d
  geometry: {box: [0.2, 0.2, 0.1]}
bounds: {lower: [0, 0], upper: [4, 2]}
scene:
  obstacles:
    - {name: wall, box: [0.4, 4, 0.4], pose: {xyz: [1.2, 1, 0]}}
start: [0.5, 1, 0]
goal: [0.5, 1.5, 0]
checker: {type: adaptive}
)");
  const Problem problem = loadProblem(file);
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  std::atomic<std::uint64_t> drawn{0};
  CheckStats queries;
  SamplingContext context(*checker, 0.02, 1, drawn, nullptr, queries);
  RetractionSampler sampler(context);
  for (const double y : {1.0, 0.6, 1.4}) {
    Config q(3);
    q << 0.95, y, 0.0;
    REQUIRE_FALSE(checker->isValid(q));
    REQUIRE(sampler.retract(q));
    INFO("retracted to " << q.transpose());
    REQUIRE(checker->isValid(q));
    CHECK(q[0] < 0.9);
    CHECK(q[0] > 0.8);
    CHECK(std::abs(q[1] - y) < 1e-6);
    CHECK(std::abs(q[2]) < 0.01);  // the triangles' contacts are not quite symmetric
  }
  CHECK(queries.pair_tests >= 3);  // its contact queries counted where the context says
  CHECK(queries.primitive_tests > 0);
  // Wholly inside the wall, no triangle meets another: no way out to follow.
  Config inside(3);
  inside << 1.2, 1.0, 0.0;
  REQUIRE_FALSE(sampler.retract(inside));
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

TEST_CASE("expansion never adds invalid nodes or unchecked edges to a PRM roadmap", "[sampling][slow]") {
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
      const NodeSourceStats* expansion = test::nodeSource(result, "expansion");
      REQUIRE(expansion != nullptr);
      CHECK(expansion->nodes == result.planner_stats.expansion_nodes);
    }
  }
}

TEST_CASE("lazy PRM's component join adds only valid nodes on free edges, counted by its own source", "[sampling]") {
  for (const std::string name : {"thin_wall", "maze2d"}) {
    DYNAMIC_SECTION(name) {
      // Seed 2 grows both roadmaps past the 300 vertices at which the join starts.
      const Problem problem =
          test::loadForPlanning(name, {"planner.type=lazy_prm", "planner.lazy_prm.join=50", "seed=2"});
      auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
      const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
      INFO(result.status);
      REQUIRE(result.solved);
      REQUIRE(result.planner_stats.join_nodes > 0);
      const NodeSourceStats* join = test::nodeSource(result, "join");
      REQUIRE(join != nullptr);
      CHECK(join->nodes == result.planner_stats.join_nodes);
      CHECK(join->static_checks >= join->samples_drawn);  // each draw is followed by at least one step's check
      auto exact = makeChecker(problem.checker, problem.robot, problem.scene);
      for (const Config& q : result.roadmap_configs) REQUIRE(exact->isValid(q));
      // The join's edges are checked when made: every edge the roadmap calls free is.
      std::size_t freeEdges = 0;
      for (const auto& [a, b, state] : result.roadmap_edge_list) {
        if (state != EdgeState::Free) continue;
        ++freeEdges;
        REQUIRE(exact->checkEdge(result.roadmap_configs[a], result.roadmap_configs[b]).verdict == Verdict::Free);
      }
      CHECK(freeEdges >= result.planner_stats.join_nodes);  // each join node came with its edge
    }
  }
}

TEST_CASE("lazy PRM's toggle adds valid nodes between colliding witnesses, in the slot of a thin wall", "[sampling]") {
  // thin_wall's only way through its 2 cm wall is a 0.3 m slot at its centre.
  // The witnesses of edges found colliding lie on the wall; a free
  // configuration between two of them is in the slot or beside the wall:
  // toggle's nodes put more of the roadmap in the slot than the batches
  // alone, over seeds 1-6 together (a seed that solves early has few).
  auto plan = [](const std::string& toggle, int seed) {
    const Problem problem = test::loadForPlanning(
        "thin_wall", {"planner.type=lazy_prm", "planner.lazy_prm.toggle=" + toggle, "seed=" + std::to_string(seed)});
    auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
    return std::pair{makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal), problem};
  };
  auto inSlot = [](const PlanResult& result) {
    std::size_t count = 0;
    for (const Config& q : result.roadmap_configs)
      count += std::abs(q[0]) < 0.1 && std::abs(q[1]) < 0.15 && std::abs(q[2]) < 0.15;
    return count;
  };
  std::size_t slotAlone = 0, verticesAlone = 0, slotToggled = 0, verticesToggled = 0, toggleNodes = 0;
  for (int seed = 1; seed <= 6; ++seed) {
    const auto [alone, problem] = plan("0", seed);
    const auto [toggled, sameProblem] = plan("4", seed);
    REQUIRE(alone.solved);
    REQUIRE(toggled.solved);
    CHECK(test::nodeSource(alone, "toggle") == nullptr);
    const NodeSourceStats* toggle = test::nodeSource(toggled, "toggle");
    REQUIRE(toggle != nullptr);
    CHECK(toggle->samples_drawn == 0);              // it draws nothing: it probes between witnesses
    CHECK(toggle->static_checks >= toggle->nodes);  // each node is a probe found free
    // Its probes stay within the sampling sources' checks: the budget is
    // looked at before each witness, whose segments take at most 4 x 31 probes.
    std::uint64_t sampled = 0;
    for (const NodeSourceStats& s : toggled.node_sources)
      if (s.source != "toggle") sampled += s.static_checks;
    CHECK(toggle->static_checks <= sampled + 4 * kMaxTogglePoints);
    auto exact = makeChecker(problem.checker, problem.robot, problem.scene);
    for (const Config& q : toggled.roadmap_configs) REQUIRE(exact->isValid(q));
    toggleNodes += toggle->nodes;
    slotAlone += inSlot(alone);
    verticesAlone += alone.roadmap_configs.size();
    slotToggled += inSlot(toggled);
    verticesToggled += toggled.roadmap_configs.size();
  }
  INFO("roadmap vertices in the slot: alone " << slotAlone << " of " << verticesAlone << ", with toggle " << slotToggled
                                              << " of " << verticesToggled << " (" << toggleNodes << " toggle nodes)");
  REQUIRE(toggleNodes > 0);
  CHECK(static_cast<double>(slotToggled) / static_cast<double>(verticesToggled) >
        1.5 * static_cast<double>(slotAlone) / static_cast<double>(verticesAlone));
}

TEST_CASE("lazy PRM's iterative relaxation: a shrunk robot's path guides nodes free for the real one", "[sampling]") {
  // thin_wall's 10 cm box passes a 0.3 m slot; shrunk to 0.6 it is a 6 cm
  // box. Each relaxed stage is solved by its own lazy PRM on a checker
  // remade for the shrunk box; the last solved stage's path, spaced, is
  // checked once per configuration for the real box, and the free ones are
  // nodes of source `relaxed`. The result does not depend on the thread count.
  std::size_t guidedNodes = 0;
  for (int seed = 1; seed <= 3; ++seed) {
    std::vector<std::vector<Config>> paths;
    for (const std::string threads : {"1", "2"}) {
      const Problem problem = test::loadForPlanning(
          "thin_wall", {"planner.type=lazy_prm", "planner.lazy_prm.relax=0.6", "planner.lazy_prm.relax_stages=2",
                        "planner.threads=" + threads, "planner.helpers_after=0", "seed=" + std::to_string(seed)});
      auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
      const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
      REQUIRE(result.solved);
      REQUIRE(result.relaxation.size() == 2);
      CHECK(result.relaxation[0].factor == 0.6);
      CHECK(result.relaxation[1].factor == Approx(0.8));
      std::size_t guide = 0;
      for (const RelaxedStage& stage : result.relaxation) {
        CHECK(stage.solved == (stage.guide_configs > 0));
        CHECK(stage.static_checks >= stage.samples_drawn);  // each drawn sample is checked
        if (stage.solved) guide = stage.guide_configs;
      }
      const NodeSourceStats* relaxed = test::nodeSource(result, "relaxed");
      REQUIRE((relaxed != nullptr) == (guide > 0));
      if (relaxed) {
        CHECK(relaxed->static_checks == guide);  // each guide configuration checked once
        CHECK(relaxed->nodes <= relaxed->static_checks);
        CHECK(relaxed->samples_drawn == 0);
        guidedNodes += relaxed->nodes;
      }
      auto exact = makeChecker(problem.checker, problem.robot, problem.scene);
      for (const Config& q : result.roadmap_configs) REQUIRE(exact->isValid(q));
      for (std::size_t i = 0; i + 1 < result.path.size(); ++i)
        REQUIRE(exact->checkEdge(result.path[i], result.path[i + 1]).verdict == Verdict::Free);
      paths.push_back(result.path);
    }
    REQUIRE(paths[0] == paths[1]);
  }
  REQUIRE(guidedNodes > 0);
}

TEST_CASE("a relaxed stage's path spaced for the next: waypoints kept, steps at most the spacing", "[sampling]") {
  const Problem problem = loadProblem(test::problemFile("thin_wall"));
  const Robot& robot = *problem.robot;
  Random rng(11);
  std::vector<Config> path(4);
  for (Config& q : path) robot.sampleUniform(rng, q);
  const double spacing = 0.05 * robot.maxExtent();
  const std::vector<Config> spaced = spacedPath(robot, path, spacing, 100'000);
  REQUIRE(spaced.front() == path.front());
  REQUIRE(spaced.back() == path.back());
  std::size_t kept = 0;
  for (const Config& q : spaced) kept += std::count(path.begin(), path.end(), q) > 0;
  REQUIRE(kept == path.size());
  for (std::size_t i = 0; i + 1 < spaced.size(); ++i)
    REQUIRE(robot.distance(spaced[i], spaced[i + 1]) <= spacing * (1 + 1e-9));
  // A bound on the count spaces them wider; the waypoints stay.
  const std::vector<Config> few = spacedPath(robot, path, spacing, 12);
  REQUIRE(few.size() <= 12);
  REQUIRE(few.size() >= path.size());
  REQUIRE(few.back() == path.back());
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

TEST_CASE("the baffled bug trap's rod cannot slide straight out of the exit", "[sampling]") {
  // The exit corridor runs along x from 0.4 m to 1 m between lips 0.2 m
  // apart; the plate's near face is at x = 1.5 m. The rod lies along x at
  // zero yaw and is 0.7 m long.
  const Problem problem = loadProblem(test::problemFile("bug_trap_baffle"));
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  REQUIRE(checker->isValid(problem.start));
  REQUIRE(checker->isValid(problem.goal));
  auto alongX = [&](double x) {
    Config q = problem.start;
    q.head<3>() << x, 0, 0;
    q.tail<4>() << 0, 0, 0, 1;
    return q;
  };
  CHECK(checker->isValid(alongX(0.7)));  // in the corridor
  CHECK(checker->isValid(alongX(1.1)));  // its head out in the gap, 5 cm from the plate
  CHECK_FALSE(checker->isValid(alongX(1.2)));
  CHECK(checker->checkEdge(alongX(0.7), alongX(1.1)).verdict == Verdict::Free);
  CHECK(checker->checkEdge(alongX(1.1), alongX(2.2)).verdict == Verdict::Colliding);
}

TEST_CASE("the default mix's narrow-passage share grows with the roadmap while start and goal are apart",
          "[sampling]") {
  CHECK(Planner::narrowPassageShare(2) == 0.0);
  CHECK(Planner::narrowPassageShare(299) == 0.0);
  CHECK(Planner::narrowPassageShare(300) == 0.25);
  CHECK(Planner::narrowPassageShare(399) == 0.25);
  CHECK(Planner::narrowPassageShare(400) == 0.5);
  CHECK(Planner::narrowPassageShare(500) == 0.75);
  CHECK(Planner::narrowPassageShare(1000000) == 0.75);
}

TEST_CASE("the default mix turns to the narrow-passage samplers once the start's component stops growing",
          "[sampling]") {
  // The start is walled in: every batch leaves start and goal apart, and
  // the start's component keeps a smaller share of the roadmap each time.
  const test::TempDir dir;
  const auto file = dir.write("walled_in.yaml", R"(name: walled_in
robot:
  type: rigid2d
  geometry: {box: [0.2, 0.2, 0.1]}
bounds: {lower: [0, 0], upper: [4, 4]}
scene:
  obstacles:
    - {name: south, box: [1.2, 0.1, 0.1], pose: {xyz: [1, 0.45, 0]}}
    - {name: north, box: [1.2, 0.1, 0.1], pose: {xyz: [1, 1.55, 0]}}
    - {name: west, box: [0.1, 1.2, 0.1], pose: {xyz: [0.45, 1, 0]}}
    - {name: east, box: [0.1, 1.2, 0.1], pose: {xyz: [1.55, 1, 0]}}
start: [1, 1, 0]
goal: [3.5, 3.5, 0]
planner: {type: lazy_prm}
checker: {type: discrete}
limits: {time: 600, samples: 20000}
)");
  auto sourceNodes = [](const PlanResult& result, const std::string& name) {
    const auto found = std::find_if(result.node_sources.begin(), result.node_sources.end(),
                                    [&](const NodeSourceStats& s) { return s.source == name; });
    return found == result.node_sources.end() ? std::uint64_t{0} : found->nodes;
  };
  auto plan = [&](const std::string& sampler, const std::filesystem::path& problemFile) {
    std::vector<std::string> overrides{"seed=2"};
    if (!sampler.empty()) overrides.push_back("planner.sampler=" + sampler);
    const Problem problem = loadProblem(problemFile, {overrides, true});
    auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
    return makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
  };
  const PlanResult walledIn = plan("", file);
  REQUIRE_FALSE(walledIn.solved);
  REQUIRE(walledIn.planner_stats.batches >= 4);
  const std::uint64_t uniform = sourceNodes(walledIn, "uniform");
  std::uint64_t narrow = 0;
  for (const std::string_view name : kShiftingNarrowPassageSamplers) {
    INFO(name);
    CHECK(sourceNodes(walledIn, std::string(name)) > 0);
    narrow += sourceNodes(walledIn, std::string(name));
  }
  CHECK(sourceNodes(walledIn, "bridge") == 0);
  CHECK(sourceNodes(walledIn, "obstacle_based") == 0);
  // medial_axis's clearance queries are the plan's only distance queries:
  // `discrete` makes none.
  CHECK(walledIn.check_stats.distance_queries > 0);
  // Three quarters of the later batches' samples, and they are most of the roadmap.
  CHECK(narrow > uniform);

  // prm shifts by the samples it drew.
  const Problem walledPrm = loadProblem(file, {{"seed=2", "planner.type=prm", "limits.samples=4000"}, true});
  auto prmChecker = makeChecker(walledPrm.checker, walledPrm.robot, walledPrm.scene);
  const PlanResult prm = makePlanner(walledPrm.planner)->solve(*prmChecker, walledPrm.start, walledPrm.goal);
  REQUIRE_FALSE(prm.solved);
  CHECK(sourceNodes(prm, "medial_axis") > 0);
  CHECK(sourceNodes(prm, "gaussian") > 0);
  CHECK(sourceNodes(prm, "retraction") > 0);

  // Chosen by name, a mix stays as chosen.
  const PlanResult chosen = plan("uniform", file);
  REQUIRE(chosen.node_sources.size() >= 1);
  CHECK(chosen.node_sources[0].source == "uniform");
  CHECK(sourceNodes(chosen, "medial_axis") == 0);
  CHECK(chosen.check_stats.distance_queries == 0);

  // Start and goal joined before 300 vertices: the default draws what
  // `uniform` draws, the same roadmap and path.
  const auto tiny = dir.write("tiny.yaml", test::kTinyProblem);
  const PlanResult byDefault = plan("", tiny), byUniform = plan("uniform", tiny);
  REQUIRE(byDefault.solved);
  CHECK(byDefault.roadmap_vertices == byUniform.roadmap_vertices);
  CHECK(byDefault.path == byUniform.path);
  CHECK(sourceNodes(byDefault, "uniform") == sourceNodes(byUniform, "uniform"));

  // An arm's default stays uniform: a chain whose ends never join (edges
  // only within a micro-radius) past 300 vertices draws what `uniform`
  // draws, on both planners, where the rigid body above shifted.
  for (const std::string planner : {"lazy_prm", "prm"}) {
    INFO(planner);
    auto arm = [&](const std::string& sampler) {
      std::vector<std::string> overrides{"planner.type=" + planner, "planner.radius=0.000001", "limits.samples=3000"};
      if (!sampler.empty()) overrides.push_back("planner.sampler=" + sampler);
      const Problem problem = test::loadForPlanning("chain5", overrides);
      auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
      return makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
    };
    const PlanResult armDefault = arm(""), armUniform = arm("uniform");
    REQUIRE_FALSE(armDefault.solved);
    REQUIRE(armDefault.roadmap_vertices > 400);
    CHECK(sourceNodes(armDefault, "gaussian") == 0);
    CHECK(sourceNodes(armDefault, "medial_axis") == 0);
    CHECK(sourceNodes(armDefault, "retraction") == 0);
    CHECK(armDefault.check_stats.distance_queries == armUniform.check_stats.distance_queries);
    CHECK(armDefault.roadmap_vertices == armUniform.roadmap_vertices);
    CHECK(armDefault.roadmap_edge_list == armUniform.roadmap_edge_list);
  }
}
