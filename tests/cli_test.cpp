#include "app/cli.h"
#include "io/output_text.h"
#include "setup/build_problem.h"
#include "io/yaml_reader.h"
#include "base/input_file.h"
#include "base/names.h"
#include "registry/checker_registry.h"
#include "registry/planner_registry.h"
#include "sampling/sampler_registry.h"
#include "eval/static_check.h"
#include "test_support.h"

#include <assimp/version.h>
#include <catch2/catch.hpp>
#include <fcl/config.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ompl/config.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

using namespace prmkit;
namespace fs = std::filesystem;
using test::cli;
using test::Run;
using test::TempDir;

namespace {

const std::string& kValidProblem = test::kTinyProblem;

}  // namespace

TEST_CASE("plan writes path, stats and picture and verify accepts the path", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const Run run =
      cli({"plan", problem.string(), "--out", (dir.path / "out").string(), "--planner", "prm", "--seed", "3"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  REQUIRE(fs::exists(dir.path / "out/path.csv"));
  REQUIRE(fs::exists(dir.path / "out/stats.json"));
  REQUIRE(fs::exists(dir.path / "out/scene.svg"));
  std::ifstream stats(dir.path / "out/stats.json");
  const std::string json((std::istreambuf_iterator<char>(stats)), {});
  REQUIRE(json.find("\"planner\": \"prm\"") != std::string::npos);
  REQUIRE(json.find("\"seed\": 3") != std::string::npos);
  REQUIRE(cli({"verify", problem.string(), (dir.path / "out/path.csv").string()}).code == 0);
  REQUIRE(cli({"validate", problem.string()}).code == 0);
}

namespace {
/// How many segments (moves) the picture's <path> elements of class `name` hold, summed over the views.
std::size_t pictureSegments(const std::string& svg, const std::string& name) {
  std::size_t segments = 0;
  const std::string opening = "<path class=\"" + name + "\"";
  for (std::size_t at = svg.find(opening); at != std::string::npos; at = svg.find(opening, at + 1)) {
    const std::size_t from = svg.find(" d=\"", at) + 4, to = svg.find('"', from);
    const std::string d = svg.substr(from, to - from);
    const auto moves = static_cast<std::size_t>(std::count(d.begin(), d.end(), 'M'));
    REQUIRE(static_cast<std::size_t>(std::count(d.begin(), d.end(), 'L')) == moves);
    segments += moves;
  }
  return segments;
}
}  // namespace

TEST_CASE("the picture draws every roadmap edge and every path step once per view", "[cli]") {
  TempDir dir;
  const auto planar = dir.write("p.yaml", kValidProblem);
  struct Case {
    std::vector<std::string> args;
    std::size_t views;
  };
  const std::vector<Case> cases = {
      {{planar.string(), "--planner", "lazy_prm", "--seed", "2"}, 1},
      {{planar.string(), "--planner", "prm", "--seed", "2"}, 1},
      {{test::problemFile("bug_trap3d").string(), "--planner", "lazy_prm", "--seed", "1", "--set",
        "limits.samples=3000"},
       2},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"plan"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.insert(args.end(), {"--out", (dir.path / "out").string()});
    const Run run = cli(args);
    INFO(run.err);
    REQUIRE((run.code == 0 || run.code == 1));
    const auto stats = nlohmann::json::parse(test::readText(dir.path / "out/stats.json"));
    const std::string svg = test::readText(dir.path / "out/scene.svg");
    const auto edges = stats["roadmap_edges"].get<std::size_t>();
    REQUIRE(edges > 0);
    CHECK(pictureSegments(svg, "roadmap-free") + pictureSegments(svg, "roadmap-unchecked") == c.views * edges);
    const auto waypoints = stats["waypoints"].get<std::size_t>();
    CHECK(pictureSegments(svg, "path") == c.views * (waypoints > 0 ? waypoints - 1 : 0));
    fs::remove_all(dir.path / "out");
  }
}

TEST_CASE("verify rejects a path through an obstacle with exit code 1", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const auto path = dir.write("path.csv", "x,y,theta\n0.5,0.5,0\n3.5,3.5,0\n");
  const Run run = cli({"verify", problem.string(), path.string()});
  REQUIRE(run.code == 1);
  REQUIRE(run.out.find("segment 0") != std::string::npos);
  REQUIRE(run.out.find("obstacle 'block'") != std::string::npos);
  // A thin wall crossed in one straight segment, with an obstacle 4 km away
  // that makes the scene huge: the default step follows the robot's size, so
  // the far obstacle cannot coarsen the judge until it steps over the wall.
  const auto far = dir.write(
      "far.yaml",
      test::replaceOnce(test::replaceOnce(kValidProblem, "- {name: block, box: [1, 1, 0.1], pose: {xyz: [2, 2, 0]}}",
                                          "- {name: wall, box: [0.02, 4, 0.1], pose: {xyz: [2, 2, 0]}}\n"
                                          "    - {name: far, box: [1, 1, 0.1], pose: {xyz: [3000, 3000, 0]}}"),
                        "goal: [3.5, 3.5, 0]", "goal: [3.5, 0.5, 0]"));
  const Run wall = cli({"verify", far.string(), dir.write("wall.csv", "x,y,theta\n0.5,0.5,0\n3.5,0.5,0\n").string()});
  INFO(wall.out << wall.err);
  REQUIRE(wall.code == 1);
  REQUIRE(wall.out.find("obstacle 'wall'") != std::string::npos);
}

TEST_CASE("plan's time limit covers loading and building the checkers", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  // No setup takes less than a nanosecond: loading stops at its first step
  // (the robot's BVH), and the run ends as one that used up its limit.
  const Run run = cli({"plan", problem.string(), "--time-limit", "1e-9", "--out", (dir.path / "out").string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 1);
  REQUIRE(run.out.find("not solved (time limit): the time limit ran out while building a BVH") != std::string::npos);
  const auto stats = nlohmann::json::parse(test::readText(dir.path / "out" / "stats.json"));
  REQUIRE(stats.at("setup_time_s").get<double>() > 1e-9);
  REQUIRE(stats.at("status") == "time limit");
  REQUIRE(stats.at("solved") == false);
  REQUIRE_FALSE(fs::exists(dir.path / "out" / "path.csv"));
  // A scene of 20 000 obstacles takes seconds to build (each a BVH and a
  // convex cover); a limit of 50 ms stops it on any machine, the slower the
  // surer (a run never finishes setup in 2.5 us per obstacle).
  std::string many = kValidProblem;
  std::string obstacles;
  for (int i = 0; i < 20000; ++i)
    obstacles += fmt::format("    - {{name: o{}, box: [0.01, 0.01, 0.01], pose: {{xyz: [{}, 0.05, 1]}}}}\n", i,
                             0.1 + 3.8 * i / 20000.0);
  many = test::replaceOnce(many, "  obstacles:\n", "  obstacles:\n" + obstacles);
  const auto manyFile = dir.write("many.yaml", many);
  const Run manyRun = cli({"plan", manyFile.string(), "--time-limit", "0.05", "--out", (dir.path / "many").string()});
  INFO(manyRun.out);
  REQUIRE(manyRun.code == 1);
  REQUIRE(manyRun.out.find("not solved (time limit): the time limit ran out while") != std::string::npos);
  const auto manyStats = nlohmann::json::parse(test::readText(dir.path / "many" / "stats.json"));
  REQUIRE(manyStats.at("status") == "time limit");
}

TEST_CASE("an output that cannot be written is refused before any work, exit 2", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const auto path = dir.write("path.csv", "x,y,theta\n0.5,0.5,0\n3.5,3.5,0\n");
  // A folder below a regular file, or in /proc (which root may "access" but not
  // write): each command says so before loading, planning or checking anything.
  const auto blocker = dir.write("blocker", "");
  const std::string below = (blocker / "out").string();
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Case> cases{
      {{"plan", problem.string(), "--out", below}, "--out '" + below + "': '" + blocker.string() + "' is not a folder"},
      {{"plan", problem.string(), "--out", "/proc/prmkit-out"}, "cannot write into '/proc'"},
      {{"check", problem.string(), "--random", "3", "--out", (blocker / "v.csv").string()}, "is not a folder"},
      {{"check", problem.string(), "--random", "3", "--out", dir.path.string()}, "is a folder, expected a file name"},
      {{"verify", problem.string(), path.string(), "--html", "/proc/v.html"}, "--html '/proc/v.html'"},
      {{"compare", problem.string(), "--runs", "1", "--out", below}, "is not a folder"},
      {{"experiment", (dir.path / "absent.yaml").string(), "--out", below}, "is not a folder"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.args[0] << " " << c.args.back()) {
      const Run run = cli(c.args);
      INFO(run.out << run.err);
      REQUIRE(run.code == 2);
      REQUIRE(run.err.find(c.expected) != std::string::npos);
      REQUIRE(run.out.empty());  // refused before the first line of work
      REQUIRE(fs::is_regular_file(blocker));
    }
  }
  // The same problem with a writable --out plans.
  REQUIRE(cli({"plan", problem.string(), "--out", (dir.path / "out").string()}).code == 0);
}

TEST_CASE("bad input: one clear message, exit code 2, no output file", "[cli]") {
  struct Case {
    std::string name, text, expected;
  };
  const std::vector<Case> cases{
      {"YAML syntax error", test::replaceOnce(kValidProblem, "start: [0.5, 0.5, 0]", "start: [0.5, 0.5, 0"), "p.yaml:"},
      {"unknown key", test::replaceOnce(kValidProblem, "limits: {time: 5}", "limits: {tme: 5}"),
       "p.yaml:11:10: unknown key 'tme' in 'limits'"},
      {"misspelled top-level key", test::replaceOnce(kValidProblem, "goal:", "gaol:"), "unknown key 'gaol'"},
      {"wrong type", test::replaceOnce(kValidProblem, "limits: {time: 5}", "limits: {time: fast}"),
       "p.yaml:11:16: expected a number for 'limits.time (s)'"},
      {"missing mesh file", test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]", "mesh: {file: nowhere.stl}"),
       "nowhere.stl' does not exist"},
      {"empty mesh", test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]", "mesh: {file: empty.obj}"), "empty.obj"},
      {"NaN", test::replaceOnce(kValidProblem, "goal: [3.5, 3.5, 0]", "goal: [3.5, .nan, 0]"),
       "p.yaml:10:13: expected a finite number for 'goal'"},
      {"infinity", test::replaceOnce(kValidProblem, "upper: [4, 4]", "upper: [4, .inf]"),
       "expected a finite number for 'bounds.upper'"},
      {"wrong number of start coordinates",
       test::replaceOnce(kValidProblem, "start: [0.5, 0.5, 0]", "start: [0.5, 0.5]"),
       "p.yaml:9:8: expected 'start' to be a list of 3 numbers (x, y, theta), got 2"},
      {"start written as a pose for a robot without one",
       test::replaceOnce(kValidProblem, "start: [0.5, 0.5, 0]", "start: {xyz: [0.5, 0.5, 0]}"),
       "p.yaml:9:8: expected 'start' to be a list of 3 numbers (x, y, theta)"},
      {"a start coordinate that is not a number",
       test::replaceOnce(kValidProblem, "start: [0.5, 0.5, 0]", "start: [0.5, half, 0]"),
       "p.yaml:9:14: expected a number for 'start'"},
      {"start out of bounds", test::replaceOnce(kValidProblem, "start: [0.5, 0.5, 0]", "start: [5, 0.5, 0]"),
       "p.yaml:9:8: the start configuration is out of bounds"},
      {"goal in collision", test::replaceOnce(kValidProblem, "goal: [3.5, 3.5, 0]", "goal: [2, 2, 0]"),
       "p.yaml:10:7: the goal configuration is in collision (link 'body' with obstacle 'block')"},
      {"zero time limit", test::replaceOnce(kValidProblem, "limits: {time: 5}", "limits: {time: 0}"),
       "expected a positive number for 'limits.time (s)'"},
      {"negative k", kValidProblem + "planner: {k: -3}\n", "p.yaml:12:14: planner.k must be in [1, 1000], got -3"},
      {"unknown planner", kValidProblem + "planner: {type: rrt}\n", "unknown planner 'rrt'"},
      {"unknown path check", kValidProblem + "planner: {path_check: all}\n",
       "p.yaml:12:23: unknown planner.path_check 'all' (expected one of: first_collision, whole_path)"},
      {"bad robot type", test::replaceOnce(kValidProblem, "type: rigid2d", "type: hovercraft"),
       "p.yaml:3:9: unknown robot type 'hovercraft'"},
      // Found by the fuzz_problem target (it was yaml-cpp's own exception, without a position).
      {"robot not a map",
       test::replaceOnce(kValidProblem, "robot:\n  type: rigid2d\n  geometry: {box: [0.2, 0.2, 0.1]}\n",
                         "robot: rigid2d\n"),
       "p.yaml:2:8: expected 'robot' to be a map"},
      // Coordinates of 1e300 made every roadmap edge infinitely long, and the
      // search's path reconstruction looped until memory ran out.
      {"bounds beyond the coordinate limit", test::replaceOnce(kValidProblem, "upper: [4, 4]", "upper: [1e300, 1e300]"),
       "p.yaml:5:9: bounds must lie within +-1e+09 m"},
      {"obstacle beyond the coordinate limit", test::replaceOnce(kValidProblem, "xyz: [2, 2, 0]", "xyz: [2e12, 2, 0]"),
       "a pose must be finite and within 1e+09 m"},
      {"mesh beyond the coordinate limit", test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]", "box: [1e300, 1, 0.1]"),
       "coordinates must be finite and within 1e+09 m"},
      // A step too small to split an edge into at most 10^9 segments was refused only at the first edge.
      {"discretization step too small", kValidProblem + "checker: {type: discrete, discrete: {resolution: 1e-300}}\n",
       "p.yaml:12:50: checker.discrete.resolution must be in [1e-09, 1]"},
      {"eta beyond the coordinate limit", kValidProblem + "checker: {adaptive: {eta: 1e300}}\n",
       "p.yaml:12:27: checker.adaptive.eta must be in [0, 1e+09]"},
      {"duplicate key", kValidProblem + "goal: [0.5, 3.5, 0]\n",
       "p.yaml:12:1: duplicate key 'goal' (first at line 10, column 1)"},
      {"duplicate nested key", test::replaceOnce(kValidProblem, "limits: {time: 5}", "limits: {time: 5, time: 50}"),
       "p.yaml:11:19: duplicate key 'time' (first at line 11, column 10)"},
      // Counts past what memory holds were an allocation failure with no location.
      {"absurd neighbour count", kValidProblem + "planner: {k: 1000000000000}\n",
       "p.yaml:12:14: planner.k must be in [1, 1000], got 1000000000000"},
      {"absurd sample limit", test::replaceOnce(kValidProblem, "limits: {time: 5}", "limits: {samples: 2000000000}"),
       "p.yaml:11:19: expected an integer <= 1000000000 for 'limits.samples'"},
      // Names reach stats.json, whose writer stopped at the first byte that is not UTF-8.
      {"not UTF-8", test::replaceOnce(kValidProblem, "name: tiny", "name: caf\xe9"),
       "p.yaml:1:10: not UTF-8 text (byte 0xe9)"},
      // Its extrusion would not bound a volume, and solids are told by an inside test.
      {"self-intersecting polygon",
       test::replaceOnce(kValidProblem, "geometry: {box: [0.2, 0.2, 0.1]}",
                         "geometry: {polygon: {points: [[0, 0], [0.2, 0.2], [0.2, 0], [0, 0.3]]}}"),
       "polygon edges 1 and 3 cross: the polygon must be simple"},
      {"absurd generator count",
       test::replaceOnce(kValidProblem, "geometry: {box: [0.2, 0.2, 0.1]}",
                         "geometry: {generator: {type: gear, teeth: 1000000000, root_radius: 0.08, tip_radius: 0.1, "
                         "bore_radius: 0.03, thickness: 0.05}}"),
       "gear teeth is at most 31250, got 1000000000"},
      {"absurd obstacle count",
       test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]", "generator: {type: random, count: 100000000}"),
       "random obstacles count is at most 40000"},
      {"unknown key beside the robot's geometry",
       test::replaceOnce(kValidProblem, "geometry: {box: [0.2, 0.2, 0.1]}",
                         "geometry: {box: [0.2, 0.2, 0.1], size: 2}"),
       "unknown key 'size' in 'robot.geometry'"},
      {"flattening mesh scale",
       test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]", "mesh: {file: cube.obj, scale: [1, 0, 1]}"),
       "mesh scale factors must be nonzero"},
      {"workspace step beyond the coordinate limit",
       kValidProblem + "checker: {type: discrete, discrete: {eps: 1e300}}\n",
       "checker.discrete.eps must be in (0, 1e+09]"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      TempDir dir;
      dir.write("empty.obj", "# no faces\n");
      dir.write("cube.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
      const auto problem = dir.write("p.yaml", c.text);
      const auto out = dir.path / "out";
      const Run run = cli({"plan", problem.string(), "--out", out.string()});
      INFO(run.err);
      REQUIRE(run.code == 2);
      REQUIRE(run.err.find(c.expected) != std::string::npos);
      REQUIRE(std::count(run.err.begin(), run.err.end(), '\n') == 1);
      REQUIRE_FALSE(fs::exists(out));
    }
  }
}

