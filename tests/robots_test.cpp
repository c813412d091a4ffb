#include "io/problem.h"
#include "setup/build_problem.h"
#include "robots/planar_chain.h"
#include "robots/rigid_body.h"
#include "io/urdf_robot.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <ompl/util/RandomNumbers.h>

#include <numbers>

using namespace prmkit;

namespace {

// linkSpeeds bounds every vertex's speed (central differences), and on links
// of at most 64 vertices (where it is the maximum over the vertices) some
// vertex reaches it; linkAccelerationBounds bounds second differences;
// together (speedBoundedLength) they bound the measured travel over the
// whole edge and over the piece [0, 0.3].
void requireSpeedBoundsHold(const Robot& robot, const Config& a, const Config& b,
                            const std::vector<std::vector<double>>& travelled,
                            const std::vector<std::vector<double>>& travelledToPiece, int steps, int pieceEnd) {
  const std::size_t linkCount = robot.links().size();
  std::vector<double> acceleration, speedStart, speedPiece, speedEnd, speeds;
  robot.linkAccelerationBounds(a, b, acceleration);
  REQUIRE(acceleration.size() == linkCount);
  Config q;
  auto speedsAt = [&](double t, std::vector<double>& out) {
    robot.interpolate(a, b, t, q);
    robot.linkSpeeds(a, b, q, out);
    REQUIRE(out.size() == linkCount);
  };
  speedsAt(0.0, speedStart);
  speedsAt(static_cast<double>(pieceEnd) / steps, speedPiece);
  speedsAt(1.0, speedEnd);
  for (std::size_t l = 0; l < linkCount; ++l) {
    const double piece = static_cast<double>(pieceEnd) / steps;
    const double whole = speedBoundedLength(speedStart[l], speedEnd[l], acceleration[l], 1.0);
    const double toPiece = speedBoundedLength(speedStart[l], speedPiece[l], acceleration[l], piece);
    for (double t : travelled[l]) REQUIRE(t <= whole * (1 + 1e-9) + 1e-12);
    for (double t : travelledToPiece[l]) REQUIRE(t <= toPiece * (1 + 1e-9) + 1e-12);
  }
  const double h = 1e-4;
  std::vector<Transform> before, at, after;
  for (double t : {0.1, 0.45, 0.9}) {
    speedsAt(t, speeds);
    robot.interpolate(a, b, t - h, q);
    robot.linkPoses(q, before);
    robot.interpolate(a, b, t, q);
    robot.linkPoses(q, at);
    robot.interpolate(a, b, t + h, q);
    robot.linkPoses(q, after);
    for (std::size_t l = 0; l < linkCount; ++l) {
      double fastest = 0.0;
      for (const Eigen::Vector3d& x : robot.links()[l].mesh.vertices) {
        const double speed = (after[l] * x - before[l] * x).norm() / (2 * h);
        const double secondDifference = (after[l] * x - 2.0 * (at[l] * x) + before[l] * x).norm() / (h * h);
        REQUIRE(speed <= speeds[l] * (1 + 1e-6) + 1e-9);
        REQUIRE(secondDifference <= acceleration[l] * (1 + 1e-3) + 1e-6);
        fastest = std::max(fastest, speed);
      }
      if (robot.links()[l].mesh.vertices.size() <= 64) REQUIRE(fastest == Approx(speeds[l]).epsilon(1e-4).margin(1e-9));
    }
  }
}

// linkDirectionalSpeed bounds every vertex's velocity along a direction
// (central differences), and with linkAccelerationBounds, directionalTravel
// bounds how far every vertex advances along it from the start, and back from
// the end, measured at fine steps (the directional certificate of `adaptive`).
void requireDirectionalBoundsHold(const Robot& robot, const Config& a, const Config& b) {
  const std::size_t linkCount = robot.links().size();
  std::vector<double> acceleration;
  robot.linkAccelerationBounds(a, b, acceleration);
  const std::vector<Eigen::Vector3d> directions{Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitY(),
                                                Eigen::Vector3d::UnitZ(), Eigen::Vector3d(1, 1, 1).normalized(),
                                                Eigen::Vector3d(-2, 1, 0).normalized()};
  Config q;
  std::vector<Robot::LinkTwist> twists;
  std::vector<Transform> poses, before, after;
  // Directional speeds (forward, and backward with the twist negated) at t.
  auto speedAt = [&](double t, std::size_t link, const Eigen::Vector3d& u, bool forward) {
    robot.interpolate(a, b, t, q);
    robot.linkTwists(a, b, q, twists, &poses);
    Robot::LinkTwist twist = twists[link];
    if (!forward) twist = {-twist.angular, -twist.linear};
    return robot.linkDirectionalSpeed(link, twist, poses[link].linear().transpose() * u);
  };
  const double h = 1e-4;
  for (double t : {0.1, 0.45, 0.9}) {
    robot.interpolate(a, b, t - h, q);
    robot.linkPoses(q, before);
    robot.interpolate(a, b, t + h, q);
    robot.linkPoses(q, after);
    for (std::size_t l = 0; l < linkCount; ++l)
      for (const auto& u : directions) {
        const double bound = speedAt(t, l, u, true);
        for (const Eigen::Vector3d& x : robot.links()[l].mesh.vertices)
          REQUIRE(u.dot(after[l] * x - before[l] * x) / (2 * h) <= bound + 1e-6 * (1 + std::abs(bound)));
      }
  }
  const int steps = 200;
  std::vector<std::vector<Transform>> trajectory(steps + 1);
  for (int i = 0; i <= steps; ++i) {
    robot.interpolate(a, b, static_cast<double>(i) / steps, q);
    robot.linkPoses(q, trajectory[static_cast<std::size_t>(i)]);
  }
  for (std::size_t l = 0; l < linkCount; ++l)
    for (const auto& u : directions) {
      const double forward =
          directionalTravel(speedAt(0, l, u, true), speedAt(1, l, u, true), acceleration[l], 1, 0, 1);
      const double backward =
          directionalTravel(speedAt(0, l, u, false), speedAt(1, l, u, false), acceleration[l], 1, 0, 1);
      for (const Eigen::Vector3d& x : robot.links()[l].mesh.vertices)
        for (const auto& poseAt : trajectory) {
          REQUIRE(u.dot(poseAt[l] * x - trajectory.front()[l] * x) <= forward * (1 + 1e-9) + 1e-12);
          REQUIRE(u.dot(trajectory.back()[l] * x - poseAt[l] * x) >= -(backward * (1 + 1e-9) + 1e-12));
        }
    }
}

// Length of the path of every mesh vertex of every link along the
// interpolated edge, measured with fine steps, must not exceed motionBound;
// seen from the other link of a self-collision pair, it must not exceed
// relativeMotionBound. Bounds must scale with the parameter interval.
void requireMotionBoundsHold(const Robot& robot, int edges, std::uint32_t seed) {
  Random rng(seed);
  std::vector<Transform> poses;
  Config a, b, q;
  const std::size_t linkCount = robot.links().size();
  const auto& pairs = robot.selfCollisionPairs();
  for (int e = 0; e < edges; ++e) {
    robot.sampleUniform(rng, a);
    robot.sampleUniform(rng, b);
    const int steps = 200;
    // Travel per vertex: in the world (one entry per link), then seen from link i of each pair.
    std::vector<std::vector<Eigen::Vector3d>> previous(linkCount + pairs.size());
    std::vector<std::vector<double>> travelled(linkCount + pairs.size());
    std::vector<std::vector<double>> travelledToPiece(linkCount);  // over the piece [0, 0.3]
    const int pieceEnd = 60;
    auto track = [&](std::size_t slot, const std::vector<Eigen::Vector3d>& vertices, const Transform& pose, int s) {
      travelled[slot].resize(vertices.size(), 0.0);
      previous[slot].resize(vertices.size());
      for (std::size_t v = 0; v < vertices.size(); ++v) {
        const Eigen::Vector3d p = pose * vertices[v];
        if (s > 0) travelled[slot][v] += (p - previous[slot][v]).norm();
        previous[slot][v] = p;
      }
    };
    for (int s = 0; s <= steps; ++s) {
      robot.interpolate(a, b, static_cast<double>(s) / steps, q);
      robot.linkPoses(q, poses);
      for (std::size_t l = 0; l < linkCount; ++l) {
        track(l, robot.links()[l].mesh.vertices, poses[l], s);
        if (s == pieceEnd) travelledToPiece[l] = travelled[l];
      }
      for (std::size_t p = 0; p < pairs.size(); ++p) {
        const auto [i, k] = pairs[p];
        track(linkCount + p, robot.links()[k].mesh.vertices, poses[i].inverse() * poses[k], s);
      }
    }
    for (std::size_t l = 0; l < linkCount; ++l) {
      const double bound = robot.motionBound(l, a, b);
      for (double t : travelled[l]) REQUIRE(t <= bound * (1 + 1e-9) + 1e-12);
      for (double t : travelledToPiece[l]) REQUIRE(t <= 0.3 * bound * (1 + 1e-9) + 1e-12);
      robot.interpolate(a, b, 0.3, q);
      REQUIRE(robot.motionBound(l, a, q) <= 0.3 * bound * (1 + 1e-9) + 1e-12);
    }
    if (robot.hasSpeedBounds()) {
      requireSpeedBoundsHold(robot, a, b, travelled, travelledToPiece, steps, pieceEnd);
      if (e % 10 == 0) requireDirectionalBoundsHold(robot, a, b);
    }
    // The batched bounds are the same numbers.
    std::vector<double> linkBounds, pairBounds;
    robot.motionBounds(a, b, linkBounds, pairBounds);
    REQUIRE(linkBounds.size() == linkCount);
    REQUIRE(pairBounds.size() == pairs.size());
    for (std::size_t l = 0; l < linkCount; ++l)
      REQUIRE(linkBounds[l] == Approx(robot.motionBound(l, a, b)).margin(1e-12));
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const auto [i, k] = pairs[p];
      const double bound = robot.relativeMotionBound(i, k, a, b);
      REQUIRE(pairBounds[p] == Approx(bound).margin(1e-12));
      REQUIRE(bound <= robot.motionBound(i, a, b) + robot.motionBound(k, a, b) + 1e-12);
      for (double t : travelled[linkCount + p]) REQUIRE(t <= bound * (1 + 1e-9) + 1e-12);
    }
  }
}

}  // namespace

