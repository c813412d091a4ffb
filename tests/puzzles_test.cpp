// The shipped hard puzzles are the puzzles they claim to be: the alpha
// puzzle's pieces are interlocked, part only through a slot of the stated
// width, and a planned path does part them.
#include "generators/generators.h"
#include "eval/verify.h"
#include "io/problem.h"
#include "registry/planner_registry.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace prmkit;

namespace {

using Polygon = std::vector<Eigen::Vector3d>;

/// Linking number of two closed polygons (each closed from its last point
/// back to its first): B's signed crossings of the cone that joins an apex
/// to every edge of A. The cone is a surface whose boundary is A, so the
/// count is the linking number whatever the apex (in general position).
int linkingNumber(const Polygon& a, const Polygon& b, const Eigen::Vector3d& apex) {
  int crossings = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Eigen::Vector3d e1 = a[i] - apex, e2 = a[(i + 1) % a.size()] - apex;
    const Eigen::Vector3d normal = e1.cross(e2);
    for (std::size_t j = 0; j < b.size(); ++j) {
      const Eigen::Vector3d from = b[j], direction = b[(j + 1) % b.size()] - from;
      // from + t direction = apex + u e1 + v e2, with t in [0, 1), u, v >= 0, u + v <= 1.
      Eigen::Matrix3d system;
      system << e1, e2, -direction;
      if (std::abs(system.determinant()) < 1e-14) continue;
      const Eigen::Vector3d solution = system.colPivHouseholderQr().solve(from - apex);
      const double u = solution[0], v = solution[1], t = solution[2];
      if (t < 0 || t >= 1 || u < 0 || v < 0 || u + v > 1) continue;
      crossings += normal.dot(direction) > 0 ? 1 : -1;
    }
  }
  return crossings;
}

/// The pieces of the shipped variants (the problem files' generator parameters).
AlphaPuzzleParams shippedPiece(const std::string& name) {
  AlphaPuzzleParams params;
  params.clearance = name == "alpha_puzzle" ? 0.03 : 0.01;
  return params;
}

Polygon placed(const Polygon& line, const Config& pose) {
  const Eigen::Quaterniond rotation(pose[6], pose[3], pose[4], pose[5]);
  Polygon out;
  for (const auto& p : line) out.push_back(rotation.normalized() * p + pose.head<3>());
  return out;
}

/// Distance from a point to a polyline.
double distanceToPolyline(const Eigen::Vector3d& p, const Polygon& line) {
  double best = INFINITY;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    const Eigen::Vector3d d = line[i + 1] - line[i];
    const double t = std::clamp((p - line[i]).dot(d) / d.squaredNorm(), 0.0, 1.0);
    best = std::min(best, (line[i] + t * d - p).norm());
  }
  return best;
}

/// Sliding from `start` by `distance` along any axis, either way, collides.
void checkStraightWaysOutBlocked(Checker& checker, const Config& start, double distance) {
  for (int axis = 0; axis < 3; ++axis)
    for (const double sign : {-1.0, 1.0}) {
      Config away = start;
      away[axis] += sign * distance;
      CHECK(checker.checkEdge(start, away).verdict == Verdict::Colliding);
    }
}

}  // namespace

TEST_CASE("an alpha puzzle piece: its ends run a tube's diameter plus the clearance apart", "[puzzles]") {
  AlphaPuzzleParams params;
  params.clearance = 0.01;
  const Polygon line = alphaPuzzleCentreLine(params);
  // The ends: the first and the last overlap / (2 pi + overlap) of the line.
  const auto endPoints =
      static_cast<std::size_t>(std::floor(params.segments * params.overlap / (2 * std::numbers::pi + params.overlap)));
  REQUIRE(endPoints >= 4);
  const Polygon lowerEnd(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(endPoints) + 1);
  const Polygon upperEnd(line.end() - static_cast<std::ptrdiff_t>(endPoints) - 1, line.end());
  // Every point of the upper end's middle lies 4 r + clearance from the
  // lower end's centre line: the surfaces are 2 r + clearance apart.
  for (std::size_t i = 1; i + 1 < upperEnd.size(); ++i)
    CHECK(distanceToPolyline(upperEnd[i], lowerEnd) == Approx(4 * params.tube_radius + params.clearance).margin(1e-4));
  // The mesh is the tube: every vertex but the caps' centres lies r from the line (the
  // polyline's chords cut the helix's curve by a few micrometres).
  const Mesh mesh = alphaPuzzleMesh(params);
  for (std::size_t i = 0; i + 2 < mesh.vertices.size(); ++i)
    REQUIRE(distanceToPolyline(mesh.vertices[i], line) == Approx(params.tube_radius).margin(2e-5));
}