TEST_CASE("settings are checked before any geometry: a typo is reported, not the mesh that follows", "[cli]") {
  // The scene names a mesh file that does not exist and a generator at its
  // largest size: had either been read or built first, its error (or its
  // seconds) would come before the settings' typo.
  const std::string scene =
      "mesh: {file: nowhere.stl}, pose: {xyz: [2, 2, 0]}}\n"
      "    - {name: big, generator: {type: spring, segments: 31250, sides: 16}}";
  std::string text = test::replaceOnce(kValidProblem, "box: [1, 1, 0.1], pose: {xyz: [2, 2, 0]}}", scene);
  text += "planner: {type: lazy_prm, bacth: 200}\n";
  TempDir dir;
  const auto file = dir.write("p.yaml", text);
  for (const std::string command : {"validate", "plan"}) {
    std::vector<std::string> args{command, file.string()};
    if (command == "plan") args.insert(args.end(), {"--out", (dir.path / "out").string()});
    const Run run = cli(args);
    INFO(command << ": " << run.err);
    REQUIRE(run.code == 2);
    REQUIRE_THAT(run.err, Catch::Contains("p.yaml:13:") && Catch::Contains("unknown key 'bacth'"));
    REQUIRE(run.err.find("nowhere.stl") == std::string::npos);
  }
  // A value out of its range is found as early.
  const auto range = dir.write("range.yaml", test::replaceOnce(text, "bacth: 200", "batch: 0"));
  const Run run = cli({"validate", range.string()});
  REQUIRE(run.code == 2);
  REQUIRE_THAT(run.err, Catch::Contains("batch") && !Catch::Contains("nowhere.stl"));
}