TEST_CASE("prmkit's random numbers are OMPL's, draw by draw, for the same seed", "[robots]") {
  // The robots, samplers and planners draw with prmkit's Random; seeded
  // results must be what they were when they drew with OMPL's RNG.
  std::size_t compared = 0;
  for (const std::uint32_t seed : {1u, 7u, 0x5eedu, 4000000000u}) {
    ompl::RNG theirs(seed);
    Random ours(seed);
    for (int i = 0; i < 20000; ++i) {
      switch (i % 6) {
        case 0:
          REQUIRE(ours.uniformReal(-3.0, 5.0) == theirs.uniformReal(-3.0, 5.0));
          break;
        case 1:
          REQUIRE(ours.uniformInt(0, i) == theirs.uniformInt(0, i));
          break;
        case 2:
          REQUIRE(ours.gaussian(1.0, 0.3) == theirs.gaussian(1.0, 0.3));
          break;
        case 3: {
          double a[4], b[4];
          ours.quaternion(a);
          theirs.quaternion(b);
          for (int k = 0; k < 4; ++k) REQUIRE(a[k] == b[k]);
          break;
        }
        case 4:
          REQUIRE(ours.gaussian01() == theirs.gaussian01());
          break;
        default:
          // A reseed in the middle of a pair of normal draws starts both streams again.
          if (i % 600 == 5) {
            ours.reseed(static_cast<std::uint32_t>(i));
            theirs.setLocalSeed(static_cast<std::uint32_t>(i));
          }
          REQUIRE(ours.uniform01() == theirs.uniform01());
      }
      ++compared;
    }
  }
  REQUIRE(compared == 80000);
}

