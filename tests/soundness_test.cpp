// Distance bounds that are lower bounds at every scale, and configurations
// read from outside in one canonical form: the two ways an exact checker, its
// ground truth and `verify` could all be fooled at once.
#include "io/mesh_reader.h"
#include "setup/build_problem.h"
#include "eval/edge_check.h"
#include "eval/independent_check.h"
#include "geometry/bvh_distance.h"
#include "registry/checker_registry.h"
#include "geometry/clearance.h"
#include "geometry/collision_queries.h"
#include "geometry/triangle_distance.h"
#include "generators/generators.h"
#include "robots/rigid_body.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>
#include <fcl/narrowphase/distance.h>

#include "base/random.h"

#include <cmath>
#include <random>

using namespace prmkit;
using Eigen::Vector3d;
using test::cli;
using test::TempDir;

namespace {

/// FCL's triangle distance on unit-sized triangles, where its absolute
/// thresholds do not bite: the distance between two points it returns, so an
/// upper bound of the true distance, independent of prmkit's code.
double fclDistance(const Vector3d a[3], const Vector3d b[3]) {
  Vector3d p, q;
  return fcl::detail::TriangleDistance<double>::triDistance(a[0], a[1], a[2], b[0], b[1], b[2], p, q);
}

Vector3d randomPoint(std::mt19937& rng, double extent) {
  std::uniform_real_distribution<double> u(-extent, extent);
  return {u(rng), u(rng), u(rng)};
}

/// Random triangle pairs of unit size: mostly apart, some crossing, some thin.
void randomTrianglePair(std::mt19937& rng, Vector3d a[3], Vector3d b[3]) {
  std::uniform_int_distribution<int> kind(0, 3);
  const Vector3d offset = randomPoint(rng, 1.5);
  for (int i = 0; i < 3; ++i) {
    a[i] = randomPoint(rng, 1.0);
    b[i] = randomPoint(rng, 1.0) + offset;
  }
  if (kind(rng) == 0) b[2] = b[1] + 1e-3 * randomPoint(rng, 1.0);  // a sliver
}

}  // namespace

TEST_CASE("triangle distance: lower bounds at scales 1e-6, 1 and 1e4", "[soundness]") {
  std::mt19937 rng(7);
  const int pairs = test::scaled(100000);
  std::vector<std::array<Vector3d, 6>> cases(static_cast<std::size_t>(pairs));
  std::vector<double> reference(cases.size());
  for (std::size_t c = 0; c < cases.size(); ++c) {
    Vector3d a[3], b[3];
    randomTrianglePair(rng, a, b);
    cases[c] = {a[0], a[1], a[2], b[0], b[1], b[2]};
    reference[c] = fclDistance(a, b);
  }
  for (const double scale : {1e-6, 1.0, 1e4}) {
    int loose = 0;
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const auto& v = cases[c];
      const TriangleDistance d =
          triangleDistance(scale * v[0], scale * v[1], scale * v[2], scale * v[3], scale * v[4], scale * v[5]);
      const double truthUpper = scale * reference[c];
      INFO("scale " << scale << ", case " << c << ": lower " << d.lower << ", FCL at unit scale " << truthUpper);
      REQUIRE(d.lower >= 0.0);
      REQUIRE(d.lower <= truthUpper * (1 + 1e-12) + 1e-15 * scale);  // never above a measured point pair
      REQUIRE(d.lower <= d.upper);
      if (d.lower < truthUpper * (1 - 1e-9) - 1e-12 * scale) ++loose;
    }
    INFO("scale " << scale);
    CHECK(loose <= pairs / 1000);  // and tight: the direction found is the closest pair's
  }
}

TEST_CASE("triangle distance: a vertex over a tiny face, where FCL's absolute threshold over-estimates",
          "[soundness]") {
  for (const double scale : {1e-6, 1e-3, 1.0, 1e4}) {
    // A right triangle with legs 1e-5 * scale, and a triangle whose lowest
    // vertex hangs `gap` above the middle of its face.
    const double leg = 1e-5 * scale, gap = 1e-6 * scale;
    const Vector3d a0(0, 0, 0), a1(leg, 0, 0), a2(0, leg, 0);
    const Vector3d tip(0.25 * leg, 0.25 * leg, gap);
    const Vector3d b1 = tip + Vector3d(leg, 0, leg), b2 = tip + Vector3d(0, leg, leg);
    const TriangleDistance d = triangleDistance(a0, a1, a2, tip, b1, b2);
    INFO("scale " << scale << ": lower " << d.lower << ", upper " << d.upper << ", true " << gap);
    REQUIRE(d.lower <= gap);
    REQUIRE(d.lower >= gap * (1 - 1e-9));
    REQUIRE(d.upper == Approx(gap).epsilon(1e-9));
  }
}

TEST_CASE("triangle distance: crossing and touching triangles have lower bound 0", "[soundness]") {
  for (const double scale : {1e-6, 1.0, 1e4}) {
    // An edge of b pierces a's face: every vertex and edge pair is apart.
    const Vector3d a0(0, 0, 0), a1(scale, 0, 0), a2(0, scale, 0);
    const Vector3d b0(0.2 * scale, 0.2 * scale, -0.5 * scale), b1(0.2 * scale, 0.2 * scale, 0.5 * scale),
        b2(0.2 * scale, 5 * scale, 0.5 * scale);
    REQUIRE(triangleDistance(a0, a1, a2, b0, b1, b2).lower == 0.0);
    // A shared vertex.
    REQUIRE(triangleDistance(a0, a1, a2, a1, Vector3d(2 * scale, scale, scale), Vector3d(scale, 3 * scale, 0)).lower ==
            0.0);
  }
}

