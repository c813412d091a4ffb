// OMPL.app .cfg problems on COLLADA meshes the test writes itself: node
// transforms (translate, scale, matrix) are applied, the robot is placed by
// OMPL.app's reference point (computed here from the file's own lists, not by
// prmkit's reader), axis-angle start and goal, volume bounds, time limits
// alone, and verify's report of a path that ends away from the goal.
#include "io/mesh_reader.h"
#include "shapes/mesh.h"
#include "io/omplapp_problem.h"

#include "io/path_files.h"
#include "setup/build_problem.h"
#include "planner/planner.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <Eigen/Geometry>

#include <array>
#include <numbers>
#include <set>
#include <sstream>
#include <tuple>

using namespace prmkit;
using test::cli;
using test::TempDir;

namespace {

/// A tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1) under a node with `transform` (COLLADA elements).
std::string tetrahedronDae(const std::string& transform) {
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tet" name="tet">
      <mesh>
        <source id="tet-pos">
          <float_array id="tet-pos-array" count="12">0 0 0 1 0 0 0 1 0 0 0 1</float_array>
          <technique_common><accessor source="#tet-pos-array" count="4" stride="3">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
          </accessor></technique_common>
        </source>
        <vertices id="tet-vtx"><input semantic="POSITION" source="#tet-pos"/></vertices>
        <triangles count="4"><input semantic="VERTEX" source="#tet-vtx" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene">
      <node id="n" name="n">)" +
         transform + R"(<instance_geometry url="#tet"/></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
}

const std::string kConfig3D = R"([problem]
name = tiny_cfg
robot = robot.dae
world = world.dae
start.x = 0
start.y = 0
start.z = 0
start.theta = 0
start.axis.x = 1
start.axis.y = 0
start.axis.z = 0
goal.x = 9
goal.y = 1
goal.z = 1
goal.theta = 1.5707963267948966
goal.axis.x = 0
goal.axis.y = 0
goal.axis.z = 2
volume.min.x = -1
volume.min.y = -1
volume.min.z = -1
volume.max.x = 10
volume.max.y = 3
volume.max.z = 3

[solver]
planners = rrtconnect
)";

struct CfgFiles {
  TempDir dir;
  std::filesystem::path cfg;
  explicit CfgFiles(const std::string& config = kConfig3D) {
    dir.write("robot.dae", tetrahedronDae("<scale>0.4 0.4 0.4</scale>"));
    dir.write("world.dae", tetrahedronDae("<translate>5 0 0</translate><scale>2 2 2</scale>"));
    cfg = dir.write("tiny.cfg", config);
  }
};

}  // namespace