TEST_CASE("motion bounds are upper bounds for every robot kind", "[robots]") {
  const int edges = test::scaled(1000);
  SECTION("rigid2d") {
    RigidBody2D robot(extrudePolygon({{-0.4, -0.1}, {0.6, -0.1}, {0.6, 0.3}, {-0.4, 0.1}}, 0.2), {-5, -5}, {5, 5});
    requireMotionBoundsHold(robot, edges, 1);
  }
  SECTION("rigid3d") {
    RigidBody3D robot(boxMesh({1.0, 0.3, 0.2}).transformed(Transform(Eigen::Translation3d(0.3, 0, 0))), {-5, -5, -5},
                      {5, 5, 5});
    requireMotionBoundsHold(robot, edges, 2);
  }
  SECTION("planar_chain") {
    auto robot = makePlanarChain({{1.0, 0.1}, {0.7, 0.1}, {0.5, 0.2}, {0.3, 0.1}}, Transform::Identity());
    requireMotionBoundsHold(*robot, edges / 2, 3);
  }
  SECTION("urdf") {
    auto robot = loadUrdfRobot(test::sourceDir() / "configs/robots/arm6.urdf");
    requireMotionBoundsHold(*robot, edges / 4, 4);
  }
}

TEST_CASE("directionalTravel integrates the positive part of the speed tent", "[robots]") {
  // Constant speed (no acceleration bound): the larger end, or nothing when moving away.
  REQUIRE(directionalTravel(0.5, 0.5, 0.0, 2.0, 0.0, 2.0) == Approx(1.0));
  REQUIRE(directionalTravel(-0.5, -0.5, 0.0, 2.0, 0.0, 2.0) == 0.0);
  // Moving away at both ends with little acceleration: never advances.
  REQUIRE(directionalTravel(-1.0, -1.0, 1.0, 1.0, 0.0, 1.0) == 0.0);
  // Against a midpoint rule on a fine grid, for random tents and sub-intervals.
  Random rng(5);
  for (int i = 0; i < 1000; ++i) {
    const double start = rng.uniformReal(-2, 2), end = rng.uniformReal(-2, 2), acceleration = rng.uniformReal(0.01, 5);
    const double width = rng.uniformReal(0.1, 2), from = rng.uniformReal(0, width), to = rng.uniformReal(from, width);
    double numeric = 0.0;
    const int n = 20000;
    for (int k = 0; k < n; ++k) {
      const double x = from + (to - from) * (k + 0.5) / n;
      numeric += std::max(0.0, std::min(start + acceleration * x, end + acceleration * (width - x))) * (to - from) / n;
    }
    INFO(start << " " << end << " " << acceleration << " " << width << " " << from << " " << to);
    REQUIRE(directionalTravel(start, end, acceleration, width, from, to) == Approx(numeric).margin(1e-6));
  }
}