TEST_CASE("the whole problem is checked before any geometry: a scene or robot slip after a mesh is reported first",
          "[cli]") {
  // The first obstacle names a mesh file that does not exist: had it been
  // read before the rest of the file was checked, its error would come first.
  const auto withLast = [](const std::string& obstacle) {
    return test::replaceOnce(kValidProblem, "box: [1, 1, 0.1], pose: {xyz: [2, 2, 0]}}",
                             "mesh: {file: nowhere.stl}, pose: {xyz: [2, 2, 0]}}\n    - {" + obstacle);
  };
  TempDir dir;
  struct Case {
    std::string obstacle;  // the last obstacle, after the missing mesh
    std::string expected;
  };
  const std::vector<Case> cases{
      {"name: last, box: [1, 1, 0.1], pos: {xyz: [0, 0, 0]}}", "unknown key 'pos'"},
      {"name: last, generator: {type: spring, turns: -1}}", "spring turns must be positive"},
      {"name: last, generator: {type: random, count: 3, min_size: 2, max_size: 1, separate: true}}",
       "0 < min_size <= max_size"},
      {"name: last, generator: {type: house, rooms_x: 0}}", "rooms_x and rooms_y must be at least 1"},
      {"name: last, polygon: {points: [[0, 0], [1, 0]]}}", "polygon"},
      {"name: last, sphere: {radius: 0}}", "radius"},
  };
  for (const Case& c : cases) {
    const auto file = dir.write("p.yaml", withLast(c.obstacle));
    const Run run = cli({"validate", file.string()});
    INFO(c.obstacle << ": " << run.err);
    REQUIRE(run.code == 2);
    REQUIRE_THAT(run.err, Catch::Contains("p.yaml:") && Catch::Contains(c.expected));
    REQUIRE(run.err.find("nowhere.stl") == std::string::npos);
  }
  // With the slip fixed, the missing mesh is reported, at the line that names it.
  const auto fixed = dir.write("p.yaml", withLast("name: last, box: [1, 1, 0.1]}"));
  const Run run = cli({"validate", fixed.string()});
  REQUIRE(run.code == 2);
  REQUIRE_THAT(run.err, Catch::Contains("p.yaml:") && Catch::Contains("nowhere.stl"));
  // A robot whose body is a missing mesh file, or whose URDF is missing: a scene slip is still reported first.
  const std::string slip = test::replaceOnce(kValidProblem, "pose: {xyz: [2, 2, 0]}", "pos: {xyz: [2, 2, 0]}");
  const std::string meshRobot =
      test::replaceOnce(slip, "geometry: {box: [0.2, 0.2, 0.1]}", "geometry: {mesh: {file: nowhere-robot.stl}}");
  const std::string urdfRobot =
      test::replaceOnce(test::replaceOnce(slip, "  type: rigid2d\n  geometry: {box: [0.2, 0.2, 0.1]}\n",
                                          "  type: urdf\n  file: nowhere.urdf\n"),
                        "bounds: {lower: [0, 0], upper: [4, 4]}\n", "");
  for (const std::string& text : {meshRobot, urdfRobot}) {
    const Run robotRun = cli({"validate", dir.write("robot.yaml", text).string()});
    INFO(robotRun.err);
    REQUIRE(robotRun.code == 2);
    REQUIRE_THAT(robotRun.err, Catch::Contains("robot.yaml:") && Catch::Contains("unknown key 'pos'"));
    REQUIRE(robotRun.err.find("nowhere") == std::string::npos);
  }
}