TEST_CASE("the shipped alpha puzzles' pieces are interlocked at the start and apart at the goal and a plan parts them",
          "[puzzles]") {
  for (const std::string name : {"alpha_puzzle", "alpha_puzzle_tight"}) {
    DYNAMIC_SECTION(name) {
      const Problem problem = test::loadForPlanning(name, {"seed=3"});
      const Polygon line = alphaPuzzleCentreLine(shippedPiece(name));
      REQUIRE(problem.robot->links().front().mesh.vertices.size() ==
              alphaPuzzleMesh(shippedPiece(name)).vertices.size());
      // Each piece's loop closed by the segment between its ends' centres,
      // which runs through the slot: while the tubes do not touch, the
      // linking number of the two closed loops changes only when a tube
      // crosses the other piece's closing segment, that is, passes its slot.
      const Eigen::Vector3d apex(0.0123, -0.0071, 0.0311);
      auto linking = [&](const Config& pose) {
        const Polygon moved = placed(line, pose);
        return linkingNumber(line, moved, apex);
      };
      CHECK(std::abs(linking(problem.start)) == 1);
      CHECK(linking(problem.goal) == 0);
      auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
      REQUIRE(checker->isValid(problem.start));
      REQUIRE(checker->isValid(problem.goal));
      // Sliding straight out, along any axis, is blocked.
      checkStraightWaysOutBlocked(*checker, problem.start, 2.0);
      if (name == "alpha_puzzle") {
        const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
        INFO(result.status);
        REQUIRE(result.solved);
        const VerifyResult verdict = verifyPath(problem, result.path, defaultVerifyEps(problem));
        INFO(verdict.message);
        REQUIRE(verdict.valid);
        REQUIRE(linking(result.path.front()) != linking(result.path.back()));
      }
    }
  }
}

/// The loop of an alpha_tube piece, closed by the segment across its
/// crossing: its centre line from where the first strand passes the
/// crossing (x = 0, on top) round to where the second does (below).
Polygon alphaTubeLoop(const AlphaTubeParams& params) {
  const double h = params.scale * (2 * params.tube_radius + params.gap);
  Polygon loop{Eigen::Vector3d(0, 0, h / 2)};
  for (const Eigen::Vector3d& p : alphaTubeCentreLine(params))
    if (p.x() < 0) loop.push_back(p);
  loop.emplace_back(0, 0, -h / 2);
  return loop;
}

TEST_CASE("an alpha_tube piece: strands cross the tube's diameter plus the gap apart, tails end in hooks",
          "[puzzles]") {
  for (const double scale : {1.0, 1.5}) {
    AlphaTubeParams params;
    params.scale = scale;
    const Polygon line = alphaTubeCentreLine(params);
    const double h = scale * (2 * params.tube_radius + params.gap);
    // The strands: the first runs from tail A's tip through the crossing, the
    // second from the crossing out to tail B's; the x = 0 crossings split them.
    Polygon first, second;
    bool passedLoop = false;
    for (const Eigen::Vector3d& p : line) {
      if (p.x() < 0) passedLoop = true;
      if (p.x() >= 0) (passedLoop ? second : first).push_back(p);
    }
    REQUIRE(first.size() > 4);
    REQUIRE(second.size() > 4);
    // Closest approach of the two tails' centre lines: at the crossing, h
    // apart (less a hair for the climb of the strands; the sampled points
    // miss the crossing by up to half a segment), surfaces gap apart.
    double closest = INFINITY;
    for (const Eigen::Vector3d& p : first) closest = std::min(closest, distanceToPolyline(p, second));
    CHECK(closest <= 1.01 * h);
    CHECK(closest >= 0.99 * h);
    // Each tail's tip points hook_angle away from its straight run (the last
    // chord of the hook: half a segment's turn short of it).
    const double g = params.crossing_angle / 2;
    const Eigen::Vector3d tipA = (line[0] - line[1]).normalized();
    const Eigen::Vector3d runA(std::cos(g), std::sin(g), 0);
    CHECK(std::acos(std::clamp(tipA.dot(runA), -1.0, 1.0)) == Approx(params.hook_angle).margin(0.1));
    CHECK(tipA.cross(runA).z() < 0);  // turned left, away from tail B
    const Eigen::Vector3d tipB = (line.back() - line[line.size() - 2]).normalized();
    const Eigen::Vector3d runB(std::cos(g), -std::sin(g), 0);
    CHECK(std::acos(std::clamp(tipB.dot(runB), -1.0, 1.0)) == Approx(params.hook_angle).margin(0.1));
    CHECK(tipB.cross(runB).z() > 0);
    // The mesh is the tube: every vertex but the caps' centres lies r from
    // the line (whose chords cut the hooks' bends by up to 0.6 mm).
    const Mesh mesh = alphaTubeMesh(params);
    for (std::size_t i = 0; i + 2 < mesh.vertices.size(); ++i)
      REQUIRE(distanceToPolyline(mesh.vertices[i], line) == Approx(scale * params.tube_radius).margin(6e-4));
  }
}