TEST_CASE("OMPL.app .cfg: COLLADA node transforms, centred robot, axis-angle poses, bounds", "[omplapp]") {
  CfgFiles files;
  const Problem problem = loadProblem(files.cfg);
  REQUIRE(problem.name == "tiny_cfg");
  REQUIRE(problem.robot->kind() == "rigid3d");
  // The world's node scales by 2 and translates by (5, 0, 0).
  const auto& world = problem.scene->obstacles().at(0);
  const auto bounds = world.mesh.transformed(world.pose).bounds();
  REQUIRE(bounds.min().isApprox(Eigen::Vector3d(5, 0, 0)));
  REQUIRE(bounds.max().isApprox(Eigen::Vector3d(7, 2, 2)));
  // The robot (scaled by 0.4) is centred on the mean of its vertices (each
  // corner is stored three times, once per face, so every vertex weighs the
  // same); OMPL.app sums in single precision.
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const auto& v : problem.robot->links().at(0).mesh.vertices) mean += v;
  REQUIRE(mean.norm() < 1e-6);
  REQUIRE(problem.robot->links().at(0).mesh.bounds().sizes().isApprox(Eigen::Vector3d(0.4, 0.4, 0.4), 1e-6));
  REQUIRE(problem.robot->bounds().lower.isApprox(Eigen::Vector3d(-1, -1, -1)));
  REQUIRE(problem.robot->bounds().upper.isApprox(Eigen::Vector3d(10, 3, 3)));
  // Goal: a quarter turn about z (the axis is normalized), as [x, y, z, qx, qy, qz, qw].
  Config goal(7);
  goal << 9, 1, 1, 0, 0, std::sin(std::numbers::pi / 4), std::cos(std::numbers::pi / 4);
  REQUIRE(problem.goal.isApprox(goal));

  const auto out = files.dir.path / "out";
  const auto planned = cli({"plan", files.cfg.string(), "--checker", "adaptive", "--out", out.string()});
  INFO(planned.out << planned.err);
  REQUIRE(planned.code == 0);
  REQUIRE(cli({"verify", files.cfg.string(), (out / "path.csv").string()}).code == 0);

  // path.txt, OMPL.app's format: the same states as path.csv, and verify reads it.
  const auto text = readPathText(out / "path.txt", *problem.robot);
  const auto csv = readPathCsv(out / "path.csv", *problem.robot);
  REQUIRE(text.size() == csv.size());
  for (std::size_t i = 0; i < text.size(); ++i) REQUIRE(text[i] == csv[i]);
  const auto renamed = files.dir.path / "solution.path";
  std::filesystem::copy_file(out / "path.txt", renamed);
  REQUIRE(cli({"verify", files.cfg.string(), renamed.string()}).code == 0);
  // A state inside the world's box (x 5..7, y 0..2, z 0..2) is refused with exit 1.
  const auto through = files.dir.write(
      "through.path", "0 0 0 0 0 0 1\n\n  6   1 1 0 0 0 1\n9 1 1 0 0 0.7071067811865476 0.7071067811865476\n");
  const auto rejected = cli({"verify", files.cfg.string(), through.string()});
  INFO(rejected.out << rejected.err);
  REQUIRE(rejected.code == 1);
  // Wrong widths and non-numbers are bad input with their line and column.
  const auto narrow =
      cli({"verify", files.cfg.string(), files.dir.write("narrow.path", "0 0 0 0 0 0 1\n1 2 3\n").string()});
  REQUIRE(narrow.code == 2);
  REQUIRE(narrow.err.find("narrow.path:2:1: expected 7 numbers") != std::string::npos);
  const auto word =
      cli({"verify", files.cfg.string(), files.dir.write("word.path", "0 0 0 0 0 0 1\n0 0  x 0 0 0 1\n").string()});
  REQUIRE(word.code == 2);
  REQUIRE(word.err.find("word.path:2:6: expected a finite number, got 'x'") != std::string::npos);
  REQUIRE(cli({"verify", files.cfg.string(), files.dir.write("empty.path", "\n \n").string()}).code == 2);
}

TEST_CASE("OMPL.app .cfg in 2D: x, y, theta", "[omplapp]") {
  CfgFiles files(R"([problem]
robot = robot.dae
world = world.dae
start.x = 0
start.y = 0
start.theta = 0
goal.x = 9
goal.y = 0.5
goal.theta = 3
volume.min.x = -1
volume.min.y = -1
volume.max.x = 10
volume.max.y = 3
)");
  const Problem problem = loadProblem(files.cfg);
  REQUIRE(problem.name == "tiny");
  REQUIRE(problem.robot->kind() == "rigid2d");
  REQUIRE(problem.goal.isApprox(Eigen::Vector3d(9, 0.5, 3)));
  // A 2D path in OMPL.app's format (x y theta) reads back exactly as written.
  const std::vector<Config> path = {problem.start, problem.goal};
  const auto file = files.dir.write("two.path", pathText(path));
  const auto read = readPathText(file, *problem.robot);
  REQUIRE(read.size() == 2);
  REQUIRE(read[0] == path[0]);
  REQUIRE(read[1] == path[1]);
}