TEST_CASE("planar chain forward kinematics matches hand-computed poses", "[robots]") {
  auto robot = makePlanarChain({{1.0, 0.1}, {0.5, 0.1}}, Transform(Eigen::Translation3d(1, 2, 0)));
  std::vector<Transform> frames;
  Config q(2);
  q << std::numbers::pi / 2, -std::numbers::pi / 2;
  robot->framePoses(q, frames);
  // Link 1 points along +y from (1, 2); link 2 starts at (1, 3) and points along +x.
  REQUIRE(frames[1].translation().isApprox(Eigen::Vector3d(1, 2, 0)));
  REQUIRE(frames[2].translation().isApprox(Eigen::Vector3d(1, 3, 0)));
  REQUIRE((frames[2].linear() * Eigen::Vector3d::UnitX()).isApprox(Eigen::Vector3d::UnitX()));
  // Tip of link 2 (its box reaches x = 0.5 in the link frame).
  REQUIRE((frames[2] * Eigen::Vector3d(0.5, 0, 0)).isApprox(Eigen::Vector3d(1.5, 3, 0)));
}

TEST_CASE("URDF arm forward kinematics and self-collision pairs", "[robots]") {
  UrdfOptions options;
  options.srdf = test::sourceDir() / "configs/robots/arm6.srdf";
  auto robot = loadUrdfRobot(test::sourceDir() / "configs/robots/arm6.urdf", options);
  REQUIRE(robot->dof() == 6);
  std::vector<Transform> frames;
  Config q = Config::Zero(6);
  robot->framePoses(q, frames);
  // Straight up: base 0.1 + shoulder 0.2 + upper arm 0.5 + forearm 0.4 + wrist 0.1 + 0.1.
  REQUIRE(frames.back().translation().isApprox(Eigen::Vector3d(0, 0, 1.4)));
  q[1] = std::numbers::pi / 2;  // shoulder pitch: the arm above the shoulder lies along +x
  robot->framePoses(q, frames);
  REQUIRE(frames.back().translation().isApprox(Eigen::Vector3d(1.1, 0, 0.3), 1e-12));
  // Adjacent links and the SRDF's wrist1/tool pair are excluded.
  const auto& links = robot->links();
  for (const auto& [i, k] : robot->selfCollisionPairs()) {
    const bool srdfPair = (links[i].name == "wrist1" && links[k].name == "tool") ||
                          (links[i].name == "tool" && links[k].name == "wrist1");
    REQUIRE_FALSE(srdfPair);
    REQUIRE(std::abs(i - k) > 1);
  }
  REQUIRE(robot->selfCollisionPairs().size() == 21 - 6 - 1);  // 7 links: 21 pairs, 6 adjacent, 1 disabled
}