TEST_CASE("a problem spec is read without touching its geometry, and built where each part was written", "[cli]") {
  TempDir dir;
  const auto file = dir.write(
      "p.yaml", test::replaceOnce(test::replaceOnce(kValidProblem, "box: [1, 1, 0.1], pose: {xyz: [2, 2, 0]}}",
                                                    "box: [1, 1, 0.1], pose: {xyz: [2, 2, 0]}}\n"
                                                    "    - {name: far, mesh: {file: nowhere.stl, scale: 2}}\n"
                                                    "    - {name: spring, generator: {type: spring, turns: 3}}"),
                                  "limits: {time: 5}", "limits: {time: 7}\nplanner: {type: prm, k: 12}"));
  const ProblemSpec spec = readProblemSpec(file, {{"seed=4"}, true});
  CHECK(spec.name == "tiny");
  CHECK(spec.planner.type == "prm");
  CHECK(spec.planner.time_limit_s == 7.0);
  CHECK(spec.planner.seed == 4);
  CHECK(spec.robot.type == "rigid2d");
  REQUIRE(spec.scene.obstacles.size() == 3);
  const auto& far = std::get<MeshFileSpec>(spec.scene.obstacles[1].geometry.shape);
  CHECK(far.file.filename() == "nowhere.stl");
  CHECK(far.scale == Eigen::Vector3d::Constant(2.0));
  CHECK(std::get<SpringParams>(std::get<GeneratorSpec>(spec.scene.obstacles[2].geometry.shape)).turns == 3.0);
  // Built: the missing file is found then, and named where the problem named it.
  try {
    buildProblem(spec, {{}, true});
    FAIL("a missing mesh file was built");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("p.yaml:9:") && Catch::Contains("nowhere.stl"));
  }
  // Without it, the same spec builds what loadProblem loads.
  const auto good = dir.write(
      "good.yaml",
      test::replaceOnce(test::readText(file), "    - {name: far, mesh: {file: nowhere.stl, scale: 2}}\n", ""));
  const Problem built = buildProblem(readProblemSpec(good, {{"seed=4"}, true}), {{}, true});
  const Problem loaded = loadProblem(good, {{"seed=4"}, true});
  CHECK(built.scene->obstacles().size() == 2);
  CHECK(built.scene->obstacles().size() == loaded.scene->obstacles().size());
  CHECK(built.scene->obstacles()[1].mesh.triangles.size() == loaded.scene->obstacles()[1].mesh.triangles.size());
  CHECK(built.start == loaded.start);
  CHECK(built.planner.seed == 4);
}

TEST_CASE("problem files that are not regular files or are too large are refused before they are read", "[cli]") {
  TempDir dir;
  const Run folder = cli({"validate", dir.path.string()});
  REQUIRE(folder.code == 2);
  REQUIRE(folder.err.find("not a regular file") != std::string::npos);
  const Run device = cli({"validate", "/dev/zero"});
  REQUIRE(device.code == 2);
  REQUIRE(device.err.find("YAML file '/dev/zero' does not exist or is not a regular file") != std::string::npos);
  // A sparse file just over the limit: refused by its size, never read.
  const auto big = dir.path / "big.yaml";
  { std::ofstream(big) << "name: big\n"; }
  fs::resize_file(big, kMaxYamlFileBytes + 1);
  const Run tooBig = cli({"validate", big.string()});
  REQUIRE(tooBig.code == 2);
  REQUIRE(tooBig.err.find("YAML file '" + big.string() + "' has 67108865 bytes, more than the 64 MiB prmkit reads") !=
          std::string::npos);
  // Meshes, URDF, SRDF and OMPL.app files too, each with its own limit.
  auto withMesh = [&](const fs::path& mesh) {
    return dir.write("m.yaml", test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]",
                                                 fmt::format("mesh: {{file: '{}'}}", mesh.string())));
  };
  const Run meshDevice = cli({"validate", withMesh("/dev/zero").string()});
  REQUIRE(meshDevice.code == 2);
  REQUIRE(meshDevice.err.find("mesh file '/dev/zero' does not exist or is not a regular file") != std::string::npos);
  const auto bigMesh = dir.path / "big.stl";
  { std::ofstream(bigMesh) << "solid big\n"; }
  fs::resize_file(bigMesh, kMaxMeshFileBytes + 1);
  const Run meshTooBig = cli({"validate", withMesh(bigMesh).string()});
  REQUIRE(meshTooBig.code == 2);
  REQUIRE(meshTooBig.err.find("more than the 256 MiB prmkit reads") != std::string::npos);
  const auto arm = test::problemFile("arm6_shelf");
  const auto armText = [&] {
    std::ifstream in(arm);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }();
  const auto robots = test::sourceDir() / "configs" / "robots";
  const Run urdfDevice =
      cli({"validate", dir.write("u.yaml", test::replaceOnce(armText, "../robots/arm6.urdf", "/dev/zero")).string()});
  REQUIRE(urdfDevice.code == 2);
  REQUIRE(urdfDevice.err.find("URDF '/dev/zero' does not exist or is not a regular file") != std::string::npos);
  const auto bigSrdf = dir.path / "big.srdf";
  { std::ofstream(bigSrdf) << "<robot/>\n"; }
  fs::resize_file(bigSrdf, kMaxDescriptionFileBytes + 1);
  const Run srdfTooBig =
      cli({"validate", dir.write("s.yaml", test::replaceOnce(test::replaceOnce(armText, "../robots/arm6.urdf",
                                                                               (robots / "arm6.urdf").string()),
                                                             "../robots/arm6.srdf", bigSrdf.string()))
                           .string()});
  REQUIRE(srdfTooBig.code == 2);
  REQUIRE(srdfTooBig.err.find("SRDF '" + bigSrdf.string() + "' has 67108865 bytes, more than the 64 MiB") !=
          std::string::npos);
  fs::create_directory(dir.path / "folder.cfg");
  const Run cfgFolder = cli({"validate", (dir.path / "folder.cfg").string()});
  REQUIRE(cfgFolder.code == 2);
  REQUIRE(cfgFolder.err.find("is not a regular file") != std::string::npos);
  // An unknown .cfg key is text, not a pattern: a key that would be a
  // catastrophic regular expression is reported with its line at once.
  const Run cfgKey = cli({"validate", dir.write("k.cfg", "[problem]\nname = k\n(a+)+$ = 1\n").string()});
  REQUIRE(cfgKey.code == 2);
  REQUIRE(cfgKey.err.find("k.cfg:3: unknown key '(a+)+$' in [problem]") != std::string::npos);
  // Nested aliases that would make a walk of the document explode are cut off.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i)
    bomb +=
        fmt::format("a{0}: &a{0} [*a{1}, *a{1}, *a{1}, *a{1}, *a{1}, *a{1}, *a{1}, *a{1}, *a{1}, *a{1}]\n", i, i - 1);
  const Run aliases = cli({"validate", dir.write("bomb.yaml", bomb).string()});
  REQUIRE(aliases.code == 2);
  REQUIRE(aliases.err.find(fmt::format("more than {} YAML nodes", kMaxYamlNodes)) != std::string::npos);
  const Run duplicateOverride =
      cli({"validate", dir.write("p.yaml", kValidProblem).string(), "--set", "limits={time: 5, time: 6}"});
  REQUIRE(duplicateOverride.code == 2);
  REQUIRE(duplicateOverride.err.find("duplicate key 'time'") != std::string::npos);
}