namespace {
/// The distance between two meshes by brute force over all triangle pairs,
/// with FCL's triangle distance on the meshes scaled to unit size: an upper
/// bound of the true distance that shares no code with BvhDistance.
double bruteForceDistance(const Mesh& a, const Transform& poseA, const Mesh& b, const Transform& poseB, double scale) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& s : a.triangles)
    for (const auto& t : b.triangles) {
      Vector3d ta[3], tb[3];
      for (int k = 0; k < 3; ++k) {
        ta[k] = poseA * a.vertices[static_cast<std::size_t>(s[static_cast<std::size_t>(k)])] / scale;
        tb[k] = poseB * b.vertices[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])] / scale;
      }
      best = std::min(best, fclDistance(ta, tb));
    }
  return best * scale;
}

Mesh scaledMesh(Mesh mesh, double scale) {
  for (auto& v : mesh.vertices) v *= scale;
  return mesh;
}
}  // namespace

TEST_CASE("mesh distance bounds are lower bounds at scales 1e-6, 1 and 1e4 for every shipped mesh kind",
          "[soundness]") {
  // Every mesh a shipped problem or generator builds: primitives, the
  // generated obstacles, and a link made of two primitives (as the URDF arm's).
  SpringParams spring;
  spring.turns = 2;
  spring.segments = 24;
  GearParams gear;
  gear.teeth = 8;
  GearPlateParams plate;
  plate.gear.teeth = 8;
  Mesh twoPrimitives = boxMesh({0.2, 0.2, 0.6});
  twoPrimitives.append(cylinderMesh(0.15, 0.2, 12), Transform(Eigen::Translation3d(0, 0, 0.35)));
  RandomBoxesParams boxes;
  boxes.count = 4;
  boxes.region_min = {-1, -1, -0.5};
  boxes.region_max = {1, 1, 0.5};
  const std::vector<std::pair<std::string, Mesh>> shapes = {{"box", boxMesh({1.0, 0.4, 0.2})},
                                                            {"sphere", sphereMesh(0.5, 10)},
                                                            {"cylinder", cylinderMesh(0.3, 1.0, 10)},
                                                            {"spring", springMesh(spring)},
                                                            {"gear", gearMesh(gear)},
                                                            {"gear plate and spindle", gearPlateMotorMesh(plate)},
                                                            {"slot wall", slotWallMesh(SlotWallParams{})},
                                                            {"twisted slot", twistedSlotMesh(TwistedSlotParams{})},
                                                            {"bug trap", bugTrapMesh(BugTrapParams{})},
                                                            {"random boxes", randomObstaclesMesh(boxes)},
                                                            {"two-primitive link", twoPrimitives}};
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int posesPerPair = std::max(2, test::scaled(6));
  for (const double scale : {1e-6, 1.0, 1e4}) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const std::size_t j = (i + 1) % shapes.size();
      const Mesh a = scaledMesh(shapes[i].second, scale), b = scaledMesh(shapes[j].second, scale);
      const auto bvhA = buildBvh(a), bvhB = buildBvh(b);
      const ConvexCover coverA = convexCoverOf(a, *bvhA), coverB = convexCoverOf(b, *bvhB);
      BvhDistance distance;  // it keeps per-model data keyed by the models, which live only in this iteration
      for (int p = 0; p < posesPerPair; ++p) {
        const Transform poseA = Transform(Eigen::Translation3d(scale * Vector3d(unit(rng), unit(rng), unit(rng))) *
                                          Eigen::Quaterniond::UnitRandom());
        const Transform poseB = Transform(Eigen::Translation3d(scale * Vector3d(unit(rng), unit(rng), unit(rng))) *
                                          Eigen::Quaterniond::UnitRandom());
        CheckStats stats;
        const DistanceBound bound = distance.lowerBound(*bvhA, poseA, *bvhB, poseB, 1e9 * scale, 0.0, stats);
        // The convex cascade, asked for a threshold the pieces can answer and
        // for one they cannot (then the traversal decides).
        const PlacedBody placedA{*bvhA, &coverA, poseA}, placedB{*bvhB, &coverB, poseB};
        const DistanceBound byHulls = distance.lowerBound(placedA, placedB, 1e9 * scale, 1.0, true, stats);
        const DistanceBound nearHulls = distance.lowerBound(placedA, placedB, 0.05 * scale, 1.0, true, stats);
        const double truthUpper = bruteForceDistance(a, poseA, b, poseB, scale);
        INFO(shapes[i].first << " vs " << shapes[j].first << " at scale " << scale << ": lower " << bound.lower
                             << ", convex cascade " << byHulls.lower << " and " << nearHulls.lower << ", brute force "
                             << truthUpper);
        REQUIRE(bound.lower <= truthUpper * (1 + 1e-12) + 1e-15 * scale);
        REQUIRE(bound.lower >= truthUpper * (1 - 1e-6) - 1e-12 * scale);
        REQUIRE(byHulls.lower <= truthUpper * (1 + 1e-12) + 1e-15 * scale);
        REQUIRE(nearHulls.lower <= truthUpper * (1 + 1e-12) + 1e-15 * scale);
      }
    }
  }
}

