#include "eval/verify.h"

#include "eval/independent_check.h"
#include "io/viewer_page.h"
#include "geometry/collision_queries.h"
#include "checkers/discrete_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace prmkit {

double defaultVerifyEps(const Problem& problem) {
  double robotSize = 0.0;
  for (const Link& link : problem.robot->links())
    if (!link.mesh.empty()) robotSize = std::max(robotSize, link.mesh.bounds().diagonal().norm());
  const double sceneSize = problem.sceneSize();
  return 1e-3 * (robotSize > 0.0 ? std::min(robotSize, sceneSize) : sceneSize);
}

double verifyEps(const Problem& problem, std::optional<double> eps, const std::string& option) {
  if (!eps) return defaultVerifyEps(problem);
  if (!(*eps > 0 && std::isfinite(*eps)))
    throw InputError(fmt::format("{} must be a positive number of metres", option));
  if (*eps > problem.sceneSize())
    throw InputError(fmt::format("{} {:g} m: at most the scene's size, {:.3g} m", option, *eps, problem.sceneSize()));
  return *eps;
}

std::string EndpointGap::describe() const {
  return fmt::format("{:.6g} m and {:.4g} degrees away (C-space distance {:.6g})", position_m,
                     angle_rad * 180.0 / std::numbers::pi, configuration_distance);
}

namespace {
EndpointGap endpointGap(const Robot& robot, const Config& at, const Config& expected) {
  std::vector<Transform> a, b;
  robot.linkPoses(at, a);
  robot.linkPoses(expected, b);
  EndpointGap gap;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const double shift = (a[i].translation() - b[i].translation()).norm();
    const double angle = Eigen::AngleAxisd(a[i].linear().transpose() * b[i].linear()).angle();
    gap.position_m = std::max(gap.position_m, shift);
    gap.angle_rad = std::max(gap.angle_rad, angle);
    // A point at distance r from its frame's origin moves at most shift + angle * r.
    const double reach = i < robot.links().size() ? robot.links()[i].radius : 0.0;
    gap.movement_m = std::max(gap.movement_m, shift + angle * reach);
  }
  gap.configuration_distance = robot.distance(at, expected);
  return gap;
}
}  // namespace