TEST_CASE("URDF collision elements urdfdom cannot read are an error, not dropped geometry", "[cli]") {
  TempDir dir;
  const std::string joint =
      R"(<joint name="j{0}" type="revolute"><parent link="{1}"/><child link="l{0}"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
)";
  auto urdf = [&](const std::string& geometry) {
    return "<robot name=\"r\">\n<link name=\"base\"><collision><geometry><box size=\"0.1 0.1 "
           "0.1\"/></geometry></collision></link>\n"
           "<link name=\"l1\">\n<collision><geometry><box size=\"0.1 0.1 0.3\"/></geometry></collision>\n" +
           geometry + "</link>\n" + fmt::format(fmt::runtime(joint), 1, "base") + "</robot>\n";
  };
  const std::string problem = R"(name: u
robot: {type: urdf, file: r.urdf}
scene: {obstacles: [{name: b, box: [0.1, 0.1, 0.1], pose: {xyz: [3, 0, 0]}}]}
start: [0]
goal: [0.5]
)";
  const auto file = dir.write("p.yaml", problem);
  dir.write("r.urdf", urdf(""));
  REQUIRE(cli({"validate", file.string()}).code == 0);
  // A capsule (not a URDF shape), a cylinder without its length, a box with a word for a size.
  for (const std::string bad : {R"(<collision><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>)",
                                R"(<collision><geometry><cylinder radius="0.05"/></geometry></collision>)",
                                R"(<collision><geometry><box size="0.1 0.1 oops"/></geometry></collision>)"}) {
    dir.write("r.urdf", urdf(bad + "\n"));
    const Run run = cli({"validate", file.string()});
    INFO(bad << "\n" << run.err);
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find("r.urdf:3: link 'l1' has 2 collision elements and urdfdom read 1") != std::string::npos);
  }
  // What urdfdom's parser (TinyXML 2.6) never sees: bytes that are not UTF-8
  // (a lead byte at the very end, an overlong sequence, a stray continuation
  // byte), and malformed XML, refused with their place; character entities
  // arrive resolved and the file still loads.
  for (const auto& [text, where] : std::vector<std::pair<std::string, std::string>>{
           {urdf("") + "<!-- \xF0", "r.urdf:9:6: not UTF-8 text (byte 0xf0)"},
           {urdf("<!-- \xC0\xAF -->\n"), "r.urdf:5:6: not UTF-8 text (byte 0xc0)"},
           {"<robot name=\"\x80\"/>", "r.urdf:1:14: not UTF-8 text (byte 0x80)"},
           {urdf("<collision>&#x;</collision>\n").substr(0, 120), "r.urdf:"}}) {
    dir.write("r.urdf", text);
    const Run run = cli({"validate", file.string()});
    INFO(run.err);
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find(where) != std::string::npos);
  }
  std::string entities = urdf("");
  entities.replace(entities.find("<robot name=\"r\">"), 16, "<robot name=\"&#x72;&amp;&#60;\">");
  dir.write("r.urdf", entities);
  REQUIRE(cli({"validate", file.string()}).code == 0);
}

TEST_CASE("plan commits its files only when no other run holds the folder's lock", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const auto out = dir.path / "out";
  fs::create_directories(out);
  // Another run (a sweep, or a plan committing) holds the folder.
  const int fd = ::open((out / ".prmkit.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  Run run{};
  std::thread planning([&] { run = cli({"plan", problem.string(), "--out", out.string()}); });
  // However far the plan got (this problem plans in milliseconds), nothing is
  // written while the lock is held: the files of the two runs cannot mix.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::vector<std::string> held;
  for (const auto& entry : fs::directory_iterator(out)) held.push_back(entry.path().filename().string());
  REQUIRE(held == std::vector<std::string>{".prmkit.lock"});
  ::close(fd);
  planning.join();
  REQUIRE(run.code == 0);
  REQUIRE(fs::exists(out / "path.csv"));
  REQUIRE(fs::exists(out / "stats.json"));
}

TEST_CASE("hostile files and values: special files, huge lines, steps that cannot be kept, markup in names", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const auto out = dir.path / "out";
  auto refused = [&](const std::vector<std::string>& args, const std::string& expected) {
    const Run run = cli(args);
    INFO(run.out << run.err);
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find(expected) != std::string::npos);
    REQUIRE(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    REQUIRE_FALSE(fs::exists(out));
    return run;
  };
  // Path and edge files were read with no size or kind check: /dev/zero never ended.
  refused({"verify", problem.string(), "/dev/zero"}, "path '/dev/zero' does not exist or is not a regular file");
  refused({"check", problem.string(), "--edges", "/dev/zero", "--out", (out / "v.csv").string()},
          "edges '/dev/zero' does not exist or is not a regular file");
  // A header line of a megabyte is quoted by its first characters only.
  const auto huge = dir.write("huge.csv", std::string(1 << 20, 'a') + "\n");
  const Run hugeRun = refused({"verify", problem.string(), huge.string()}, "expected the header 'x,y,theta', got 'aaa");
  REQUIRE(hugeRun.err.size() < 300);
  // verify's step at most the scene's size: a larger one checked the waypoints only and passed a path through the
  // block.
  const auto through = dir.write("through.csv", "x,y,theta\n0.5,0.5,0\n3.5,3.5,0\n");
  REQUIRE(cli({"verify", problem.string(), through.string()}).code == 1);
  refused({"verify", problem.string(), through.string(), "--eps", "100"}, "--eps 100 m: at most the scene's size");
  // Ground truths too dense for an edge are refused before the first edge, with the option's value.
  refused({"check", problem.string(), "--random", "5", "--truth-eps", "1e-300", "--out", (out / "v.csv").string()},
          "the ground truth's step (1e-300 m) is too small: edge 1 would need");
  refused({"check", problem.string(), "--random", "5", "--independent-truth", "1e-300"},
          "the independent truth's step (1e-300 of the C-space extent) is too small");
  refused({"check", problem.string(), "--random", "100000000000"}, "--random");
  // Found by fuzz_mesh: assimp dereferenced the missing count of a <float_array>.
  const std::string collada =
      R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <library_geometries><geometry id="tet"><mesh>
    <source id="p"><float_array id="pa">0 0 0 1 0 0 0 1 0 0 0 1</float_array>
      <technique_common><accessor source="#pa" count="4" stride="3"><param name="X" type="float"/>
        <param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="4"><input semantic="VERTEX" source="#v" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="scene"><node id="n"><instance_geometry url="#tet"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
  dir.write("tet.dae", collada);
  const auto withMesh =
      dir.write("mesh.yaml", test::replaceOnce(kValidProblem, "box: [1, 1, 0.1]", "mesh: {file: tet.dae}"));
  refused({"validate", withMesh.string()}, "tet.dae:4: <float_array> has no count attribute");
  dir.write("tet.dae", test::replaceOnce(collada, "<float_array id=\"pa\">", "<float_array id=\"pa\" count=\"12\">"));
  REQUIRE(cli({"validate", withMesh.string()}).code == 0);
  // A problem name is text in the SVG picture, not markup.
  const auto named =
      dir.write("named.yaml", test::replaceOnce(kValidProblem, "name: tiny", "name: \"<script>x</script>&\""));
  REQUIRE(cli({"plan", named.string(), "--out", out.string()}).code == 0);
  const std::string svg = test::readText(out / "scene.svg");
  REQUIRE(svg.find("<script>") == std::string::npos);
  REQUIRE(svg.find("&lt;script&gt;x&lt;/script&gt;&amp;") != std::string::npos);
}

TEST_CASE("URDF sizes that make no solid and joints below no root are refused", "[cli]") {
  TempDir dir;
  const std::string problem = R"(name: u
robot: {type: urdf, file: r.urdf}
scene: {obstacles: [{name: b, box: [0.1, 0.1, 0.1], pose: {xyz: [3, 0, 0]}}]}
start: [0]
goal: [0.5]
)";
  const auto file = dir.write("p.yaml", problem);
  auto urdf = [](const std::string& geometry, const std::string& parent) {
    return fmt::format(R"(<robot name="r">
<link name="base"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
<link name="l1"><collision><geometry>{}</geometry></collision></link>
<joint name="j1" type="revolute"><parent link="{}"/><child link="l1"/><axis xyz="0 0 1"/>
  <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
)",
                       geometry, parent);
  };
  dir.write("r.urdf", urdf(R"(<box size="0.1 0.1 0.3"/>)", "base"));
  REQUIRE(cli({"validate", file.string()}).code == 0);
  // urdfdom reads these numbers without complaint: an inside-out box, a point
  // for a sphere, a flat mesh; and a joint whose parent is its own child.
  for (const auto& [text, expected] : std::vector<std::pair<std::string, std::string>>{
           {urdf(R"(<box size="0.1 -0.1 0.3"/>)", "base"),
            "link 'l1': the box size must be positive and finite, got -0.1"},
           {urdf(R"(<sphere radius="0"/>)", "base"), "link 'l1': the sphere radius must be positive and finite, got 0"},
           {urdf(R"(<cylinder radius="0.1" length="-1"/>)", "base"), "the cylinder radius and length must be positive"},
           {urdf(R"(<mesh filename="m.obj" scale="1 0 1"/>)", "base"), "the mesh scale must be finite and nonzero"},
           {urdf(R"(<box size="0.1 0.1 0.3"/>)", "l1"), "joint 'j1' makes link 'l1' its own ancestor"}}) {
    dir.write("r.urdf", text);
    const Run run = cli({"validate", file.string()});
    INFO(text << run.err);
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find(expected) != std::string::npos);
  }
}

