// scene.html: the data the page receives is the geometry prmkit checks, and
// the page renders it in a real browser (Debian's headless Chromium) with no
// script error.
#include "registry/planner_registry.h"

#include "setup/build_problem.h"
#include "io/viewer_page.h"
#include "registry/checker_registry.h"
#include "planner/planner.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

using namespace prmkit;

namespace {

struct Planned {
  Problem problem;
  PlanResult result;
};

Planned plan(const std::string& name, const std::vector<std::string>& overrides = {}) {
  Planned p{test::loadForPlanning(name, overrides), {}};
  auto checker = makeChecker(p.problem.checker, p.problem.robot, p.problem.scene);
  auto planner = makePlanner(p.problem.planner);
  auto verifier = makeVerifier(p.problem.checker, p.problem.robot, p.problem.scene);
  p.result = planner->solve(*checker, p.problem.start, p.problem.goal, verifier.get());
  return p;
}

Eigen::Matrix4d matrixAt(const nlohmann::json& flat, std::size_t link) {
  Eigen::Matrix4d m;
  for (int i = 0; i < 16; ++i) m.data()[i] = flat.at(16 * link + static_cast<std::size_t>(i)).get<double>();
  return m;
}

/// A frame's configuration (as many numbers as the robot's configurations have, e.g. a quaternion's four).
Config configAt(const nlohmann::json& frame) {
  const auto& numbers = frame.at("config");
  Config q(static_cast<Eigen::Index>(numbers.size()));
  for (std::size_t i = 0; i < numbers.size(); ++i) q[static_cast<Eigen::Index>(i)] = numbers[i].get<double>();
  return q;
}

}  // namespace

TEST_CASE("viewer data: every frame's link poses are the robot's own, on the path, ends included", "[viewer]") {
  for (const std::string name : {"maze2d", "twisted_slot", "arm6_shelf"}) {
    INFO(name);
    const Planned p = plan(name);
    REQUIRE(p.result.solved);
    const Robot& robot = *p.problem.robot;
    const auto data = nlohmann::json::parse(viewerData(p.problem, "adaptive", p.result).dump());
    REQUIRE(data.at("links").size() == robot.links().size());
    REQUIRE(data.at("obstacles").size() == p.problem.scene->obstacles().size());
    const auto& frames = data.at("frames");
    REQUIRE(frames.size() == kViewerFrames);
    std::vector<Transform> poses;
    const double size = p.problem.sceneSize();
    for (std::size_t k = 0; k < frames.size(); ++k) {
      const Config q = configAt(frames[k]);
      if (k == 0) CHECK((q - p.problem.start).norm() == Approx(0.0).margin(1e-9));
      if (k + 1 == frames.size()) CHECK((q - p.problem.goal).norm() == Approx(0.0).margin(1e-9));
      robot.linkPoses(q, poses);
      for (std::size_t i = 0; i < poses.size(); ++i) {
        const Eigen::Matrix4d sent = matrixAt(frames[k].at("poses"), i);
        // Sent as floats: within float rounding of the coordinates.
        REQUIRE((sent - poses[i].matrix()).cwiseAbs().maxCoeff() <= 1e-6 * (1.0 + size));
        const auto& v = data.at("links")[i].at("vertices");
        for (std::size_t c = 0; c < robot.links()[i].mesh.vertices.size() * 3; c += 97)
          REQUIRE(v.at(c).get<double>() ==
                  Approx(robot.links()[i].mesh.vertices[c / 3][c % 3]).margin(1e-6 * (1.0 + size)));
      }
    }
  }
}

TEST_CASE("viewer data: every colliding edge the planner shows collides, its witness on it and in collision",
          "[viewer]") {
  // Colliding edges found by lazy PRM's path checks, by its checks as edges
  // are made and by its component join's moves, and by prm's edge checks and
  // its expansion's moves.
  const std::string setting = GENERATE(as<std::string>{}, "lazy_prm.eager_edges=never", "lazy_prm.eager_edges=always",
                                       "lazy_prm.join=20", "prm.expand=0.3");
  INFO(setting);
  const bool prm = setting.starts_with("prm.");
  const Planned p = plan("maze2d", {"planner.type=" + std::string(prm ? "prm" : "lazy_prm"), "planner." + setting});
  REQUIRE((p.result.planner_stats.eager_edges > 0) == (setting == "lazy_prm.eager_edges=always"));
  REQUIRE((p.result.planner_stats.join_nodes > 0) == (setting == "lazy_prm.join=20"));
  REQUIRE((p.result.planner_stats.expansion_nodes > 0) == prm);
  const auto& edges = p.result.colliding_edges;
  REQUIRE(edges.size() == std::min<std::size_t>(p.result.planner_stats.edges_colliding, kPictureCollidingEdges));
  auto exact = makeVerifier(p.problem.checker, p.problem.robot, p.problem.scene);
  std::size_t witnesses = 0;
  for (const auto& edge : edges) {
    // An exact checker gives every colliding edge a witness on the edge, in
    // collision unless the edge was reported colliding because a piece of it
    // fell below eta unresolved (then the witness is that piece's middle).
    REQUIRE(edge.witness.size() == edge.a.size());
    const std::uint64_t unresolvedBefore = exact->stats().strategy.value("unresolved_as_colliding");
    CHECK(exact->checkEdge(edge.a, edge.b).verdict == Verdict::Colliding);
    if (exact->stats().strategy.value("unresolved_as_colliding") == unresolvedBefore)
      CHECK_FALSE(exact->isValid(edge.witness));
    const double along =
        p.problem.robot->distance(edge.a, edge.witness) + p.problem.robot->distance(edge.witness, edge.b);
    CHECK(along == Approx(p.problem.robot->distance(edge.a, edge.b)).epsilon(1e-9));
    ++witnesses;
  }
  const auto data = nlohmann::json::parse(viewerData(p.problem, "adaptive", p.result).dump());
  CHECK(data.at("witnesses").size() == std::min(witnesses, kViewerWitnesses));
  CHECK(data.at("roadmap").at("colliding").size() == 6 * edges.size());
}