TEST_CASE("rotation angles are exact for tiny and large turns", "[soundness]") {
  const Eigen::Quaterniond identity = Eigen::Quaterniond::Identity();
  for (const double angle : {1e-12, 1e-9, 4e-3, 1.0, 3.0}) {
    const Eigen::Quaterniond turned(Eigen::AngleAxisd(angle, Vector3d(1, 2, 3).normalized()));
    REQUIRE(rotationAngle(identity, turned) == Approx(angle).epsilon(1e-9));
    // A non-unit quaternion is the same rotation: the angle must not vanish.
    Eigen::Quaterniond doubled = turned;
    doubled.coeffs() *= 2.0;
    REQUIRE(rotationAngle(identity, doubled) == Approx(angle).epsilon(1e-9));
  }
}

namespace {
const std::string kBarProblem = R"(name: bar
robot:
  type: rigid3d
  geometry: {box: [2.0, 0.05, 0.05]}
bounds: {lower: [-3, -3, -3], upper: [3, 3, 3]}
scene:
  obstacles:
    - {name: pillar, box: [0.1, 0.1, 2], pose: {xyz: [0.7, 0.7, 0]}}
start: {xyz: [0, 0, 0], quaternion: [0, 0, 0, 1]}
goal: {xyz: [0, 0, 0], quaternion: [0, 0, 0.7071067811865476, 0.7071067811865476]}
checker: {type: adaptive}
)";
}  // namespace

TEST_CASE("quaternions from every entry point are normalised near unit norm and refused otherwise", "[soundness]") {
  TempDir dir;
  const std::string header = "x,y,z,qx,qy,qz,qw";
  const std::string edgeHeader = "a.x,a.y,a.z,a.qx,a.qy,a.qz,a.qw,b.x,b.y,b.z,b.qx,b.qy,b.qz,b.qw";
  const auto problem = dir.write("bar.yaml", kBarProblem);
  // A 90-degree turn of a 2 m bar through a pillar: colliding however its quaternions are scaled.
  const std::string start = "0,0,0,0,0,0,1", goal = "0,0,0,0,0,0.7071067811865476,0.7071067811865476";
  const std::string startTwice = "0,0,0,0,0,0,2", goalTwice = "0,0,0,0,0,1.414213562373095,1.414213562373095";
  const std::string goalNearUnit = "0,0,0,0,0,0.7071081954,0.7071081954";  // norm 1 + 2e-6

  SECTION("path files") {
    const auto nearUnit = dir.write("near.csv", header + "\n" + start + "\n" + goalNearUnit + "\n");
    const auto run = cli({"verify", problem.string(), nearUnit.string()});
    INFO(run.out << run.err);
    REQUIRE(run.code == 1);  // read as the unit quaternion, and the turn collides
    REQUIRE(run.out.find("pillar") != std::string::npos);
    for (const auto& [name, row] : {std::pair{"twice", goalTwice}, std::pair{"zero", std::string("0,0,0,0,0,0,0")}}) {
      const auto file = dir.write(std::string(name) + ".csv", header + "\n" + start + "\n" + row + "\n");
      const auto bad = cli({"verify", problem.string(), file.string()});
      INFO(name << ": " << bad.err);
      REQUIRE(bad.code == 2);
      REQUIRE(bad.err.find(file.string() + ":3:1:") != std::string::npos);
      REQUIRE(bad.err.find("quaternion") != std::string::npos);
    }
  }
  SECTION("edge files") {
    const auto nearUnit = dir.write("edges.csv", edgeHeader + "\n" + start + "," + goalNearUnit + "\n");
    const auto run =
        cli({"check", problem.string(), "--edges", nearUnit.string(), "--checker", "adaptive", "--truth-eps", "0.001"});
    INFO(run.out << run.err);
    REQUIRE(run.code == 0);
    REQUIRE(run.out.find("0 free, 1 colliding") != std::string::npos);
    REQUIRE(run.out.find("0 misses") != std::string::npos);
    const auto twice = dir.write("twice.csv", edgeHeader + "\n" + startTwice + "," + goalTwice + "\n");
    const auto bad = cli({"check", problem.string(), "--edges", twice.string(), "--checker", "adaptive"});
    INFO(bad.err);
    REQUIRE(bad.code == 2);
    REQUIRE(bad.err.find(twice.string() + ":2:1:") != std::string::npos);
    REQUIRE(bad.err.find("norm 2") != std::string::npos);
  }
  SECTION("start and goal") {
    const auto twice =
        dir.write("twice.yaml", test::replaceOnce(kBarProblem, "quaternion: [0, 0, 0, 1]", "quaternion: [0, 0, 0, 2]"));
    auto bad = cli({"validate", twice.string()});
    INFO(bad.err);
    REQUIRE(bad.code == 2);
    REQUIRE(bad.err.find("twice.yaml:") != std::string::npos);
    REQUIRE(bad.err.find("quaternion") != std::string::npos);
    const auto zero =
        dir.write("zero.yaml", test::replaceOnce(kBarProblem, "quaternion: [0, 0, 0, 1]", "quaternion: [0, 0, 0, 0]"));
    bad = cli({"validate", zero.string()});
    REQUIRE(bad.code == 2);
    REQUIRE(bad.err.find("zero quaternion") != std::string::npos);
    const auto nearUnit = dir.write(
        "near.yaml", test::replaceOnce(kBarProblem, "quaternion: [0, 0, 0, 1]", "quaternion: [0, 0, 0, 1.000002]"));
    const Problem loaded = loadProblem(nearUnit, {});
    REQUIRE(loaded.start.tail<4>().norm() == Approx(1.0).epsilon(1e-15));
  }
}

TEST_CASE("checkers refuse configurations that are not canonical", "[soundness]") {
  const Problem problem = loadProblem(test::problemFile("thin_wall"), {});
  CheckerSettings settings = problem.checker;
  settings.type = "adaptive";
  auto checker = makeChecker(settings, problem.robot, problem.scene);
  Config q = problem.start;
  q.tail<4>() *= 2.0;
  REQUIRE_THROWS_AS(checker->checkEdge(problem.start, q), std::invalid_argument);
  REQUIRE_THROWS_AS(checker->isValid(q), std::invalid_argument);
}

