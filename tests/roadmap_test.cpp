// Planners that keep their roadmap: many queries on one roadmap, roadmaps
// saved and read (docs/roadmap-format.md), and `plan --queries/--roadmap/--save-roadmap`.
#include "eval/planning_run.h"
#include "setup/build_problem.h"
#include "eval/verify.h"
#include "io/roadmap_file.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

using namespace prmkit;
namespace fs = std::filesystem;
using test::cli;
using test::TempDir;

namespace {

/// The shipped maze with the wall-clock limit lifted: seeds and sample limits decide.
PlanningRun mazeRun(const std::string& planner, const std::vector<std::string>& more = {}) {
  std::vector<std::string> overrides{"planner.type=" + planner, "planner.threads=1"};
  overrides.insert(overrides.end(), more.begin(), more.end());
  return setUpPlanningRun(test::loadForPlanning("maze2d", overrides));
}

/// A path's every edge free under the dense check `verify` uses.
bool pathIsFree(const Problem& problem, const std::vector<Config>& path, const Config& start, const Config& goal) {
  if (path.empty() || path.front() != start || path.back() != goal) return false;
  Problem query = withRunSettings(problem, {});
  query.start = start;
  query.goal = goal;
  return verifyPath(query, path, defaultVerifyEps(query)).valid;
}

Config config(std::initializer_list<double> values) {
  Config q(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (const double v : values) q[i++] = v;
  return q;
}

/// Every edge's ends and state, in a form two roadmaps can be compared by.
std::vector<std::tuple<std::vector<double>, std::vector<double>, EdgeState>> edgeList(const Roadmap& roadmap) {
  std::vector<std::tuple<std::vector<double>, std::vector<double>, EdgeState>> edges;
  const RoadmapGraph& g = roadmap.graph();
  for (const Edge e : boost::make_iterator_range(boost::edges(g))) {
    const Config& a = g[boost::source(e, g)].q;
    const Config& b = g[boost::target(e, g)].q;
    std::vector<double> x(a.data(), a.data() + a.size()), y(b.data(), b.data() + b.size());
    if (y < x) std::swap(x, y);
    edges.emplace_back(std::move(x), std::move(y), g[e].state);
  }
  std::sort(edges.begin(), edges.end());
  return edges;
}

}  // namespace

TEST_CASE("one termination: a deadline from the run's start and a stop flag its copies share end setup and solve",
          "[roadmap]") {
  using namespace std::chrono_literals;
  const Termination::Clock::time_point now = Termination::Clock::now();
  const Termination late = Termination::after(1.0, now - 2s);  // begun 2 s ago with a 1 s limit
  CHECK(late.expired());
  CHECK(late.secondsLeft() < -0.9);
  CHECK(late.elapsed_s() >= 2.0);
  const Termination hour = Termination::after(3600.0, now);
  CHECK_FALSE(hour.expired());
  CHECK(hour.secondsLeft() > 3000.0);
  CHECK(Termination::after(Termination::kNoDeadline_s).secondsLeft() == Termination::kNoDeadline_s);
  const Termination copy = hour;
  copy.requestStop();
  CHECK(hour.stopRequested());
  CHECK(hour.expired());

  // The setup steps see the thread's termination while its scope lasts.
  CHECK_NOTHROW(checkSetupDeadline("building a BVH"));
  {
    const ScopedSetupTermination scope(late);
    CHECK_THROWS_WITH(checkSetupDeadline("building a BVH"), "the time limit ran out while building a BVH");
    {
      const ScopedSetupTermination inner(Termination::after(3600.0));
      CHECK_NOTHROW(checkSetupDeadline("building a BVH"));
    }
    CHECK_THROWS_AS(checkSetupDeadline("reading mesh file", "a.stl"), SetupTimeLimit);
  }
  CHECK_NOTHROW(checkSetupDeadline("building a BVH"));

  // A solve given the run's termination: its setup counted, ended at the deadline or by the flag.
  PlanningRun run = mazeRun("lazy_prm");
  const PlanResult expired = run.planner->solve(*run.checker, run.problem.start, run.problem.goal, nullptr, late);
  CHECK(expired.status == PlanStatus::TimeLimit);
  CHECK(expired.planner_stats.samples_drawn == 0);
  CHECK(expired.setup_time_s >= 2.0);
  run.planner->clear();
  const PlanResult stopped = run.planner->solve(*run.checker, run.problem.start, run.problem.goal, nullptr, hour);
  CHECK(stopped.status == PlanStatus::Cancelled);
  CHECK(stopped.planner_stats.samples_drawn == 0);
  run.planner->clear();
  const PlanResult own = run.planner->solve(*run.checker, run.problem.start, run.problem.goal);
  CHECK(own.status == PlanStatus::Solved);
  CHECK(own.setup_time_s == 0.0);
}

TEST_CASE("a planner's first query is a fresh planner's, and later ones plan on its roadmap", "[roadmap]") {
  for (const std::string planner : {"lazy_prm", "prm"}) {
    INFO(planner);
    PlanningRun fresh = mazeRun(planner);
    const PlanResult alone = fresh.solve();
    REQUIRE(alone.solved);

    PlanningRun run = mazeRun(planner);
    const PlanResult first = run.solve();
    REQUIRE(first.path == alone.path);
    REQUIRE(first.planner_stats.samples_drawn == alone.planner_stats.samples_drawn);
    REQUIRE(first.check_stats.static_queries == alone.check_stats.static_queries);
    REQUIRE(first.roadmap_vertices_reused == 0);
    REQUIRE(first.earlier_queries == 0);

    // The same query again: both ends are vertices already, the path is on the roadmap.
    const PlanResult again = run.solve();
    REQUIRE(again.solved);
    REQUIRE(again.earlier_queries == 1);
    REQUIRE(again.roadmap_vertices_reused == first.roadmap_vertices);
    REQUIRE(again.roadmap_vertices == first.roadmap_vertices);
    REQUIRE(again.planner_stats.samples_drawn == 0);
    REQUIRE(pathIsFree(run.problem, again.path, run.problem.start, run.problem.goal));

    // Another query between other ends: two new vertices, a valid path.
    const Config from = config({1, 3, 0}), to = config({9, 7, 0});  // between walls 1 and 2, and 3 and 4
    const PlanResult other = run.planner->solve(*run.checker, from, to, run.verifier.get());
    REQUIRE(other.solved);
    REQUIRE(other.earlier_queries == 2);
    REQUIRE(other.roadmap_vertices_reused == first.roadmap_vertices);
    REQUIRE(other.roadmap_vertices >= first.roadmap_vertices + 2);
    REQUIRE(pathIsFree(run.problem, other.path, from, to));
    // The roadmap answers it with fewer samples than a new one needs.
    PlanningRun alone2 = mazeRun(planner);
    const PlanResult otherAlone = alone2.planner->solve(*alone2.checker, from, to, alone2.verifier.get());
    REQUIRE(otherAlone.solved);
    REQUIRE(other.planner_stats.samples_drawn < otherAlone.planner_stats.samples_drawn);

    // clear() forgets: the next query is a new planner's first.
    run.planner->clear();
    const PlanResult cleared = run.solve();
    REQUIRE(cleared.path == alone.path);
    REQUIRE(cleared.earlier_queries == 0);
  }
}

TEST_CASE("a saved roadmap reads back whole and plans its query without a sample", "[roadmap]") {
  TempDir dir;
  PlanningRun run = mazeRun("lazy_prm");
  const PlanResult first = run.solve();
  REQUIRE(first.solved);
  const std::string text = roadmapText(run.problem, *run.planner->roadmap(), run.planner->nodeSourceNames());
  const fs::path file = dir.write("maze.roadmap", text);

  // Read for another load of the problem (another robot object, the same robot).
  PlanningRun next = mazeRun("lazy_prm");
  std::size_t validAsked = 0;
  LoadedRoadmap loaded = readRoadmapFile(file, next.problem, [&](const Config&) {
    ++validAsked;
    return true;
  });
  REQUIRE(loaded.verdicts_kept);
  REQUIRE(validAsked == 0);
  REQUIRE(loaded.source_names == run.planner->nodeSourceNames());
  REQUIRE(loaded.roadmap->vertexCount() == run.planner->roadmap()->vertexCount());
  REQUIRE(edgeList(*loaded.roadmap) == edgeList(*run.planner->roadmap()));
  for (Vertex v = 0; v < loaded.roadmap->vertexCount(); ++v) {
    REQUIRE(loaded.roadmap->config(v) == run.planner->roadmap()->config(v));
    REQUIRE(loaded.roadmap->graph()[v].source == run.planner->roadmap()->graph()[v].source);
  }
  // Written again, the same text.
  REQUIRE(roadmapText(run.problem, *loaded.roadmap, loaded.source_names) == text);

  next.planner->adoptRoadmap(std::move(loaded.roadmap), loaded.source_names);
  const PlanResult reread = next.solve();
  REQUIRE(reread.solved);
  REQUIRE(reread.planner_stats.samples_drawn == 0);
  REQUIRE(reread.roadmap_vertices_reused == first.roadmap_vertices);
  REQUIRE(pathIsFree(next.problem, reread.path, next.problem.start, next.problem.goal));
}

TEST_CASE("a roadmap read under another checker keeps no verdict and drops the vertices that collide", "[roadmap]") {
  TempDir dir;
  PlanningRun run = mazeRun("lazy_prm");
  const std::string fingerprint = roadmapFingerprint(run.problem);
  // Three vertices: two free, one inside the pillar at (5, 5); two edges, one to the colliding vertex.
  const std::string body =
      "robot rigid2d 3 x y theta\nfingerprint {}\nnode_sources 1 uniform\nvertices 3\n"
      "0 1 1 0\n- 5 5 0\n0 1 1.5 0\nedges 2\n0 2 free\n1 2 free\n";
  const fs::path same = dir.write("same.roadmap", "prmkit roadmap 1\n" + fmt::format(fmt::runtime(body), fingerprint));
  const fs::path other =
      dir.write("other.roadmap", "prmkit roadmap 1\n" + fmt::format(fmt::runtime(body), "0123456789abcdef"));
  const auto valid = [&](const Config& q) { return run.checker->isValid(q); };

  const LoadedRoadmap kept = readRoadmapFile(same, run.problem, valid);
  REQUIRE(kept.verdicts_kept);
  REQUIRE(kept.roadmap->vertexCount() == 3);
  REQUIRE(kept.roadmap->edgeCount() == 2);

  const LoadedRoadmap checked = readRoadmapFile(other, run.problem, valid);
  REQUIRE_FALSE(checked.verdicts_kept);
  REQUIRE(checked.vertices_dropped == 1);
  REQUIRE(checked.edges_dropped == 1);
  REQUIRE(checked.roadmap->vertexCount() == 2);
  REQUIRE(checked.roadmap->edgeCount() == 1);
  for (const Edge e : boost::make_iterator_range(boost::edges(checked.roadmap->graph())))
    REQUIRE(checked.roadmap->graph()[e].state == EdgeState::Unchecked);

  // Another checker's settings are another fingerprint.
  PlanningRun discrete = mazeRun("lazy_prm", {"checker.type=discrete"});
  REQUIRE(roadmapFingerprint(discrete.problem) != fingerprint);
  PlanningRun moved = mazeRun("lazy_prm", {"planner.k=12"});
  REQUIRE(roadmapFingerprint(moved.problem) == fingerprint);  // the planner's settings give no verdict
}

TEST_CASE("a bad roadmap file is refused at its line and column", "[roadmap][hostile]") {
  TempDir dir;
  PlanningRun run = mazeRun("lazy_prm");
  const std::string fingerprint = roadmapFingerprint(run.problem);
  const std::string head = fmt::format("prmkit roadmap 1\nrobot rigid2d 3 x y theta\nfingerprint {}\n", fingerprint);
  const auto valid = [](const Config&) { return true; };
  const std::vector<std::tuple<std::string, std::string, std::string>> cases{
      {"", ":1:1:", "the file ends where the header was expected"},
      {"prmkit roadmap 2\n", ":1:1:", "format 1"},
      {"prmkit roadmap 1\nrobot planar_chain 2 a b\n", ":2:1:", "not of this problem's robot"},
      {head + "node_sources 1\n", ":4:1:", "'node_sources 1' and 1 names"},
      {head + "node_sources 0\nvertices 99999999999\n", ":5:10:", "at most 10000000"},
      {head + "node_sources 0\nvertices 1\n- 1 1\n", ":6:", "3 coordinates"},
      {head + "node_sources 0\nvertices 1\n- 1 nan 0\n", ":6:5:", "expected y (a finite number), got 'nan'"},
      {head + "node_sources 0\nvertices 1\n0 1 1 0\n", ":6:1:", "node source 0, but the file names 0"},
      {head + "node_sources 0\nvertices 1\n- 11 1 0\n", ":6:3:", "out of the robot's bounds"},
      {head + "node_sources 0\nvertices 2\n- 1 1 0\n", ":7:1:", "the file ends where vertex 1 of 2 was expected"},
      {head + "node_sources 0\nvertices 2\n- 1 1 0\n- 1 1.5 0\nedges 1\n0 2 free\n", ":9:3:", "vertex 2 of 2"},
      {head + "node_sources 0\nvertices 2\n- 1 1 0\n- 1 1.5 0\nedges 1\n1 1 free\n", ":9:3:", "to itself"},
      {head + "node_sources 0\nvertices 2\n- 1 1 0\n- 1 1.5 0\nedges 1\n0 1 colliding\n",
       ":9:5:", "expected the edge's state"},
      {head + "node_sources 0\nvertices 2\n- 1 1 0\n- 1 1.5 0\nedges 2\n0 1 free\n1 0 free\n",
       ":10:1:", "listed twice"},
      {head + "node_sources 0\nvertices 2\n- 1 1 0\n- 1 1.5 0\nedges 0\nmore\n", ":9:1:", "text after the 0 edges"},
  };
  for (const auto& [text, where, what] : cases) {
    const fs::path file = dir.write("bad.roadmap", text);
    INFO(text);
    try {
      readRoadmapFile(file, run.problem, valid);
      FAIL("accepted");
    } catch (const InputError& e) {
      const std::string message = e.what();
      INFO(message);
      REQUIRE(message.find(file.string() + where) == 0);
      REQUIRE(message.find(what) != std::string::npos);
    }
  }
}

TEST_CASE("plan --queries answers every pair on one roadmap and --save-roadmap/--roadmap carry it on",
          "[roadmap][cli]") {
  TempDir dir;
  const fs::path problem = dir.write("p.yaml", test::kTinyProblem);
  const fs::path queries = dir.write("q.yaml",
                                     "queries:\n"
                                     "  - {start: [0.5, 0.5, 0], goal: [3.5, 3.5, 0]}\n"
                                     "  - {start: [3.5, 3.5, 0], goal: [0.5, 3.5, 0]}\n"
                                     "  - {start: [0.5, 0.5, 0], goal: [3.5, 3.5, 0]}\n");
  const fs::path roadmap = dir.path / "tiny.roadmap";
  const auto run = cli({"plan", problem.string(), "--queries", queries.string(), "--out", (dir.path / "a").string(),
                        "--seed", "2", "--save-roadmap", roadmap.string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  REQUIRE_FALSE(fs::exists(dir.path / "a/path.csv"));
  const auto stats = nlohmann::json::parse(test::readText(dir.path / "a/stats.json"));
  REQUIRE(stats.at("queries").size() == 3);
  REQUIRE(stats.at("solved_queries") == 3);
  REQUIRE(stats.at("queries")[2].at("samples_drawn") == 0);    // the first query's ends and path, again
  REQUIRE(stats.at("queries")[0].at("earlier_queries") == 0);  // every query has the keys
  REQUIRE(stats.at("queries")[1].at("earlier_queries") == 1);
  // queries.csv: one block of rows per query, each a path between its ends.
  std::ifstream csv(dir.path / "a/queries.csv");
  std::string line;
  std::getline(csv, line);
  REQUIRE(line == "query,x,y,theta");
  std::map<int, std::vector<Config>> paths;
  while (std::getline(csv, line)) {
    std::stringstream cells(line);
    std::string cell;
    std::getline(cells, cell, ',');
    const int query = std::stoi(cell);
    Config q(3);
    for (int i = 0; i < 3 && std::getline(cells, cell, ','); ++i) q[i] = std::stod(cell);
    paths[query].push_back(q);
  }
  REQUIRE(paths.size() == 3);
  const Problem loaded = loadProblem(problem);
  REQUIRE(pathIsFree(loaded, paths[1], config({0.5, 0.5, 0}), config({3.5, 3.5, 0})));
  REQUIRE(pathIsFree(loaded, paths[2], config({3.5, 3.5, 0}), config({0.5, 3.5, 0})));
  REQUIRE(paths[3] == paths[1]);

  // The saved roadmap plans the problem's own query without a sample.
  const auto reread =
      cli({"plan", problem.string(), "--roadmap", roadmap.string(), "--out", (dir.path / "b").string()});
  INFO(reread.out << reread.err);
  REQUIRE(reread.code == 0);
  const auto again = nlohmann::json::parse(test::readText(dir.path / "b/stats.json"));
  REQUIRE(again.at("samples_drawn") == 0);
  REQUIRE(again.at("roadmap_read").at("verdicts_kept") == true);
  REQUIRE(again.at("roadmap_vertices_reused") == stats.at("roadmap_vertices"));
}

TEST_CASE("plan refuses bad queries and roadmaps for planners without one, writing nothing",
          "[roadmap][cli][hostile]") {
  TempDir dir;
  const fs::path problem = dir.write("p.yaml", test::kTinyProblem);
  const fs::path inBlock = dir.write("q.yaml", "queries:\n  - {start: [0.5, 0.5, 0], goal: [2, 2, 0]}\n");
  const fs::path empty = dir.write("e.yaml", "queries: []\n");
  const fs::path typo = dir.write("t.yaml", "queries:\n  - {start: [0.5, 0.5, 0], gaol: [2, 2, 0]}\n");
  const fs::path out = dir.path / "out";
  for (const auto& [file, message] :
       {std::pair{inBlock, "the queries[1].goal configuration is in collision"},
        std::pair{empty, "expected 'queries' to be a non-empty list"}, std::pair{typo, "gaol"}}) {
    const auto run = cli({"plan", problem.string(), "--queries", file.string(), "--out", out.string()});
    INFO(run.err);
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find(file.string() + (file == empty ? ":1:10: " : ":2:")) != std::string::npos);
    REQUIRE(run.err.find(message) != std::string::npos);
    REQUIRE_FALSE(fs::exists(out / "stats.json"));
  }
  const fs::path roadmap = dir.path / "r.roadmap";
  REQUIRE(cli({"plan", problem.string(), "--out", out.string(), "--save-roadmap", roadmap.string()}).code == 0);
  fs::remove_all(out);
  for (const std::vector<std::string>& flags : {std::vector<std::string>{"--roadmap", roadmap.string()},
                                                {"--save-roadmap", (dir.path / "s.roadmap").string()}}) {
    std::vector<std::string> args{"plan", problem.string(), "--out", out.string(), "--planner", "ompl:RRTConnect"};
    args.insert(args.end(), flags.begin(), flags.end());
    const auto run = cli(args);
    INFO(run.err);
    REQUIRE(run.code == 2);
    REQUIRE((run.err.find("keeps no roadmap") != std::string::npos ||
             run.err.find("takes no roadmap") != std::string::npos));
    REQUIRE_FALSE(fs::exists(out / "stats.json"));
    REQUIRE_FALSE(fs::exists(dir.path / "s.roadmap"));
  }
}