TEST_CASE("verify --html: the page shows the path and its first colliding configuration where prmkit poses it",
          "[viewer]") {
  const test::TempDir dir;
  const auto problem = test::problemFile("maze2d");
  // Through the pillar in the middle of the maze: waypoint 1 collides.
  const auto path = dir.write("bad.csv", "x,y,theta\n1,1,0\n5,5,0\n9,9,1.57\n");
  const auto page = dir.path / "pages" / "bad.html";
  const auto run = test::cli({"verify", problem.string(), path.string(), "--html", page.string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 1);
  const std::string html = test::readText(page);
  const std::string open = "<script id=\"prmkit-data\" type=\"application/json\">";
  const auto begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const auto start = begin + open.size();
  const auto data = nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
  REQUIRE(data.at("frames").size() == kViewerFrames);
  const Problem loaded = loadProblem(problem);
  Config q(3);
  q << 5, 5, 0;
  std::vector<Transform> poses;
  loaded.robot->linkPoses(q, poses);
  REQUIRE(data.contains("collision"));
  for (std::size_t i = 0; i < poses.size(); ++i)
    CHECK((matrixAt(data["collision"], i) - poses[i].matrix()).cwiseAbs().maxCoeff() <= 1e-5);
  CHECK(data.at("legend").dump().find("waypoint 1 is in collision") != std::string::npos);
  // A path that verifies gets a page without a collision.
  const auto planned = test::cli({"plan", problem.string(), "--out", (dir.path / "out").string()});
  REQUIRE(planned.code == 0);
  const auto good = dir.path / "good.html";
  REQUIRE(test::cli({"verify", problem.string(), (dir.path / "out/path.csv").string(), "--html", good.string()}).code ==
          0);
  CHECK(test::readText(good).find("\"collision\":") == std::string::npos);
}

TEST_CASE("viewer page: a problem name cannot close the data's script element", "[viewer]") {
  Planned p = plan("maze2d");
  p.problem.name = "</script><script>alert(1)</script>";
  const std::string page = viewerPage(viewerData(p.problem, "adaptive", p.result));
  CHECK(page.find("alert(1)</script>") == std::string::npos);
  CHECK(page.find("\\u003c/script>\\u003cscript>alert(1)") != std::string::npos);
}

TEST_CASE("viewer page renders in headless Chromium: no script error, not blank, links where prmkit poses them",
          "[viewer][browser]") {
  const std::string chromium = PRMKIT_CHROMIUM;
  INFO("Chromium: '" << chromium << "' (scripts/install-deps.sh installs Debian's chromium)");
  REQUIRE(!chromium.empty());
  const test::TempDir dir;
  for (const std::string name : {"maze2d", "twisted_slot", "arm6_shelf"}) {
    INFO(name);
    const Planned p = plan(name);
    REQUIRE(p.result.solved);
    const auto data = viewerData(p.problem, "adaptive", p.result);
    const auto page = dir.write(name + ".html", viewerPage(data));
    const std::size_t frame = kViewerFrames / 2;
    const auto [code, dom] =
        test::run({chromium, "--headless", "--no-sandbox", "--enable-unsafe-swiftshader",
                   "--user-data-dir=" + (dir.path / ("profile-" + name)).string(), "--window-size=900,700",
                   "--dump-dom", fmt::format("file://{}#selftest={}", page.string(), frame)},
                  dir.path / (name + ".dom"));
    REQUIRE(code == 0);
    INFO(dom.substr(0, 300));
    // The page names its state in its title: "ready", or the first script error.
    CHECK(dom.find("<title>prmkit viewer: ready</title>") != std::string::npos);
    const auto begin = dom.find("<pre id=\"selftest\">");
    REQUIRE(begin != std::string::npos);
    const auto start = begin + std::string("<pre id=\"selftest\">").size();
    const auto self = nlohmann::json::parse(dom.substr(start, dom.find("</pre>", start) - start));
    // A blank canvas has one colour; shaded bodies, lines and antialiasing give hundreds.
    CHECK(self.at("colours").get<int>() >= 100);
    // The first vertex of every link, as three.js places it at that frame.
    const Robot& robot = *p.problem.robot;
    const Config q = configAt(data["frames"][frame]);
    std::vector<Transform> poses;
    robot.linkPoses(q, poses);
    const double size = p.problem.sceneSize();
    const double lift = self.at("lift").get<double>();
    CHECK(lift <= 1e-2 * size);
    REQUIRE(self.at("vertices").size() == poses.size());
    for (std::size_t i = 0; i < poses.size(); ++i) {
      const Eigen::Vector3d expected = poses[i] * robot.links()[i].mesh.vertices[0] + Eigen::Vector3d(0, 0, lift);
      for (int k = 0; k < 3; ++k)
        CHECK(self["vertices"][i][static_cast<std::size_t>(k)].get<double>() ==
              Approx(expected[k]).margin(1e-5 * (1.0 + size)));
    }
  }
}