TEST_CASE("verify --independent catches what a coarse motion-bound check steps over, and accepts a free path",
          "[soundness]") {
  TempDir dir;
  // The bar translates through a 2 cm wall: with a 1 m step the motion-bound
  // check samples only the two sides; the independent check does not use that step.
  const auto problem = dir.write(
      "wall.yaml",
      test::replaceOnce(test::replaceOnce(kBarProblem, "{name: pillar, box: [0.1, 0.1, 2], pose: {xyz: [0.7, 0.7, 0]}}",
                                          "{name: wall, box: [0.02, 4, 4], pose: {xyz: [1.5, 0, 0]}}"),
                        "goal: {xyz: [0, 0, 0], quaternion: [0, 0, 0.7071067811865476, 0.7071067811865476]}",
                        "goal: {xyz: [2.9, 0, 0], quaternion: [0, 0, 0.7071067811865476, 0.7071067811865476]}"));
  const std::string header = "x,y,z,qx,qy,qz,qw\n";
  const auto through = dir.write("through.csv", header +
                                                    "0,0,0,0,0,0,1\n"
                                                    "0.45,0,0,0,0,0.7071067811865476,0.7071067811865476\n"
                                                    "2.9,0,0,0,0,0.7071067811865476,0.7071067811865476\n");
  const auto coarse = cli({"verify", problem.string(), through.string(), "--eps", "3"});
  INFO(coarse.out << coarse.err);
  REQUIRE(coarse.code == 0);  // the coarse motion-bound check alone is fooled
  const auto checked = cli({"verify", problem.string(), through.string(), "--eps", "3", "--independent"});
  INFO(checked.out << checked.err);
  REQUIRE(checked.code == 1);
  REQUIRE(checked.out.find("DISAGREEMENT") != std::string::npos);
  REQUIRE(checked.out.find("segment 1") != std::string::npos);
  // Turning in place, clear of the wall: free for both.
  const auto turn =
      dir.write("turn.csv", header + "0,0,0,0,0,0,1\n0.45,0,0,0,0,0.7071067811865476,0.7071067811865476\n");
  const auto endsShort = dir.write(
      "short.yaml",
      test::replaceOnce(test::replaceOnce(kBarProblem, "{name: pillar, box: [0.1, 0.1, 2], pose: {xyz: [0.7, 0.7, 0]}}",
                                          "{name: wall, box: [0.02, 4, 4], pose: {xyz: [1.5, 0, 0]}}"),
                        "goal: {xyz: [0, 0, 0], quaternion: [0, 0, 0.7071067811865476, 0.7071067811865476]}",
                        "goal: {xyz: [0.45, 0, 0], quaternion: [0, 0, 0.7071067811865476, 0.7071067811865476]}"));
  const auto free = cli({"verify", endsShort.string(), turn.string(), "--independent"});
  INFO(free.out << free.err);
  REQUIRE(free.code == 0);
  REQUIRE(free.out.find("independent check:") != std::string::npos);
}

namespace {
/// FCL's exact mesh distance (its own traversal and triangle distances at unit scale), or 0 when the meshes touch.
double fclMeshDistance(const std::shared_ptr<BvhModel>& a, const Transform& poseA, const std::shared_ptr<BvhModel>& b,
                       const Transform& poseB) {
  const fcl::CollisionObjectd objectA(a, poseA), objectB(b, poseB);
  fcl::CollisionRequestd collisionRequest;
  fcl::CollisionResultd collisionResult;
  if (fcl::collide(&objectA, &objectB, collisionRequest, collisionResult) > 0) return 0.0;
  fcl::DistanceRequestd request;
  fcl::DistanceResultd result;
  fcl::distance(&objectA, &objectB, request, result);
  return result.min_distance;
}
}  // namespace

namespace {
/// One body of every kind a distance bound meets: box, sphere and cylinder
/// meshes, a convex mesh of many vertices, a concave one, and a robot link
/// made of two primitives.
std::vector<std::pair<std::string, Mesh>> meshKinds() {
  GearParams gear;
  gear.teeth = 8;
  Mesh twoBoxes = boxMesh({0.2, 0.2, 0.6});  // a link of two primitives, as URDF arms have
  twoBoxes.append(cylinderMesh(0.15, 0.2), Transform(Eigen::Translation3d(0, 0, 0.35)));
  Mesh pebble = sphereMesh(1.0, 16);  // a convex mesh with many vertices: an ellipsoid
  for (auto& v : pebble.vertices) v = Vector3d(0.3 * v.x(), 0.2 * v.y(), 0.15 * v.z());
  // Forty separate small boxes, turned at random: a cover of more pieces
  // than a group holds, in groups (ConvexCover::groups), as a house's walls.
  Mesh scattered;
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int k = 0; k < 40; ++k)
    scattered.append(boxMesh({0.04 + 0.03 * (unit(rng) + 1), 0.05, 0.04 + 0.02 * (unit(rng) + 1)}),
                     Transform(Eigen::Translation3d(0.3 * Vector3d(unit(rng), unit(rng), unit(rng))) *
                               Eigen::Quaterniond::UnitRandom()));
  return {{"box", boxMesh({0.5, 0.3, 0.2})}, {"sphere", sphereMesh(0.25)},     {"cylinder", cylinderMesh(0.1, 0.6)},
          {"convex mesh", pebble},           {"concave mesh", gearMesh(gear)}, {"robot link", twoBoxes},
          {"scattered parts", scattered}};
}