TEST_CASE("the shipped alpha_tube: pieces linked at the start, apart at the goal, no straight way out", "[puzzles]") {
  const Problem problem = test::loadForPlanning("alpha_tube");
  AlphaTubeParams freePiece, fixedPiece;
  fixedPiece.scale = 1.5;
  REQUIRE(problem.robot->links().front().mesh.vertices.size() == alphaTubeMesh(freePiece).vertices.size());
  REQUIRE(problem.scene->obstacles().front().mesh.vertices.size() == alphaTubeMesh(fixedPiece).vertices.size());
  // Each loop closed across its crossing: the linking number changes only
  // when a tube passes through the other piece's crossing.
  const Polygon fixedLoop = alphaTubeLoop(fixedPiece), freeLoop = alphaTubeLoop(freePiece);
  const Eigen::Vector3d apex(-1.5123, 0.0271, 0.0311);
  CHECK(std::abs(linkingNumber(fixedLoop, placed(freeLoop, problem.start), apex)) == 1);
  CHECK(linkingNumber(fixedLoop, placed(freeLoop, problem.goal), apex) == 0);
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  REQUIRE(checker->isValid(problem.start));
  REQUIRE(checker->isValid(problem.goal));
  checkStraightWaysOutBlocked(*checker, problem.start, 3.0);
}

TEST_CASE("bug_trap's flared exit: opening wide inside, opening + 2 lip tan(flare) at the front wall", "[puzzles]") {
  BugTrapParams params;
  params.lids = true;
  const Mesh straight = bugTrapMesh(params);
  params.flare = 0.35;
  const Mesh flared = bugTrapMesh(params);
  const double h = params.size / 2, mouth = params.opening + 2 * params.lip * std::tan(params.flare);
  auto hasVertex = [&](double x, double y) {
    return std::any_of(flared.vertices.begin(), flared.vertices.end(), [&](const Eigen::Vector3d& v) {
      return std::abs(v.x() - x) < 1e-9 && std::abs(v.y() - y) < 1e-9;
    });
  };
  for (const double side : {-1.0, 1.0}) {
    CHECK(hasVertex(h - params.lip, side * params.opening / 2));
    CHECK(hasVertex(h, side * mouth / 2));
  }
  // No vertex of the flared trap lies inside the funnel (between the lips' inner faces).
  for (const Eigen::Vector3d& v : flared.vertices) {
    if (v.x() <= h - params.lip + 1e-9 || v.x() > h + 1e-9 || std::abs(v.z()) > params.height / 2 - 1e-9) continue;
    const double halfWidth = params.opening / 2 + (v.x() - (h - params.lip)) * std::tan(params.flare);
    CHECK(std::abs(v.y()) >= halfWidth - 1e-9);
  }
  CHECK(flared.triangles.size() == straight.triangles.size());
}