TEST_CASE("command-line overrides are reported as such, and bad command lines exit 2", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const Run bad = cli({"validate", problem.string(), "--set", "planner.k=zero"});
  REQUIRE(bad.code == 2);
  REQUIRE(bad.err.find("--set planner.k: expected an integer") != std::string::npos);
  REQUIRE(cli({"plan"}).code == 2);
  REQUIRE(cli({"frobnicate"}).code == 2);
  // Numbers out of range are refused, not wrapped or obeyed.
  const Run wrapped = cli({"validate", problem.string(), "--set", "seed=4294967296"});
  REQUIRE(wrapped.code == 2);
  REQUIRE(wrapped.err.find("expected an integer <= 4294967295 for 'seed', got 4294967296") != std::string::npos);
  REQUIRE(cli({"plan", problem.string(), "--seed", "4294967296", "--out", (dir.path / "o").string()}).code == 2);
  REQUIRE(cli({"compare", problem.string(), "--jobs", "50000", "--out", (dir.path / "o").string()}).code == 2);
  REQUIRE(cli({"plan", problem.string(), "--threads", "300", "--out", (dir.path / "o").string()}).code == 2);
  REQUIRE_FALSE(std::filesystem::exists(dir.path / "o"));
  const Run badPath = cli({"verify", problem.string(), dir.write("bad.csv", "x,y,theta\n0.5,oops,0\n").string()});
  REQUIRE(badPath.code == 2);
  REQUIRE(badPath.err.find("bad.csv:2:5: expected a finite number, got 'oops'") != std::string::npos);
}

TEST_CASE("a newcomer's first commands: usage, version, and errors that name the option typed", "[cli]") {
  const Run bare = cli({});
  CHECK(bare.code == 0);
  CHECK(bare.out.find("Usage: prmkit [OPTIONS] SUBCOMMAND") != std::string::npos);
  CHECK(bare.out.find("plan ") != std::string::npos);
  const Run version = cli({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out.rfind("prmkit " PRMKIT_PROJECT_VERSION "\n", 0) == 0);
  CHECK(version.out.find(fmt::format("OMPL {}.{}.{}", OMPL_MAJOR_VERSION, OMPL_MINOR_VERSION, OMPL_PATCH_VERSION)) !=
        std::string::npos);
  CHECK(version.out.find("FCL " FCL_VERSION) != std::string::npos);
  CHECK(version.out.find(fmt::format("assimp {}.{}.", aiGetVersionMajor(), aiGetVersionMinor())) != std::string::npos);
  const Run help = cli({"plan", "--help"});
  CHECK(help.out.find("Usage: prmkit plan [OPTIONS] [problem]") != std::string::npos);

  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  const std::string out = (dir.path / "o").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> typos{
      {{"plan", problem.string(), "--checker", "adaptiv", "--out", out},
       "--checker: unknown checker 'adaptiv' (did you mean 'adaptive'? expected one of: discrete, adaptive"},
      {{"plan", problem.string(), "--planner", "Lazy_PRM", "--out", out},
       "--planner: unknown planner 'Lazy_PRM' (did you mean 'lazy_prm'?"},
      {{"plan", problem.string(), "--sampler", "gausian", "--out", out},
       "--sampler: unknown sampler 'gausian' (did you mean 'gaussian'?"},
      {{"check", problem.string(), "--checker", "swetp", "--random", "3"},
       "--checker: unknown checker 'swetp' (did you mean 'swept'?"},
      {{"compare", problem.string(), "--checkers", "discrete,budgetted", "--out", out},
       "--checkers: unknown name 'budgetted' (did you mean 'budgeted'?"},
      // Nothing close: the list alone.
      {{"plan", problem.string(), "--checker", "fcl", "--out", out},
       "--checker: unknown checker 'fcl' (expected one of: discrete, adaptive"},
      {{"validate", problem.string(), "--set", "checker.type=adaptiv"},
       "--set checker.type: unknown checker 'adaptiv' (did you mean 'adaptive'?"}};
  for (const auto& [args, message] : typos) {
    INFO(fmt::format("{}", fmt::join(args, " ")));
    const Run run = cli(args);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains(message));
  }
  CHECK_FALSE(std::filesystem::exists(dir.path / "o"));

  // Commands and options: the closest one offered, exit 2.
  const Run plann = cli({"plann", problem.string()});
  CHECK(plann.code == 2);
  CHECK_THAT(plann.err, Catch::Contains("unknown command 'plann' (did you mean 'plan'?"));
  const Run chekcer = cli({"plan", problem.string(), "--chekcer", "adaptive", "--out", out});
  CHECK(chekcer.code == 2);
  CHECK_THAT(chekcer.err, Catch::Contains("(did you mean '--checker'?"));
  const Run chekcerEquals = cli({"plan", problem.string(), "--time-limt=3", "--out", out});
  CHECK(chekcerEquals.code == 2);
  CHECK_THAT(chekcerEquals.err, Catch::Contains("(did you mean '--time-limit'?"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "o"));
  // help CMD, as git and cargo take it.
  const Run helpPlan = cli({"help", "plan"});
  CHECK(helpPlan.code == 0);
  CHECK(helpPlan.out.find("Usage: prmkit plan [OPTIONS] [problem]") != std::string::npos);
  CHECK(cli({"help"}).out == bare.out);
  const Run helpTypo = cli({"help", "verfy"});
  CHECK(helpTypo.code == 2);
  CHECK_THAT(helpTypo.err, Catch::Contains("did you mean 'verify'?"));
}