Transform randomPose(std::mt19937& rng, double extent) {
  return Transform(Eigen::Translation3d(randomPoint(rng, extent)) * Eigen::Quaterniond::UnitRandom());
}
}  // namespace

TEST_CASE("convex-hull distance bounds: never above the exact distance, warm GJK equals cold", "[soundness][slow]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const std::vector<std::pair<std::string, Mesh>> shapes = meshKinds();
  const int poses = test::scaled(10000);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::size_t j = (i + 2) % shapes.size();
    const Mesh& meshA = shapes[i].second;
    const Mesh& meshB = shapes[j].second;
    const auto bvhA = buildBvh(meshA), bvhB = buildBvh(meshB);
    const ConvexCover coverA = convexCoverOf(meshA, *bvhA), coverB = convexCoverOf(meshB, *bvhB);
    REQUIRE(!coverA.empty());
    REQUIRE(!coverB.empty());
    // Convex shapes are one piece; the gear is split; the two-primitive link
    // is its two separate parts, each convex.
    if (i < 4)
      REQUIRE(coverA.pieces.size() == 1);
    else if (shapes[i].first == "robot link")
      REQUIRE(coverA.pieces.size() == 2);
    else if (shapes[i].first == "scattered parts")
      REQUIRE(coverA.pieces.size() == 40);
    else
      REQUIRE(coverA.pieces.size() > 1);
    for (const auto& piece : coverA.pieces)
      if (shapes[i].first == "robot link" || shapes[i].first == "scattered parts")
        REQUIRE(piece->concavity <= 1e-9 * piece->half_extent);
    // Groups of pieces when there are more than one holds: every piece in
    // exactly one, its bounding sphere inside the group's.
    REQUIRE(coverA.groups.empty() == (coverA.pieces.size() <= kPieceGroup));
    std::size_t grouped = 0;
    for (const ConvexCover::Group& group : coverA.groups) {
      REQUIRE(group.first == grouped);
      REQUIRE(group.count <= kPieceGroup);
      grouped += group.count;
      for (std::size_t k = group.first; k < group.first + group.count; ++k)
        REQUIRE((coverA.pieces[k]->center - group.center).norm() + coverA.pieces[k]->bounding_radius <= group.radius);
    }
    if (!coverA.groups.empty()) REQUIRE(grouped == coverA.pieces.size());
    BvhDistance distance;
    CheckStats stats;
    int hullAnswered = 0;
    for (int p = 0; p < poses; ++p) {
      const Transform poseA = Transform(Eigen::Translation3d(0.8 * Vector3d(unit(rng), unit(rng), unit(rng))) *
                                        Eigen::Quaterniond::UnitRandom());
      const Transform poseB = Transform(Eigen::Translation3d(0.8 * Vector3d(unit(rng), unit(rng), unit(rng))) *
                                        Eigen::Quaterniond::UnitRandom());
      const PlacedBody a{*bvhA, &coverA, poseA}, b{*bvhB, &coverB, poseB};
      const std::uint64_t before = stats.hull_answers;
      const DistanceBound cold = distance.lowerBound(a, b, 1e9, 0.0, true, stats);
      const bool byHulls = stats.hull_answers > before;
      hullAnswered += byHulls;
      const double exact = fclMeshDistance(bvhA, poseA, bvhB, poseB);
      INFO(shapes[i].first << " vs " << shapes[j].first << ", pose " << p << ": bound " << cold.lower << ", exact "
                           << exact);
      REQUIRE(cold.lower <= exact * (1 + 1e-9) + 1e-12);
      // A threshold the enclosing spheres and boxes often answer.
      REQUIRE(distance.lowerBound(a, b, 0.1, 1.0, true, stats).lower <= exact * (1 + 1e-9) + 1e-12);
      // Warm: from a direction a little off the one just found, and from the same one.
      DistanceBound hint = cold;
      hint.direction = (cold.direction + 0.3 * Vector3d(unit(rng), unit(rng), unit(rng))).normalized();
      const std::uint64_t beforeWarm = stats.hull_answers;
      const DistanceBound warm = distance.lowerBound(a, b, 1e9, 0.0, true, stats, &hint);
      REQUIRE(warm.lower <= exact * (1 + 1e-9) + 1e-12);
      if (byHulls && stats.hull_answers > beforeWarm)
        REQUIRE(warm.lower == Approx(cold.lower).epsilon(1e-6).margin(1e-9));
    }
    INFO(shapes[i].first << " vs " << shapes[j].first);
    // Pairs are answered by their convex pieces (not by the traversal) when apart.
    CHECK(hullAnswered > poses / 10);
  }
}