VerifyResult verifyPath(const Problem& problem, const std::vector<Config>& path, double eps,
                        std::optional<double> independentResolution, Endpoints endpoints,
                        std::optional<double> endpointTolerance) {
  const Robot& robot = *problem.robot;
  VerifyResult result;
  // A collision is the verdict that matters most: it is reported first, and
  // an endpoint gap found before it stays recorded beside it.
  auto fail = [&](std::string message) {
    result.valid = false;
    result.collision_free = false;
    result.message = std::move(message);
    return result;
  };
  if (path.empty()) return fail("the path is empty");
  // Endpoints within the tolerance: the motion from the problem's start to
  // the first waypoint and from the last to its goal are checked as segments.
  const double tolerance = endpointTolerance.value_or(eps);
  std::vector<Config> checked;
  checked.reserve(path.size() + 2);
  const bool startNear = robot.distance(path.front(), problem.start) > 0.0 &&
                         endpointGap(robot, path.front(), problem.start).movement_m <= tolerance;
  const bool goalNear = robot.distance(path.back(), problem.goal) > 0.0 &&
                        endpointGap(robot, path.back(), problem.goal).movement_m <= tolerance;
  if (!startNear && robot.distance(path.front(), problem.start) > 0.0)
    result.start_gap = endpointGap(robot, path.front(), problem.start);
  if (!goalNear && robot.distance(path.back(), problem.goal) > 0.0)
    result.goal_gap = endpointGap(robot, path.back(), problem.goal);
  const bool joinStart = startNear && endpoints == Endpoints::Judged;
  const bool joinGoal = goalNear && endpoints == Endpoints::Judged;
  // Segments are named by the file's waypoints; the joins by what they join.
  auto segmentName = [&](std::size_t i) -> std::string {
    const std::size_t first = joinStart ? 1 : 0;
    if (joinStart && i == 0) return "the motion from the start configuration to waypoint 0 (within the tolerance)";
    if (joinGoal && i + 2 == checked.size())
      return fmt::format("the motion from waypoint {} to the goal configuration (within the tolerance)",
                         path.size() - 1);
    return fmt::format("segment {} (waypoints {} to {})", i - first, i - first, i - first + 1);
  };
  if (joinStart) checked.push_back(problem.start);
  checked.insert(checked.end(), path.begin(), path.end());
  if (joinGoal) checked.push_back(problem.goal);
  const std::size_t offset = joinStart ? 1 : 0;
  DiscreteSettings dense;
  dense.space = DiscreteSettings::Space::Workspace;
  dense.eps = eps;
  dense.order = DiscreteSettings::Order::Sequential;
  dense.geometry = Geometry::Mesh;  // the judge uses no prmkit distance code
  DiscreteChecker checker(problem.robot, problem.scene, dense);
  CollisionQueries collision(problem.robot, problem.scene, Geometry::Mesh);
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!robot.inBounds(path[i])) return fail(fmt::format("waypoint {} is out of bounds", i));
    CheckStats ignored;
    Contact contact;
    if (collision.inCollision(path[i], ignored, &contact)) {
      // Named as a segment's end, as edge collisions are.
      if (i + 1 < path.size()) {
        result.segment = i;
        result.t = 0.0;
      } else if (i > 0) {
        result.segment = i - 1;
        result.t = 1.0;
      }
      return fail(fmt::format("waypoint {} is in collision ({})", i, describe(contact, robot, *problem.scene)));
    }
  }
  for (std::size_t i = 0; i + 1 < checked.size(); ++i) {
    const EdgeResult edge = checker.checkEdge(checked[i], checked[i + 1]);
    if (edge.verdict != Verdict::Free) {
      Config q;
      robot.interpolate(checked[i], checked[i + 1], edge.witness_t, q);
      CheckStats ignored;
      Contact contact;
      collision.inCollision(q, ignored, &contact);
      // A join is reported at the file's endpoint it leads from or to.
      const std::size_t inPath = std::min(i >= offset ? i - offset : 0, path.size() >= 2 ? path.size() - 2 : 0);
      if (path.size() >= 2) result.segment = inPath;
      result.t = (joinStart && i == 0) ? 0.0 : (joinGoal && i + 2 == checked.size()) ? 1.0 : edge.witness_t;
      return fail(fmt::format("{} collides at t = {:.6f} ({})", segmentName(i), edge.witness_t,
                              describe(contact, robot, *problem.scene)));
    }
  }
  if (independentResolution) {
    IndependentCheck independent(*problem.robot, *problem.scene, *independentResolution);
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      const std::optional<double> t = independent.firstCollision(path[i], path[i + 1]);
      if (!t) continue;
      result.segment = i;
      result.t = *t;
      result.disagreement = true;
      result.independent_configurations = independent.configurationsTested();
      return fail(
          fmt::format("DISAGREEMENT: the independent check (plain FCL every {:g} of the C-space extent) finds "
                      "segment {} (waypoints {} to {}) colliding at t = {:.6f}, which the motion-bound check "
                      "(eps {:.3g} m) accepted",
                      *independentResolution, i, i, i + 1, *t, eps));
    }
    result.independent_configurations = independent.configurationsTested();
  }
  if (endpoints == Endpoints::Judged && (result.start_gap || result.goal_gap)) {
    result.valid = false;
    result.message = result.start_gap
                         ? "the path does not begin at the start configuration: " + result.start_gap->describe()
                         : "the path does not end at the goal configuration: " + result.goal_gap->describe();
  }
  return result;
}

nlohmann::ordered_json verifyViewerData(const Problem& problem, const std::vector<Config>& path,
                                        const VerifyResult& verdict, double eps) {
  std::optional<Config> collision;
  if (!verdict.valid && verdict.segment && *verdict.segment + 1 < path.size()) {
    Config q;
    problem.robot->interpolate(path[*verdict.segment], path[*verdict.segment + 1], verdict.t, q);
    collision = q;
  }
  std::vector<std::array<std::string, 2>> legend{
      {"problem", problem.name},
      {"path", fmt::format("{} waypoints", path.size())},
      {"verdict", verdict.valid ? std::string("collision-free") : "INVALID: " + verdict.message},
      {"judge", fmt::format("no robot point moves more than {:.3g} m between checked configurations", eps)}};
  if (collision)
    legend.push_back({"first collision", fmt::format("segment {} at t = {:.6f}", *verdict.segment, verdict.t)});
  return pathViewerData(problem, path, std::move(legend), collision);
}

}  // namespace prmkit