TEST_CASE("list: every planner, checker and sampler with its settings, defaults and accepted values", "[cli]") {
  for (const std::string what : {"planners", "checkers", "samplers"}) {
    const Run json = cli({"list", what, "--json"});
    INFO(what << json.err);
    REQUIRE(json.code == 0);
    const auto list = nlohmann::json::parse(json.out);
    std::vector<std::string> names;
    for (const auto& item : list) names.push_back(item.at("name").get<std::string>());
    const std::vector<std::string> expected = what == "planners"   ? plannerNames()
                                              : what == "checkers" ? checkerNames()
                                                                   : samplerNames();
    for (const std::string& name : expected) CHECK(std::find(names.begin(), names.end(), name) != names.end());
    const Run text = cli({"list", what});
    REQUIRE(text.code == 0);
    for (const std::string& name : expected) CHECK_THAT(text.out, Catch::Contains(name + ": "));
  }
  const auto planners = nlohmann::json::parse(cli({"list", "planners", "--json"}).out);
  auto settingsOf = [&](const std::string& name) {
    for (const auto& item : planners)
      if (item.at("name") == name) return item.at("settings");
    FAIL("no planner " << name);
    return nlohmann::json();
  };
  bool range = false;
  for (const auto& setting : settingsOf("ompl:RRTConnect"))
    range = range || (setting.at("name") == "range" &&
                      setting.at("accepts").get<std::string>().find("10000") != std::string::npos);
  CHECK(range);
  bool batch = false;
  for (const auto& setting : settingsOf("lazy_prm"))
    batch = batch || (setting.at("name") == "batch" && setting.at("default") == "100");
  CHECK(batch);
  CHECK(cli({"list", "robots"}).code == 2);
}

TEST_CASE("stats.json records the version, the command line, every setting and the problem in force", "[cli]") {
  TempDir dir;
  const std::string out = (dir.path / "o").string();
  const std::vector<std::string> args{"plan",   test::problemFile("maze2d").string(),
                                      "--seed", "7",
                                      "--set",  "checker.adaptive.probes=9",
                                      "--set",  "start=[1, 1.1, 0]",
                                      "--out",  out};
  const Run run = cli(args);
  INFO(run.err);
  REQUIRE(run.code == 0);
  const auto stats = nlohmann::json::parse(test::readText(dir.path / "o" / "stats.json"));
  CHECK(stats.at("prmkit_version") == PRMKIT_PROJECT_VERSION);
  CHECK(stats.at("command_line") == args);
  const auto& settings = stats.at("settings");
  CHECK(settings.at("seed") == 7);
  CHECK(settings.at("checker").at("type") == "adaptive");
  CHECK(settings.at("checker").at("adaptive").at("probes") == 9);
  CHECK(settings.at("planner").at("type") == "lazy_prm");
  CHECK(settings.at("planner").at("lazy_prm").at("batch") == 100);
  CHECK(settings.at("limits").at("time").get<double>() > 0);
  // The problem's other sections as planned, the override applied, the settings left to `settings`.
  const YAML::Node described = YAML::Load(stats.at("problem_in_force").get<std::string>());
  const YAML::Node file = YAML::LoadFile(test::problemFile("maze2d").string());
  CHECK(described["name"].as<std::string>() == "maze2d");
  CHECK(described["robot"]["type"].as<std::string>() == file["robot"]["type"].as<std::string>());
  REQUIRE(described["scene"]["obstacles"].size() == file["scene"]["obstacles"].size());
  CHECK(described["scene"]["obstacles"][4]["name"].as<std::string>() ==
        file["scene"]["obstacles"][4]["name"].as<std::string>());
  CHECK(described["start"].as<std::vector<double>>() == std::vector<double>{1, 1.1, 0});
  CHECK(described["goal"].as<std::vector<double>>() == file["goal"].as<std::vector<double>>());
  CHECK_FALSE(described["planner"]);
  CHECK_FALSE(described["checker"]);
}

TEST_CASE("the closest name is offered only for a slip", "[cli]") {
  const std::vector<std::string> names{"discrete", "adaptive", "budgeted", "swept"};
  CHECK(closestName("adaptiv", names) == "adaptive");
  CHECK(closestName("ADAPTIVE", names) == "adaptive");
  CHECK(closestName("adpative", names) == "adaptive");  // two letters swapped: one edit
  CHECK(closestName("swpt", names) == "swept");
  CHECK(closestName("sweeps", names) == "swept");
  CHECK(closestName("fcl", names).empty());
  CHECK(closestName("", names).empty());
  CHECK(closestName("xyzzy", names).empty());
  CHECK(closestName(std::string(100000, 'a'), names).empty());
}

namespace {
/// Calls every configuration within the bounds valid: a checker that misses every collision.
class EverythingFree final : public Checker {
 public:
  using Checker::Checker;
  std::string name() const override { return "everything_free"; }
  std::string description() const override { return name(); }
  bool exact() const override { return false; }
  std::unique_ptr<Checker> clone() const override { return std::make_unique<EverythingFree>(robot_, scene_); }

 private:
  bool doIsValid(const Config&) override { return true; }
  EdgeResult doCheckEdge(const Config&, const Config&) override { return EdgeResult{Verdict::Free, 100.0, -1.0}; }
};
}  // namespace

TEST_CASE("check --configs: one static check a configuration, judged again on the meshes", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  // Free, free, inside the block, out of bounds.
  const auto configs = dir.write("configs.csv", "x,y,theta\n0.5,0.5,0\n3.5,3.5,0.2\n2,2,0\n5,0.5,0\n");
  for (const std::string checker : {"adaptive", "discrete", "spheres"}) {
    const auto out = dir.path / (checker + ".csv");
    const Run run =
        cli({"check", problem.string(), "--checker", checker, "--configs", configs.string(), "--out", out.string()});
    INFO(checker << ": " << run.err << run.out);
    REQUIRE(run.code == 0);
    REQUIRE(run.out.find("4 configurations") != std::string::npos);
    REQUIRE(run.out.find("verdicts: 2 valid, 2 invalid") != std::string::npos);
    REQUIRE(run.out.find("us per configuration") != std::string::npos);
    REQUIRE(run.out.find("0 misses (valid but colliding or out of bounds), 0 conservative") != std::string::npos);
    const std::string csv = test::readText(out);
    REQUIRE(std::regex_search(csv, std::regex("^index,valid,mesh_valid,time_us\n0,1,1,[0-9.]+\n1,1,1,[0-9.]+\n"
                                              "2,0,0,[0-9.]+\n3,0,0,[0-9.]+\n$")));
  }
  // A checker that misses: the collision is counted, the bounds are the interface's own.
  const Problem loaded = loadProblem(problem);
  EverythingFree blind(loaded.robot, loaded.scene);
  const StaticCheckReport report =
      checkConfigurations(loaded.robot, loaded.scene, blind, readConfigurationsCsv(configs, *loaded.robot));
  CHECK(report.valid == 3);
  CHECK(report.misses == 1);
  CHECK(report.conservative == 0);
  CHECK(report.stats.static_queries == 0);  // the meshes' check is not the checker's work

  const Run bad = cli({"check", problem.string(), "--configs", dir.write("b.csv", "x,y\n1,2\n").string()});
  REQUIRE(bad.code == 2);
  REQUIRE(bad.err.find("b.csv:1:1: expected the header 'x,y,theta'") != std::string::npos);
  const Run both = cli({"check", problem.string(), "--configs", configs.string(), "--random", "3"});
  REQUIRE(both.code == 2);
  REQUIRE(both.err.find("give it without --edges, --random") != std::string::npos);
}