TEST_CASE("primitive distance bounds: never above the exact distance, tighter than the tessellation, overlap exact",
          "[soundness][slow]") {
  // Every mesh kind against a native box, sphere and cylinder. References,
  // none of them prmkit's GJK: the box against its exact mesh (FCL's
  // distance); the sphere in closed form (closest points on every
  // triangle); the cylinder between two FCL distances, to a 256-gon prism
  // inscribed in it (an upper bound of the true distance: a bound above it
  // is a bound above the truth by at least r (1 - cos(pi/256)) = 7.5e-5 r
  // less) and to the 24-gon prism that encloses it, which the tessellated
  // geometry used (a lower bound the native bound must reach).
  const std::vector<std::pair<std::string, Mesh>> meshes = meshKinds();
  const Primitive box = Primitive::box({0.5, 0.3, 0.2});
  const Primitive sphere = Primitive::sphere(0.25);
  const Primitive cylinder = Primitive::cylinder(0.1, 0.6);
  std::vector<Eigen::Vector2d> inscribedPolygon;
  for (int k = 0; k < 256; ++k)
    inscribedPolygon.emplace_back(0.1 * std::cos(2 * M_PI * k / 256), 0.1 * std::sin(2 * M_PI * k / 256));
  const auto boxBvh = buildBvh(box.enclosingMesh());
  const auto inscribedBvh = buildBvh(extrudePolygon(inscribedPolygon, 0.6));
  const auto enclosingBvh = buildBvh(cylinder.enclosingMesh());
  std::mt19937 rng(17);
  const int poses = test::scaled(10000);
  for (const auto& [meshName, mesh] : meshes) {
    const auto bvh = buildBvh(mesh);
    const ConvexCover cover = convexCoverOf(mesh, *bvh);
    for (const Primitive* primitive : {&box, &sphere, &cylinder}) {
      const auto primitiveBvh = buildBvh(primitive->enclosingMesh());
      BvhDistance distance;
      CheckStats stats;
      int touching = 0, apart = 0;
      for (int p = 0; p < poses; ++p) {
        const Transform poseA = randomPose(rng, 0.8), poseB = randomPose(rng, 0.8);
        const PlacedBody a{*bvh, &cover, poseA}, b{*primitiveBvh, nullptr, poseB, primitive};
        // The references measure surfaces: a small part wholly inside the
        // primitive is 0 from it as solids, though its surface is apart.
        const Transform toPrimitive = poseB.inverse() * poseA;
        const bool containsVertex = std::any_of(mesh.vertices.begin(), mesh.vertices.end(), [&](const Vector3d& v) {
          return primitive->contains(toPrimitive * v);
        });
        double exact = 0.0, upper = 0.0, tessellated = 0.0;  // tessellated: the enclosing mesh's distance
        if (containsVertex) {
          // 0 between the solids.
        } else if (primitive == &sphere) {
          double closest = std::numeric_limits<double>::infinity();
          const Vector3d centre = poseA.inverse() * poseB.translation();
          for (const auto& t : mesh.triangles)
            closest = std::min(closest, (centre - closestPointOnTriangle(centre, mesh.vertices[t[0]],
                                                                         mesh.vertices[t[1]], mesh.vertices[t[2]]))
                                            .norm());
          exact = upper = tessellated = std::max(0.0, closest - sphere.radius);
        } else if (primitive == &box) {
          exact = upper = tessellated = fclMeshDistance(bvh, poseA, boxBvh, poseB);
        } else {
          upper = fclMeshDistance(bvh, poseA, inscribedBvh, poseB);
          tessellated = fclMeshDistance(bvh, poseA, enclosingBvh, poseB);
          exact = upper;
        }
        INFO(meshName << " vs " << primitive->kindName() << ", pose " << p << ", reference " << exact);
        const double slack = 1e-9 * exact + 1e-12;
        for (const bool hulls : {true, false}) {
          const DistanceBound cold = distance.lowerBound(a, b, 1e9, 0.0, hulls, stats);
          INFO("hulls " << hulls << ": bound " << cold.lower);
          REQUIRE(cold.lower <= upper + slack);
          // The traversal pinned down (relative error 0): the exact distance up
          // to GJK's tolerance; for the cylinder, up to the slack of the prism
          // its search runs on and that of the inscribed reference (each
          // 7.5e-5 r), 11 times closer than the 24-gon tessellation can be.
          // (The convex covers stop on their concavity estimate, which is
          // not a proven upper bound: looser, never above the truth.)
          if (!hulls) REQUIRE(cold.lower >= upper - 2.0 * primitive->searchSlack() - 1e-7);
          // Warm from the answer just found, and with a threshold the enclosing volumes often answer.
          REQUIRE(distance.lowerBound(a, b, 1e9, 0.0, hulls, stats, &cold).lower <= upper + slack);
          REQUIRE(distance.lowerBound(a, b, 0.1, 1.0, hulls, stats, &cold).lower <= upper + slack);
        }
        // The overlap test is exact away from the surface.
        if (exact > 1e-9 || tessellated > 1e-9) {
          REQUIRE_FALSE(distance.primitiveOverlap(a, b, stats));
          ++apart;
        } else if (primitive != &cylinder || upper == 0.0) {
          const bool deep =
              containsVertex ||
              (primitive == &sphere ? exact == 0.0 : fclMeshDistance(bvh, poseA, primitiveBvh, poseB) == 0.0);
          if (deep) {
            REQUIRE(distance.primitiveOverlap(a, b, stats));
            ++touching;
          }
        }
      }
      INFO(meshName << " vs " << primitive->kindName());
      CHECK(touching > poses / 40);
      CHECK(apart > poses / 20);
    }
  }
}