TEST_CASE("the shipped house: one door per edge of a spanning tree of its rooms, closed elsewhere and above the doors",
          "[puzzles]") {
  // The walls are probed with a 0.1 m cube instead of read from the
  // generator: along every wall between two rooms at z = 1 m, free runs of
  // the cube are doors; the outer walls and, above the doors' 2 m, every
  // wall have none; the doors must join all 20 rooms with 19 doors (a tree).
  HouseParams params;  // the shipped problem's generator parameters are the defaults
  const Problem cube = test::loadForPlanning("house", {"robot.geometry.box=[0.1, 0.1, 0.1]"});
  const Problem sofa = test::loadForPlanning("house");
  auto checker = makeChecker(cube.checker, cube.robot, cube.scene);
  auto freeAt = [&](double x, double y, double z) { return checker->isValid(Config{{x, y, z, 0, 0, 0, 1}}); };
  const double step = 0.02;
  // Free runs along a wall at `across`, from `from` to `to`: the centres of the runs.
  auto openings = [&](bool alongX, double across, double from, double to, double z) {
    std::vector<double> centres;
    double runStart = -1;
    for (double s = from; s <= to + 1e-9; s += step) {
      const bool open = alongX ? freeAt(s, across, z) : freeAt(across, s, z);
      if (open && runStart < 0) runStart = s;
      if (!open && runStart >= 0) {
        centres.push_back(0.5 * (runStart + s - step));
        runStart = -1;
      }
    }
    if (runStart >= 0) centres.push_back(0.5 * (runStart + to));
    return centres;
  };
  const int rooms = params.rooms_x * params.rooms_y;
  std::vector<std::vector<int>> joined(static_cast<std::size_t>(rooms));
  std::vector<Eigen::Vector3d> found;
  int doors = 0;
  for (int j = 0; j < params.rooms_y; ++j)
    for (int i = 0; i < params.rooms_x; ++i) {
      const int room = j * params.rooms_x + i;
      for (const bool alongX : {false, true}) {
        if (alongX ? j + 1 >= params.rooms_y : i + 1 >= params.rooms_x) continue;
        const double across = alongX ? (j + 1) * params.room : (i + 1) * params.room;
        const double from = alongX ? i * params.room : j * params.room;
        const std::vector<double> open = openings(alongX, across, from + 0.1, from + params.room - 0.1, 1.0);
        CHECK(open.size() <= 1);
        CHECK(openings(alongX, across, from + 0.1, from + params.room - 0.1, 2.25).empty());
        if (open.empty()) continue;
        ++doors;
        const int other = alongX ? room + params.rooms_x : room + 1;
        joined[static_cast<std::size_t>(room)].push_back(other);
        joined[static_cast<std::size_t>(other)].push_back(room);
        found.push_back(alongX ? Eigen::Vector3d(open[0], across, 0) : Eigen::Vector3d(across, open[0], 0));
      }
    }
  const double width = params.rooms_x * params.room, depth = params.rooms_y * params.room;
  for (const double y : {0.0, depth}) CHECK(openings(true, y, 0.1, width - 0.1, 1.0).empty());
  for (const double x : {0.0, width}) CHECK(openings(false, x, 0.1, depth - 0.1, 1.0).empty());
  CHECK(doors == rooms - 1);
  std::vector<int> reached{0};
  std::vector<char> seen(static_cast<std::size_t>(rooms), 0);
  seen[0] = 1;
  for (std::size_t k = 0; k < reached.size(); ++k)
    for (const int next : joined[static_cast<std::size_t>(reached[k])])
      if (!seen[static_cast<std::size_t>(next)]) {
        seen[static_cast<std::size_t>(next)] = 1;
        reached.push_back(next);
      }
  CHECK(static_cast<int>(reached.size()) == rooms);
  // The doors probed are where the generator says, to the probe's step.
  const std::vector<Eigen::Vector3d> stated = houseDoors(params);
  REQUIRE(stated.size() == found.size());
  for (const Eigen::Vector3d& door : found) {
    double nearest = 1e9;
    for (const Eigen::Vector3d& s : stated) nearest = std::min(nearest, (s - door).norm());
    CHECK(nearest <= step);
  }
  // The sofa stands at start and goal, and is too long to cross a door sideways.
  auto sofaChecker = makeChecker(sofa.checker, sofa.robot, sofa.scene);
  CHECK(sofaChecker->isValid(sofa.start));
  CHECK(sofaChecker->isValid(sofa.goal));
  const Eigen::Vector3d door = stated.front();
  const bool wallAlongX = std::abs(door.y() / params.room - std::round(door.y() / params.room)) < 1e-9;
  const double yaw = wallAlongX ? 0.0 : std::numbers::pi / 2;  // the sofa's long side along the wall
  const Config sideways{{door.x(), door.y(), 0.45, 0, 0, std::sin(yaw / 2), std::cos(yaw / 2)}};
  CHECK_FALSE(sofaChecker->isValid(sideways));
  const double square = yaw + std::numbers::pi / 2;
  CHECK(sofaChecker->isValid(Config{{door.x(), door.y(), 0.45, 0, 0, std::sin(square / 2), std::cos(square / 2)}}));
  // A house beyond the mesh's triangle budget is refused before it is built.
  HouseParams huge;
  huge.rooms_x = huge.rooms_y = 100;
  huge.furniture = 100;
  REQUIRE_THROWS_AS(houseMesh(huge), std::invalid_argument);
}