TEST_CASE("check writes one verdict per edge, agrees with the ground truth, and rejects bad edge files", "[cli]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kValidProblem);
  // Edge 0 crosses the block; edge 1 stays below it.
  const auto edges =
      dir.write("edges.csv", "a.x,a.y,a.theta,b.x,b.y,b.theta\n0.5,0.5,0,3.5,3.5,0\n0.5,0.5,0,3.5,0.5,0.3\n");
  const auto out = dir.path / "verdicts.csv";
  const Run run = cli({"check", problem.string(), "--checker", "adaptive", "--edges", edges.string(), "--truth-eps",
                       "0.001", "--out", out.string()});
  INFO(run.err);
  REQUIRE(run.code == 0);
  REQUIRE(run.out.find("1 free, 1 colliding") != std::string::npos);
  REQUIRE(run.out.find("0 misses") != std::string::npos);
  std::ifstream file(out);
  const std::string csv((std::istreambuf_iterator<char>(file)), {});
  REQUIRE(csv.rfind("index,verdict,confidence,witness_t,unresolved,time_us,truth,witness_confirmed\n0,colliding,100,",
                    0) == 0);
  // time_us: the checker's own time on the edge (us).
  REQUIRE(std::regex_search(csv, std::regex("\n1,free,100,,0,[0-9]+\\.[0-9]{3},free,\n")));

  const Run random = cli({"check", problem.string(), "--random", "20", "--seed", "4"});
  REQUIRE(random.code == 0);
  REQUIRE(random.out.find("20 edges (random, seed 4)") != std::string::npos);

  REQUIRE(cli({"check", problem.string()}).err.find("exactly one of --edges FILE, --random N and --configs FILE") !=
          std::string::npos);
  const Run badRow = cli({"check", problem.string(), "--edges",
                          dir.write("bad.csv", "a.x,a.y,a.theta,b.x,b.y,b.theta\n0.5,0.5,0,3.5\n").string()});
  REQUIRE(badRow.code == 2);
  REQUIRE(badRow.err.find("bad.csv:2:1: expected 6 numbers, got 4") != std::string::npos);
  const Run badHeader = cli({"check", problem.string(), "--edges", dir.write("h.csv", "x,y\n1,2\n").string()});
  REQUIRE(badHeader.code == 2);
  REQUIRE(badHeader.err.find("h.csv:1:1: expected the header 'a.x,a.y,a.theta,b.x,b.y,b.theta'") != std::string::npos);
  const Run badSetting = cli({"check", problem.string(), "--random", "5", "--checker", "adaptive", "--set",
                              "checker.adaptive.distance_relative_error=-1"});
  REQUIRE(badSetting.code == 2);
  REQUIRE(badSetting.err.find("distance_relative_error must be in [0, 1e+06]") != std::string::npos);
  const Run badBound = cli({"check", problem.string(), "--random", "5", "--checker", "adaptive", "--set",
                            "checker.adaptive.motion_bound=tight"});
  REQUIRE(badBound.code == 2);
  REQUIRE(badBound.err.find("unknown checker.adaptive.motion_bound 'tight'") != std::string::npos);
  const Run tooManyProbes = cli({"check", problem.string(), "--random", "5", "--set", "checker.adaptive.probes=65"});
  REQUIRE(tooManyProbes.code == 2);
  REQUIRE(tooManyProbes.err.find("checker.adaptive.probes must be in [0, 64]") != std::string::npos);
  const Run badProbeStep = cli({"check", problem.string(), "--random", "5", "--set", "checker.adaptive.probe_step=2"});
  REQUIRE(badProbeStep.code == 2);
  REQUIRE(badProbeStep.err.find("checker.adaptive.probe_step must be in [0, 1] (fraction of the C-space extent)") !=
          std::string::npos);
  const Run badGeometry = cli({"check", problem.string(), "--random", "5", "--set", "checker.geometry=hull"});
  REQUIRE(badGeometry.code == 2);
  REQUIRE(badGeometry.err.find("unknown checker.geometry 'hull'") != std::string::npos);
  const Run badPrimitives = cli({"check", problem.string(), "--random", "5", "--set", "primitives=exact"});
  REQUIRE(badPrimitives.code == 2);
  REQUIRE(badPrimitives.err.find("unknown primitives 'exact'") != std::string::npos);
  // Both geometries and both ways of checking a path give the same verdicts.
  const Run convex = cli({"check", problem.string(), "--random", "40", "--seed", "3"});
  const Run mesh = cli({"check", problem.string(), "--random", "40", "--seed", "3", "--set", "checker.geometry=mesh",
                        "--set", "checker.adaptive.probes=0", "--set", "checker.adaptive.path_queue=true"});
  REQUIRE(convex.code == 0);
  REQUIRE(mesh.code == 0);
  auto verdictCounts = [](const std::string& out) {  // the line "verdicts: N free, M colliding (...), ..."
    const auto at = out.find("verdicts:");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  REQUIRE_FALSE(verdictCounts(convex.out).empty());
  REQUIRE(verdictCounts(convex.out) == verdictCounts(mesh.out));
}

TEST_CASE("file names made from problem names stay inside the output folder", "[cli]") {
  REQUIRE(fileStem("maze2d") == "maze2d");
  REQUIRE(fileStem("arm6 shelf") == "arm6_shelf");
  REQUIRE(fileStem("../../escape") == "___.._escape");
  REQUIRE(fileStem("/etc/passwd") == "_etc_passwd");
  REQUIRE(fileStem("it's;rm") == "it_s_rm");
  REQUIRE(fileStem("") == "unnamed");
  REQUIRE(fileStem("..") == "__");
  REQUIRE(fileStem(std::string(500, 'a')).size() == 100);
  // Whatever the name, the stem is one plain path component.
  for (const std::string name : {"a/b", "\\\\x", "\n", "..\\..", "~root", "\xc3\xa9t\xc3\xa9"}) {
    const std::string stem = fileStem(name);
    REQUIRE(std::filesystem::path(stem).filename().string() == stem);
    REQUIRE(stem.find('/') == std::string::npos);
    REQUIRE(stem.front() != '.');
  }
}

TEST_CASE("run settings given for one run do not stay with the loaded problem", "[cli]") {
  const Problem problem = test::loadForPlanning("maze2d");
  const Problem seeded = withRunSettings(problem, {{"seed=5", "planner.k=12"}, true});
  REQUIRE(seeded.planner.seed == 5);
  REQUIRE(seeded.planner.k == 12);
  // A yaml-cpp node assigned to rebinds what it shares: the problem's own settings must be untouched.
  const Problem again = withRunSettings(problem, {});
  REQUIRE(again.planner.seed == problem.planner.seed);
  REQUIRE(again.planner.k == problem.planner.k);
  // From several threads at once, each run's settings its own.
  std::vector<std::thread> threads;
  std::vector<std::uint32_t> seeds(8);
  for (std::size_t i = 0; i < seeds.size(); ++i)
    threads.emplace_back([&, i] {
      for (int repeat = 0; repeat < 50; ++repeat)
        seeds[i] = withRunSettings(problem, {{fmt::format("seed={}", i + 1)}, true}).planner.seed;
    });
  for (std::thread& t : threads) t.join();
  for (std::size_t i = 0; i < seeds.size(); ++i) REQUIRE(seeds[i] == i + 1);
  REQUIRE(withRunSettings(problem, {}).planner.seed == problem.planner.seed);
}