TEST_CASE("native and tessellated primitives agree on collision away from the surface", "[soundness]") {
  // The same configurations of the arm among a box, a cylinder and a sphere:
  // the tessellation encloses each primitive, so a configuration colliding
  // natively collides tessellated, and one colliding only tessellated lies
  // within the tessellation's error of a primitive.
  const Problem native = loadProblem(test::problemFile("arm6_pillars"));
  const Problem tessellated = loadProblem(test::problemFile("arm6_pillars"), {{"primitives=tessellated"}, true});
  REQUIRE(native.scene->primitiveCount() == native.scene->obstacles().size());
  REQUIRE(tessellated.scene->primitiveCount() == 0);
  // Largest gap between a primitive and its enclosing mesh: the sphere's and
  // the cylinder's vertices are pushed out by 1/cos of half their angular steps.
  double tessellationError = 0.0;
  for (const Obstacle& o : native.scene->obstacles()) {
    const Primitive& p = *o.primitive;
    if (p.kind == PrimitiveKind::Sphere)
      tessellationError =
          std::max(tessellationError, p.radius * (1.0 / (std::cos(M_PI / 16) * std::cos(M_PI / 32)) - 1.0));
    if (p.kind == PrimitiveKind::Cylinder)
      tessellationError = std::max(tessellationError, p.radius * (1.0 / std::cos(M_PI / 24) - 1.0));
  }
  CollisionQueries nativeQueries(native.robot, native.scene, Geometry::Convex);
  CollisionQueries tessellatedQueries(tessellated.robot, tessellated.scene, Geometry::Mesh);
  ClearanceQuery clearance(*native.robot, *native.scene);
  CheckStats stats;
  Random rng(23);
  Config q;
  int bothColliding = 0, bothFree = 0, onlyTessellated = 0;
  for (int i = 0; i < test::scaled(5000); ++i) {
    native.robot->sampleUniform(rng, q);
    Contact contact;
    const bool nativeHit = nativeQueries.inCollision(q, stats, &contact);
    const bool tessellatedHit = tessellatedQueries.inCollision(q, stats);
    INFO("sample " << i);
    if (nativeHit && contact.obstacle >= 0) REQUIRE(tessellatedHit);
    if (tessellatedHit && !nativeHit) {
      REQUIRE(clearance.clearance(q, 0.0, stats) <= tessellationError * (1 + 1e-9));
      ++onlyTessellated;
    }
    bothColliding += nativeHit && tessellatedHit;
    bothFree += !nativeHit && !tessellatedHit;
  }
  CHECK(bothColliding > 100);
  CHECK(bothFree > 100);
  INFO(onlyTessellated << " configurations collide only with the tessellation");
}

TEST_CASE("solids: closed meshes, components and points inside", "[soundness]") {
  const Mesh box = boxMesh({1, 2, 3});
  const SolidInfo boxSolid = solidInfo(box);
  REQUIRE(boxSolid.closed);
  REQUIRE(boxSolid.component_points.size() == 1);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    const Vector3d p(0.7 * unit(rng), 1.4 * unit(rng), 2.1 * unit(rng));
    const bool inside = std::abs(p.x()) < 0.5 && std::abs(p.y()) < 1.0 && std::abs(p.z()) < 1.5;
    INFO(p.transpose());
    // Away from the surface (1e-6), the ray parity is exact.
    if (std::abs(std::abs(p.x()) - 0.5) > 1e-6 && std::abs(std::abs(p.y()) - 1.0) > 1e-6 &&
        std::abs(std::abs(p.z()) - 1.5) > 1e-6)
      REQUIRE(containsPoint(box, boxSolid, p) == inside);
  }
  // A gear: the bore and the gaps between teeth are outside.
  GearParams gear;
  gear.teeth = 8;
  const Mesh g = gearMesh(gear);
  const SolidInfo gearSolid = solidInfo(g);
  REQUIRE(gearSolid.closed);
  REQUIRE(containsPoint(g, gearSolid, Vector3d(0.5, 0.0, 0.0)));
  REQUIRE_FALSE(containsPoint(g, gearSolid, Vector3d(0.0, 0.0, 0.0)));  // the bore
  REQUIRE_FALSE(containsPoint(g, gearSolid, Vector3d(0.0, 0.0, 0.5)));  // above
  // Two boxes in one mesh are two components; a plate with one face removed is not closed.
  Mesh two = boxMesh({0.1, 0.1, 0.1});
  two.append(boxMesh({0.1, 0.1, 0.1}), Transform(Eigen::Translation3d(1, 0, 0)));
  REQUIRE(solidInfo(two).component_points.size() == 2);
  Mesh open = boxMesh({1, 1, 1});
  open.triangles.pop_back();
  REQUIRE_FALSE(solidInfo(open).closed);
  REQUIRE_FALSE(containsPoint(open, solidInfo(open), Vector3d::Zero()));
  // Mesh files store corners per face (STL always, OBJ with per-face normals):
  // read back, the gear is one closed component again, with its own vertices.
  const TempDir dir;
  const Mesh stl = loadMeshFile(dir.write("gear.stl", test::asciiStl(g)));
  REQUIRE(stl.vertices.size() == g.vertices.size());
  REQUIRE(stl.triangles.size() == g.triangles.size());
  REQUIRE(solidInfo(stl).closed);
  REQUIRE(solidInfo(stl).component_points.size() == 1);
  std::string obj;
  for (const auto& v : box.vertices) obj += fmt::format("v {} {} {}\n", v.x(), v.y(), v.z());
  for (std::size_t f = 0; f < box.triangles.size(); ++f) obj += fmt::format("vn 0 0 {}\n", f + 1);
  for (std::size_t f = 0; f < box.triangles.size(); ++f) {
    const auto& t = box.triangles[f];
    obj += fmt::format("f {}//{} {}//{} {}//{}\n", t[0] + 1, f + 1, t[1] + 1, f + 1, t[2] + 1, f + 1);
  }
  const Mesh fromObj = loadMeshFile(dir.write("box.obj", obj));
  REQUIRE(fromObj.vertices.size() == 8);
  REQUIRE(solidInfo(fromObj).closed);
  REQUIRE(solidInfo(fromObj).component_points.size() == 1);
  REQUIRE(containsPoint(fromObj, solidInfo(fromObj), Vector3d(0.1, 0.2, 0.3)));
  // Welding merges exact copies only: two boxes 10 um apart (far above the
  // single precision STL stores) keep 16 vertices.
  Mesh nearly = boxMesh({1, 1, 1});
  nearly.append(boxMesh({1, 1, 1}), Transform(Eigen::Translation3d(1e-5, 0, 0)));
  const Mesh nearlyRead = loadMeshFile(dir.write("nearly.stl", test::asciiStl(nearly)));
  REQUIRE(nearlyRead.vertices.size() == 16);
}