TEST_CASE("COLLADA node graphs that instance themselves or explode are refused before assimp reads them", "[omplapp]") {
  // `file` (robot.dae or world.dae) replaced by `text`: refused with exit 2, the file named.
  auto refused = [](const std::string& file, const std::string& text, const std::string& message) {
    CfgFiles files;
    files.dir.write(file, text);
    const auto run = cli({"validate", files.cfg.string()});
    INFO(run.err);
    REQUIRE(run.code == 2);
    REQUIRE_THAT(run.err, Catch::Contains(file + ":") && Catch::Contains(message));
  };
  // Library nodes l0 .. l<levels - 1>, each instancing the next twice, and a last one holding the geometry.
  auto doublingLibrary = [](int levels) {
    std::string library = "<library_nodes>\n";
    for (int i = 0; i < levels; ++i)
      library += fmt::format("<node id=\"l{0}\"><instance_node url=\"#l{1}\"/><instance_node url=\"#l{1}\"/></node>\n",
                             i, i + 1);
    return library +
           fmt::format(
               "<node id=\"l{}\"><instance_geometry url=\"#tet\"/></node>\n</library_nodes>\n<library_visual_scenes>",
               levels);
  };
  // The robot's node instances a library node that instances it back.
  const std::string tetrahedron = tetrahedronDae("");
  refused("robot.dae",
          test::replaceOnce(
              test::replaceOnce(
                  tetrahedron, "<library_visual_scenes>",
                  "<library_nodes>\n<node id=\"a\"><instance_node url=\"#b\"/></node>\n"
                  "<node id=\"b\"><instance_node url=\"#n\"/></node>\n</library_nodes>\n<library_visual_scenes>"),
              "<instance_geometry url=\"#tet\"/>", "<instance_geometry url=\"#tet\"/><instance_node url=\"#a\"/>"),
          "instances itself");
  // The scene's node instances the top of the library instead of the geometry:
  // 30 levels are 2^30 nodes once expanded; ten stay within the limit and load.
  const std::string instancing =
      test::replaceOnce(tetrahedron, "<instance_geometry url=\"#tet\"/>", "<instance_node url=\"#l0\"/>");
  refused("world.dae", test::replaceOnce(instancing, "<library_visual_scenes>", doublingLibrary(30)),
          "expands to more than 1000000 nodes");
  // Found by the fuzz_mesh target: a control character in <p> made assimp
  // allocate gigabytes; counts and indices beyond the file's size are refused too.
  refused("robot.dae", test::replaceOnce(tetrahedron, "<p>0 2 1", "<p>0\x0f2 1"),
          "<p> holds something other than unsigned indices");
  refused("robot.dae", test::replaceOnce(tetrahedron, "<p>0 2 1", "<p>0 99999999 1"),
          "<p> holds something other than unsigned indices");
  refused("world.dae", test::replaceOnce(tetrahedron, "<triangles count=\"4\">", "<triangles count=\"4000000000\">"),
          "has count '4000000000', not a number of things");
  const TempDir dir;
  const Mesh shared = loadMeshFile(
      dir.write("shared.dae", test::replaceOnce(instancing, "<library_visual_scenes>", doublingLibrary(10))));
  REQUIRE(shared.triangles.size() == 4 * 1024);
}

TEST_CASE("OMPL.app .cfg errors name file and line, exit 2", "[omplapp]") {
  struct Case {
    std::string from, to, message;
  };
  const std::vector<Case> cases{
      {"start.y = 0\n", "start.y = zero\n", "tiny.cfg:6: expected a number for 'start.y', got 'zero'"},
      {"goal.x = 9\ngoal.y = 1\ngoal.z = 1\n", "goal.x = 5\ngoal.y = 0.4\ngoal.z = 0.4\n",
       "tiny.cfg:12: the goal configuration is in collision"},
      {"goal.x = 9\n", "goal.x = 60\n", "tiny.cfg:12: the goal configuration is out of bounds"},
      {"start.theta = 0\n", "start.theta = 0\nstart.speed = 3\n", "tiny.cfg:9: unknown key 'start.speed'"},
      {"world = world.dae\n", "world = missing.dae\n", "missing.dae"},
      {"[problem]\n", "[problem\n", "tiny.cfg:1:"},
      {"volume.max.z = 3\n", "volume.max.z = 3\ncontrol = kinematic_car\n",
       "control-based (kinodynamic) problems are not supported"},
  };
  for (const auto& c : cases) {
    CfgFiles files(test::replaceOnce(kConfig3D, c.from, c.to));
    const auto run = cli({"validate", files.cfg.string()});
    INFO(c.to << "\n" << run.err);
    REQUIRE(run.code == 2);
    REQUIRE_THAT(run.err, Catch::Contains(c.message));
  }
}

namespace {
const std::string kBenchmarkSections = R"(
[benchmark]
time_limit = 2.5
mem_limit = 1000.0
run_count = 2
save_paths = shortest

[planner]
prm=
problem.sampler=uniform
prm.name=uniprm
prm=
problem.sampler=obstacle_based
prm.name=obprm
prm.max_nearest_neighbors=8
rrtconnect=
rrtconnect.range=100
rrtconnect=
rrtconnect.range=200
# a comment
lazyprm=
)";

std::vector<nlohmann::json> jsonLines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(test::readText(file));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  return lines;
}
}  // namespace