TEST_CASE("shrunk robots: each link's mesh towards its box's centre, joints, bounds and pairs as they were",
          "[robots]") {
  UrdfOptions options;
  options.srdf = test::sourceDir() / "configs/robots/arm6.srdf";
  const std::shared_ptr<const Robot> arm = loadUrdfRobot(test::sourceDir() / "configs/robots/arm6.urdf", options);
  const Problem box = loadProblem(test::problemFile("thin_wall"));
  const Problem planar = loadProblem(test::problemFile("chain5"));
  for (const std::shared_ptr<const Robot>& robot : {arm, box.robot, planar.robot}) {
    const std::shared_ptr<const Robot> shrunk = robot->shrunk(0.4);
    REQUIRE(shrunk->kind() == robot->kind());
    REQUIRE(shrunk->dof() == robot->dof());
    REQUIRE(shrunk->bounds().lower == robot->bounds().lower);
    REQUIRE(shrunk->bounds().upper == robot->bounds().upper);
    REQUIRE(shrunk->selfCollisionPairs() == robot->selfCollisionPairs());
    REQUIRE(shrunk->links().size() == robot->links().size());
    Random rng(3);
    Config q;
    robot->sampleUniform(rng, q);
    std::vector<Transform> poses, shrunkPoses;
    robot->linkPoses(q, poses);
    shrunk->linkPoses(q, shrunkPoses);
    for (std::size_t i = 0; i < robot->links().size(); ++i) {
      REQUIRE(shrunkPoses[i].isApprox(poses[i], 1e-12));
      const Mesh& mesh = robot->links()[i].mesh;
      const Mesh& small = shrunk->links()[i].mesh;
      REQUIRE(small.vertices.size() == mesh.vertices.size());
      const Eigen::Vector3d centre = 0.5 * (mesh.bounds().min() + mesh.bounds().max());
      for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
        REQUIRE((small.vertices[v] - (centre + 0.4 * (mesh.vertices[v] - centre))).norm() <= 1e-12);
    }
  }
  REQUIRE_THROWS_AS(arm->shrunk(0.0), std::invalid_argument);
  REQUIRE_THROWS_AS(arm->shrunk(1.5), std::invalid_argument);
}

TEST_CASE("slerp interpolation: endpoints and midpoint", "[robots]") {
  RigidBody3D robot(boxMesh({1, 1, 1}), {-1, -1, -1}, {1, 1, 1});
  Config a(7), b(7), q;
  const Eigen::Quaterniond qa(Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitZ()));
  const Eigen::Quaterniond qb(Eigen::AngleAxisd(1.4, Eigen::Vector3d::UnitZ()));
  a << 0, 0, 0, qa.x(), qa.y(), qa.z(), qa.w();
  b << 1, 0, 0, -qb.x(), -qb.y(), -qb.z(), -qb.w();  // the same rotation, opposite sign
  robot.interpolate(a, b, 0.0, q);
  REQUIRE(Eigen::Quaterniond(q[6], q[3], q[4], q[5]).angularDistance(qa) < 1e-12);
  robot.interpolate(a, b, 1.0, q);
  REQUIRE(Eigen::Quaterniond(q[6], q[3], q[4], q[5]).angularDistance(qb) < 1e-12);
  robot.interpolate(a, b, 0.5, q);
  const Eigen::Quaterniond mid(Eigen::AngleAxisd(0.8, Eigen::Vector3d::UnitZ()));
  REQUIRE(Eigen::Quaterniond(q[6], q[3], q[4], q[5]).angularDistance(mid) < 1e-12);
  REQUIRE(q[0] == Approx(0.5));
  // The metric and the motion bound agree with the 1.2 rad rotation.
  REQUIRE(robot.distance(a, b) == Approx(1.0 + 0.6));
  REQUIRE(robot.motionBound(0, a, b) == Approx(1.0 + std::sqrt(0.75) * 1.2));
}

TEST_CASE("SE(3) metric: half the rotation angle, at every angle and either quaternion sign", "[robots]") {
  RigidBody3D robot(boxMesh({1, 1, 1}), {-1, -1, -1}, {1, 1, 1});
  Random rng(23);
  Config a, b;
  double smallest = 1.0;
  for (int i = 0; i < 2000; ++i) {
    robot.sampleUniform(rng, a);
    if (i % 2 == 0) {
      robot.sampleUniform(rng, b);
    } else {  // a rotation close to a's, down to 1e-9 rad, to test the small-angle end
      const double angle = std::pow(10.0, -rng.uniformReal(0, 9));
      const Eigen::Quaterniond turned =
          RigidBody3D::rotation(a) * Eigen::Quaterniond(Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()));
      b = a;
      b.tail<4>() << turned.x(), turned.y(), turned.z(), turned.w();
      smallest = std::min(smallest, angle);
    }
    if (i % 3 == 0) b.tail<4>() = -b.tail<4>();  // the same rotation
    const double translation = (b.head<3>() - a.head<3>()).norm();
    const double reference = 0.5 * RigidBody3D::rotation(a).angularDistance(RigidBody3D::rotation(b));
    INFO("pair " << i);
    REQUIRE(robot.distance(a, b) - translation == Approx(reference).epsilon(1e-9).margin(1e-15));
    REQUIRE(robot.distance(a, b) == robot.distance(b, a));
  }
  REQUIRE(smallest < 1e-8);
}