TEST_CASE("static checks that settle (link, box) pairs by a link vertex inside the box agree with FCL on the meshes",
          "[soundness]") {
  for (const std::string name : {"arm6_shelf", "arm6_pillars"}) {
    const Problem problem = loadProblem(test::problemFile(name));
    CollisionQueries convex(problem.robot, problem.scene, Geometry::Convex);
    CollisionQueries mesh(problem.robot, problem.scene, Geometry::Mesh);
    CheckStats convexStats, meshStats;
    Random rng(23);
    Config q;
    int colliding = 0;
    const int samples = test::scaled(4000);
    for (int i = 0; i < samples; ++i) {
      problem.robot->sampleUniform(rng, q);
      INFO(name << " sample " << i);
      const bool hit = mesh.inCollision(q, meshStats);
      REQUIRE(convex.inCollision(q, convexStats) == hit);
      colliding += hit;
    }
    INFO(name << ": " << colliding << " colliding, " << convexStats.vertex_confirmations << " settled by a vertex");
    // The shortcut is used, and only on the convex geometry; it never decides
    // more pairs than there were colliding configurations' first contacts.
    REQUIRE(convexStats.vertex_confirmations > 0);
    REQUIRE(convexStats.vertex_confirmations <= static_cast<std::uint64_t>(colliding));
    REQUIRE(meshStats.vertex_confirmations == 0);
  }
}

TEST_CASE(
    "ray parity on a BVH agrees with the loop over every triangle, and the hull test never rejects a point inside",
    "[soundness]") {
  std::mt19937 rng(29);
  int inside = 0, tested = 0, outsideHull = 0;
  for (const auto& [name, mesh] : meshKinds()) {
    const SolidInfo solid = solidInfo(mesh);
    if (!solid.closed) continue;
    const auto bvh = buildBvh(mesh);
    const ConvexCover cover = convexCoverOf(mesh, *bvh);
    const Eigen::Vector3d centre = solid.bounds.center(), half = 0.6 * solid.bounds.sizes();
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 0; i < test::scaled(20000); ++i) {
      const Vector3d p = centre + Vector3d(unit(rng), unit(rng), unit(rng)).cwiseProduct(half);
      const bool byLoop = containsPoint(mesh, solid, p);
      INFO(name << " point " << p.transpose());
      REQUIRE(containsPoint(*bvh, solid, p) == byLoop);
      // A point proven outside the convex cover's hull is outside the solid.
      if (cover.hull && provenOutside(*cover.hull, p)) {
        REQUIRE_FALSE(byLoop);
        ++outsideHull;
      }
      inside += byLoop;
      ++tested;
    }
  }
  CHECK(inside > tested / 10);
  CHECK(inside < tested * 9 / 10);
  CHECK(outsideHull > tested / 10);
}

TEST_CASE("a problem's scale changes its units, not its verdicts, for every robot kind and both geometries",
          "[soundness][slow]") {
  // The same random edges (bounds and coordinates scale together, so a seed
  // draws the same configurations) at 1e-5, 1 and 1e4: an exact checker's
  // verdicts do not depend on the unit, and the independent truth (stepping
  // by fractions of the extent, so the same steps at every scale) finds no
  // edge called free that collides.
  const int edges = std::max(20, test::scaled(150));
  for (const char* name : {"maze2d", "gear_spindle", "chain5", "arm6_shelf"}) {
    for (const char* geometry : {"convex", "mesh"}) {
      std::vector<Verdict> reference;
      double unitRadius = 0.0;
      for (const double scale : {1.0, 1e-5, 1e4}) {
        const Problem problem = loadProblem(
            test::problemFile(name),
            {{fmt::format("scale={}", scale), "checker.type=adaptive", fmt::format("checker.geometry={}", geometry)},
             true});
        const double radius = problem.robot->links().back().radius;
        if (scale == 1.0) unitRadius = radius;
        REQUIRE(radius == Approx(unitRadius * scale).epsilon(1e-9));
        // Any length: a length limit in C-space units would not scale with a
        // free flyer, whose metric adds translation to rotation.
        const auto cases = randomEdges(problem.robot, problem.scene, static_cast<std::size_t>(edges), 0.0, 3);
        auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
        IndependentCheck truth(*problem.robot, *problem.scene, 1e-3);
        std::vector<Verdict> verdicts;
        int misses = 0;
        for (const auto& edge : cases) {
          const EdgeResult result = checker->checkEdge(edge.a, edge.b);
          verdicts.push_back(result.verdict);
          if (result.verdict == Verdict::Free && truth.firstCollision(edge.a, edge.b)) ++misses;
        }
        INFO(name << ", geometry " << geometry << " at scale " << scale);
        REQUIRE(misses == 0);
        if (reference.empty()) {
          reference = verdicts;
          continue;
        }
        // Edges that graze within rounding of contact may flip; no more than 1 in 50.
        int differ = 0;
        for (std::size_t e = 0; e < verdicts.size(); ++e) differ += verdicts[e] != reference[e];
        REQUIRE(differ * 50 <= static_cast<int>(verdicts.size()));
      }
    }
  }
}