TEST_CASE("OMPL.app .cfg as OMPL.app writes them: [benchmark], repeated [planner] keys, sampler, objective",
          "[omplapp]") {
  const std::string problem = test::replaceOnce(kConfig3D, "name = tiny_cfg\n",
                                                "name = tiny_cfg\nsampler = obstacle_based\nobjective = length\n");
  CfgFiles files(problem + kBenchmarkSections);
  const Problem loaded = loadProblem(files.cfg);
  REQUIRE(loaded.planner.sampler == "obstacle_based");

  const OmplAppBenchmark benchmark = readOmplAppBenchmark(files.cfg);
  REQUIRE(benchmark.time_limit_s == 2.5);
  REQUIRE(benchmark.run_count == std::size_t{2});
  REQUIRE(benchmark.planners.size() == 5);
  REQUIRE(benchmark.planners[0].name == "uniprm");
  REQUIRE(benchmark.planners[1].name == "obprm");
  REQUIRE(benchmark.planners[1].problem_settings ==
          std::vector<std::pair<std::string, std::string>>{{"planner.sampler", "obstacle_based"}});
  REQUIRE(benchmark.planners[1].parameters ==
          std::vector<std::pair<std::string, std::string>>{{"max_nearest_neighbors", "8"}});
  REQUIRE(benchmark.planners[3].parameters == std::vector<std::pair<std::string, std::string>>{{"range", "200"}});
  REQUIRE(benchmark.notes.size() == 3);  // the objective, mem_limit, save_paths
  // The problem read from the file carries the same notes (the file is read once), and plan prints them.
  REQUIRE(loaded.notes == benchmark.notes);
  const auto planned = cli({"plan", files.cfg.string(), "--out", (files.dir.path / "plan").string()});
  INFO(planned.out << planned.err);
  REQUIRE(planned.code == 0);
  for (const std::string& note : benchmark.notes) CHECK_THAT(planned.out, Catch::Contains("note: " + note));

  // compare with no other flags runs what the file asks, as far as prmkit can:
  // the two prm instances (each sampler) on prm and ompl_prm, the two
  // rrtconnect instances on OMPL's RRTConnect with their ranges, lazyprm on
  // lazy_prm, ompl_lazy_prm and ompl_fcl_default, two seeds each, 2.5 s.
  const auto out = files.dir.path / "compare";
  const auto run = cli({"compare", files.cfg.string(), "--checkers", "adaptive", "--no-plots", "--out", out.string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  REQUIRE_THAT(run.out, Catch::Contains("18 runs (2 seeds per combination, time limit 2.5 s per run"));
  std::multiset<std::string> combinations;
  for (const auto& record : jsonLines(out / "runs.jsonl")) {
    combinations.insert(record.at("planner").get<std::string>() + " " + record.at("parameters").dump());
    REQUIRE(record.at("time_limit_s").get<double>() == 2.5);
  }
  REQUIRE(combinations.size() == 18);
  for (const std::string sampler : {"uniform", "obstacle_based"})
    for (const std::string planner : {"prm", "ompl_prm"})
      CHECK(combinations.count(planner + " " +
                               nlohmann::json::array({nlohmann::json::array({"planner.sampler", sampler})}).dump()) ==
            2);
  for (const std::string planner : {"lazy_prm", "ompl_lazy_prm", "ompl_fcl_default"})
    CHECK(combinations.count(planner + " []") == 2);
  for (const std::string range : {"100", "200"})
    CHECK(combinations.count(
              "ompl:RRTConnect " +
              nlohmann::json::array({nlohmann::json::array({"planner.parameters.range", range})}).dump()) == 2);
  // The report says what it skipped and what it did not apply.
  const std::string summary = test::readText(out / "summary.md");
  CHECK_THAT(summary, !Catch::Contains("skipped"));
  CHECK_THAT(summary, Catch::Contains(
                          "planner 'prm' named 'obprm' (line 41): parameter max_nearest_neighbors = '8' not applied"));
  CHECK_THAT(summary, Catch::Contains("objective 'length': OMPL's optimizing planners improve their path until the "
                                      "time limit; prmkit's own planners stop at their first path"));
  // OMPL.app's renames name the runs in every output.
  for (const std::string file : {"summary.md", "report.html"})
    for (const std::string name : {"uniprm (prm)+adaptive", "obprm (ompl_prm)+adaptive"}) {
      INFO(file << ": " << name);
      CHECK_THAT(test::readText(out / file), Catch::Contains(name));
    }
  CHECK_THAT(summary, Catch::Contains("mem_limit 1000.0 MB recorded, not enforced"));
  const std::string report = test::readText(out / "report.html");
  CHECK_THAT(report, Catch::Contains("<li>planner 'prm' named 'obprm' (line 41): parameter max_nearest_neighbors"));
  CHECK_THAT(report, Catch::Contains("<td>lazy_prm+adaptive</td>"));
  std::size_t named = 0;
  for (const auto& record : jsonLines(out / "runs.jsonl")) named += record.value("planner_name", "") == "obprm (prm)";
  CHECK(named == 2);
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(out / "ompl")) log += test::readText(entry.path());
  CHECK_THAT(log, Catch::Contains("\nuniprm (ompl_prm)+adaptive[sampler=uniform]\n"));

  // Flags win over the file.
  const auto flagged = cli({"compare", files.cfg.string(), "--checkers", "adaptive", "--planners", "prm", "--runs", "1",
                            "--time-limit", "4", "--no-plots", "--out", (files.dir.path / "flagged").string()});
  REQUIRE(flagged.code == 0);
  REQUIRE_THAT(flagged.out, Catch::Contains("1 runs (1 seeds per combination, time limit 4 s per run"));
}

TEST_CASE("OMPL.app .cfg planner names as OMPL.app's benchmark maps them, renames in every output", "[omplapp]") {
  // A stock .cfg's planners: kpiece, bkpiece and lbkpiece are OMPL's
  // KPIECE1, BKPIECE1 and LBKPIECE1 (OMPL.app's CFGBenchmark::allocPlanner),
  // spars2 its SPARStwo; a NAME.name= rename names the runs everywhere.
  CfgFiles files(kConfig3D + R"(
[benchmark]
time_limit = 3600
run_count = 1

[planner]
kpiece=
BKPIECE=
lbkpiece=
rrtstar=
rrtstar.name=RRTstar_fast
rrtstar.range=2
problem.objective.threshold=1e9
cforest=
)");
  const auto out = files.dir.path / "compare";
  const auto run = cli({"compare", files.cfg.string(), "--checkers", "adaptive", "--no-plots", "--out", out.string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  std::map<std::string, std::string> shown;  // planner -> name shown
  for (const auto& record : jsonLines(out / "runs.jsonl")) {
    CHECK(record.at("solved").get<bool>());
    CHECK_FALSE(record.at("unsafe").get<bool>());
    shown[record.at("planner").get<std::string>()] = record.value("planner_name", "");
  }
  CHECK(shown ==
        std::map<std::string, std::string>{
            {"ompl:KPIECE1", ""}, {"ompl:BKPIECE1", ""}, {"ompl:LBKPIECE1", ""}, {"ompl:RRTstar", "RRTstar_fast"}});
  const std::string summary = test::readText(out / "summary.md");
  CHECK_THAT(summary, Catch::Contains("RRTstar_fast+adaptive[cost_threshold=1e9,range=2]"));
  CHECK_THAT(summary,
             Catch::Contains("planner 'cforest' (line ") && Catch::Contains("skipped: OMPL.app runs it as several"));
  CHECK_THAT(test::readText(out / "report.html"), Catch::Contains("RRTstar_fast+adaptive"));
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(out / "ompl")) log += test::readText(entry.path());
  CHECK_THAT(log, Catch::Contains("\nRRTstar_fast+adaptive[cost_threshold=1e9,range=2]"));
}

TEST_CASE("OMPL.app .cfg in 2D without a world: an empty workspace, bounds from start and goal", "[omplapp]") {
  CfgFiles files(R"([problem]
robot = robot.dae
start.x = 0
start.y = 0
start.theta = 0
goal.x = 3
goal.y = 1
goal.theta = 1

[benchmark]
run_count = 1

[planner]
lazyprm=
lazyprmstar=
)");
  const Problem problem = loadProblem(files.cfg);
  REQUIRE(problem.scene->obstacles().empty());
  REQUIRE((problem.robot->bounds().lower.array() < 0.0).all());
  REQUIRE((problem.robot->bounds().upper.array() > Eigen::Array2d(3.0, 1.0)).all());
  REQUIRE(readOmplAppBenchmark(files.cfg).planners.size() == 2);
  const auto out = files.dir.path / "out";
  const auto planned = cli({"plan", files.cfg.string(), "--out", out.string()});
  INFO(planned.out << planned.err);
  REQUIRE(planned.code == 0);
  REQUIRE(cli({"verify", files.cfg.string(), (out / "path.txt").string()}).code == 0);
}

TEST_CASE("OMPL.app .cfg benchmark and planner sections: bad input names file and line, exit 2", "[omplapp]") {
  struct Case {
    std::string sections, message;
  };
  const std::vector<Case> cases{
      {"[benchmark]\ntime_limt = 3\n", "tiny.cfg:30: unknown key 'time_limt' in [benchmark]"},
      {"[benchmark]\nrun_count = 0\n", "tiny.cfg:30: run_count must be a whole number from 1 to 100000"},
      {"[benchmark]\ntime_limit = soon\n", "tiny.cfg:30: expected a number for 'time_limit', got 'soon'"},
      {"[planner]\nprm.name = first\n", "tiny.cfg:30: 'prm.name' comes before any planner line"},
      {"[planner]\nprm = 3\n", "tiny.cfg:30: a planner line is 'prm=' with nothing after '='"},
      {"[planner]\nprm=\nrrt.range = 3\n", "tiny.cfg:31: 'rrt.range' sets a parameter of 'rrt'"},
      {"[planner]\nprm=\nproblem.sampler = sideways\n", "tiny.cfg:31: unknown sampler 'sideways'"},
      {"[planner]\nprm\n", "tiny.cfg:30: expected 'planner=' or 'planner.parameter=value' in [planner]"},
      {"[planner]\ncforest=\nanytimepathshortening=\n", "none of the planners of [planner] is one prmkit runs"},
  };
  for (const auto& c : cases) {
    CfgFiles files(kConfig3D + "\n" + c.sections);
    const auto run = cli({"compare", files.cfg.string(), "--checkers", "adaptive", "--no-plots", "--out",
                          (files.dir.path / "out").string()});
    INFO(c.sections << "\n" << run.err);
    REQUIRE(run.code == 2);
    REQUIRE_THAT(run.err, Catch::Contains(c.message));
  }
  // [problem] still refuses a repeated key and an unknown sampler or objective.
  for (const auto& [from, to, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"name = tiny_cfg\n", "name = tiny_cfg\nname = again\n", "tiny.cfg:3: duplicate key name"},
           {"name = tiny_cfg\n", "name = tiny_cfg\nsampler = bridge_test\n",
            "tiny.cfg:3: unknown sampler 'bridge_test'"},
           {"name = tiny_cfg\n", "name = tiny_cfg\nobjective = speed\n", "tiny.cfg:3: unknown objective 'speed'"}}) {
    CfgFiles files(test::replaceOnce(kConfig3D, from, to));
    const auto run = cli({"plan", files.cfg.string(), "--out", (files.dir.path / "out").string()});
    INFO(to << "\n" << run.err);
    REQUIRE(run.code == 2);
    REQUIRE_THAT(run.err, Catch::Contains(message));
  }
}

namespace {

/// An asymmetric wedge as SketchUp exports it: every face with its own
/// normal (per-face normals, so a corner is stored once per face it bounds),
/// both end caps double-sided (each triangle twice, opposite windings and
/// normals), under a node that turns and moves it. Positions repeat unevenly:
/// the mean over what OMPL.app reads differs from the mean of the welded mesh.
struct Wedge {
  std::vector<std::array<float, 3>> positions{{0, 0, 0}, {4, 0, 0}, {0, 1, 0}, {0, 0, 3}, {4, 0, 3}, {0, 1, 3}};
  std::vector<std::array<float, 3>> normals;
  std::vector<std::pair<int, int>> corners;  // (position, normal) in file order
  // Row-major, as COLLADA writes <matrix>: a quarter turn about z, then (1, 2, 3).
  std::array<float, 16> matrix{0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1};

  Wedge() {
    auto face = [&](std::array<int, 3> corner) {
      const auto& a = positions[static_cast<std::size_t>(corner[0])];
      const auto& b = positions[static_cast<std::size_t>(corner[1])];
      const auto& c = positions[static_cast<std::size_t>(corner[2])];
      const Eigen::Vector3f n = (Eigen::Vector3f(b[0] - a[0], b[1] - a[1], b[2] - a[2]))
                                    .cross(Eigen::Vector3f(c[0] - a[0], c[1] - a[1], c[2] - a[2]))
                                    .normalized();
      normals.push_back({n.x(), n.y(), n.z()});
      for (const int p : corner) corners.emplace_back(p, static_cast<int>(normals.size()) - 1);
    };
    face({0, 2, 1});
    face({0, 1, 2});  // the bottom's back side; the top is one-sided
    face({3, 4, 5});
    const std::array<std::array<int, 3>, 6> sides{{{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}, {2, 0, 3}, {2, 3, 5}}};
    for (const auto& side : sides) face(side);
  }

  std::string dae() const {
    std::string p, n, indices;
    for (const auto& v : positions) p += fmt::format("{} {} {} ", v[0], v[1], v[2]);
    for (const auto& v : normals) n += fmt::format("{:.9g} {:.9g} {:.9g} ", v[0], v[1], v[2]);
    for (const auto& [position, normal] : corners) indices += fmt::format("{} {} ", position, normal);
    std::string m;
    for (const float x : matrix) m += fmt::format("{} ", x);
    return fmt::format(R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries><geometry id="w"><mesh>
    <source id="w-pos"><float_array id="w-pos-a" count="{}">{}</float_array>
      <technique_common><accessor source="#w-pos-a" count="{}" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <source id="w-nor"><float_array id="w-nor-a" count="{}">{}</float_array>
      <technique_common><accessor source="#w-nor-a" count="{}" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="w-vtx"><input semantic="POSITION" source="#w-pos"/></vertices>
    <triangles count="{}"><input semantic="VERTEX" source="#w-vtx" offset="0"/>
      <input semantic="NORMAL" source="#w-nor" offset="1"/><p>{}</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s">
    <node id="n"><matrix>{}</matrix><instance_geometry url="#w"/></node>
  </visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)",
                       3 * positions.size(), p, positions.size(), 3 * normals.size(), n, normals.size(),
                       corners.size() / 3, indices, m);
  }

  Eigen::Vector3f placed(int position) const {
    const auto& v = positions[static_cast<std::size_t>(position)];
    Eigen::Vector3f out;
    for (int r = 0; r < 3; ++r)
      out[r] = matrix[static_cast<std::size_t>(4 * r)] * v[0] + matrix[static_cast<std::size_t>(4 * r + 1)] * v[1] +
               matrix[static_cast<std::size_t>(4 * r + 2)] * v[2] + matrix[static_cast<std::size_t>(4 * r + 3)];
    return out;
  }

  /// OMPL.app's rule, from the file's own lists: each corner whose position
  /// and normal values differ from every earlier corner's once (what
  /// JoinIdenticalVertices keeps: two faces in one plane share their corners),
  /// placed by the node, summed in single precision in file order, divided as a float.
  Eigen::Vector3d omplAppReference() const {
    std::set<std::pair<int, std::array<float, 3>>> seen;
    Eigen::Vector3f sum = Eigen::Vector3f::Zero();
    float count = 0;
    for (const auto& corner : corners)
      if (seen.emplace(corner.first, normals[static_cast<std::size_t>(corner.second)]).second) {
        sum += placed(corner.first);
        count += 1;
      }
    return (sum / count).cast<double>();
  }
  /// The mean of the welded mesh (each position once): what prmkit took before.
  Eigen::Vector3d weldedMean() const {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int p = 0; p < static_cast<int>(positions.size()); ++p) sum += placed(p).cast<double>();
    return sum / static_cast<double>(positions.size());
  }
  Eigen::AlignedBox3d placedBounds() const {
    Eigen::AlignedBox3d box;
    for (int p = 0; p < static_cast<int>(positions.size()); ++p) box.extend(placed(p).cast<double>());
    return box;
  }
};

}  // namespace

TEST_CASE("OMPL.app's reference point: the mean of the vertices as OMPL.app reads them, in 3D and 2D", "[omplapp]") {
  const Wedge wedge;
  const Eigen::Vector3d expected = wedge.omplAppReference();
  // The test can tell the two conventions apart (by more than 2 % of the wedge's size).
  REQUIRE((expected - wedge.weldedMean()).norm() > 0.02 * wedge.placedBounds().sizes().norm());
  TempDir dir;
  const auto robotFile = dir.write("robot.dae", wedge.dae());
  dir.write("world.dae", tetrahedronDae("<translate>20 0 0</translate>"));
  const Eigen::Vector3d read = omplAppVertexMean(robotFile);
  INFO("read " << read.transpose() << ", expected " << expected.transpose() << ", welded "
               << wedge.weldedMean().transpose());
  CHECK(read.isApprox(expected, 1e-6));

  // 3D: the configuration is the pose of that point; the mesh is moved by it.
  const auto cfg3 = dir.write("w3.cfg", R"([problem]
robot = robot.dae
world = world.dae
start.x = 0
start.y = 0
start.z = 0
start.theta = 0
start.axis.x = 0
start.axis.y = 0
start.axis.z = 1
goal.x = 12
goal.y = 0
goal.z = 0
goal.theta = 3.141592653589793
goal.axis.x = 0
goal.axis.y = 1
goal.axis.z = 0
volume.min.x = -8
volume.min.y = -8
volume.min.z = -8
volume.max.x = 16
volume.max.y = 8
volume.max.z = 8
)");
  const Problem problem = loadProblem(cfg3);
  const Eigen::AlignedBox3d body = problem.robot->links().at(0).mesh.bounds();
  CHECK(body.min().isApprox(wedge.placedBounds().min() - expected, 1e-5));
  CHECK(body.max().isApprox(wedge.placedBounds().max() - expected, 1e-5));
  // Time alone bounds a .cfg run, as in OMPL.app; --set still gives a sample limit.
  CHECK(problem.planner.max_samples == kMaxSamples);
  CHECK(loadProblem(cfg3, {{"limits.samples=500"}, true}).planner.max_samples == 500);

  // A planned path read back from OMPL.app's format poses the robot identically.
  const auto out = dir.path / "out";
  const auto planned = cli({"plan", cfg3.string(), "--seed", "2", "--out", out.string()});
  INFO(planned.out << planned.err);
  REQUIRE(planned.code == 0);
  const auto csv = readPathCsv(out / "path.csv", *problem.robot);
  const auto text = readPathText(out / "path.txt", *problem.robot);
  REQUIRE(text.size() == csv.size());
  std::vector<Transform> a, b;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    REQUIRE(text[i] == csv[i]);
    problem.robot->linkPoses(csv[i], a);
    problem.robot->linkPoses(text[i], b);
    REQUIRE(a[0].matrix() == b[0].matrix());
  }

  // The path's end turned half a turn about y: free, but not at the goal.
  // verify says how far, and --collisions-only judges collisions alone.
  std::string turned = test::readText(out / "path.txt");
  const Config& goal = problem.goal;
  Eigen::Quaterniond q(goal[6], goal[3], goal[4], goal[5]);
  q = q * Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi, Eigen::Vector3d::UnitY()));
  turned += fmt::format("{} {} {} {} {} {} {}\n", goal[0], goal[1], goal[2], q.x(), q.y(), q.z(), q.w());
  const auto turnedFile = dir.write("turned.path", turned);
  auto verdict = cli({"verify", cfg3.string(), turnedFile.string()});
  INFO(verdict.out << verdict.err);
  CHECK(verdict.code == 1);
  CHECK(verdict.out.find("collision-free") != std::string::npos);
  CHECK(verdict.out.find("the last waypoint is not the goal configuration: 0 m and 180 degrees away") !=
        std::string::npos);
  CHECK(verdict.out.find("in collision") == std::string::npos);
  verdict = cli({"verify", cfg3.string(), turnedFile.string(), "--collisions-only"});
  CHECK(verdict.code == 0);
  CHECK(verdict.out.find("0 m and 180 degrees away") != std::string::npos);

  // 2D: x and y move the reference point to the origin, the height stays as the file has it.
  const auto cfg2 = dir.write("w2.cfg", R"([problem]
robot = robot.dae
world = world.dae
start.x = 0
start.y = 0
start.theta = 0
goal.x = 12
goal.y = 0
goal.theta = 3
volume.min.x = -8
volume.min.y = -8
volume.max.x = 16
volume.max.y = 8
)");
  const Problem planar = loadProblem(cfg2);
  const Eigen::Vector3d shift(expected.x(), expected.y(), 0.0);
  const Eigen::AlignedBox3d flat = planar.robot->links().at(0).mesh.bounds();
  CHECK(flat.min().isApprox(wedge.placedBounds().min() - shift, 1e-5));
  CHECK(flat.max().isApprox(wedge.placedBounds().max() - shift, 1e-5));
  const auto planned2 = cli({"plan", cfg2.string(), "--seed", "2", "--out", (dir.path / "out2").string()});
  REQUIRE(planned2.code == 0);
  const auto csv2 = readPathCsv(dir.path / "out2/path.csv", *planar.robot);
  const auto text2 = readPathText(dir.path / "out2/path.txt", *planar.robot);
  REQUIRE(csv2 == text2);
}
