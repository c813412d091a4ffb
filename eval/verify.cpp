#include "eval/verify.h"

#include "eval/independent_check.h"
#include "io/viewer_page.h"
#include "geometry/collision_queries.h"
#include "checkers/discrete_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <numbers>

namespace prmkit {

double defaultVerifyEps(const Problem& problem) {
  double robotSize = 0.0;
  for (const Link& link : problem.robot->links())
    if (!link.mesh.empty()) robotSize = std::max(robotSize, link.mesh.bounds().diagonal().norm());
  const double sceneSize = problem.sceneSize();
  return 1e-3 * (robotSize > 0.0 ? std::min(robotSize, sceneSize) : sceneSize);
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
    gap.position_m = std::max(gap.position_m, (a[i].translation() - b[i].translation()).norm());
    gap.angle_rad = std::max(gap.angle_rad, Eigen::AngleAxisd(a[i].linear().transpose() * b[i].linear()).angle());
  }
  gap.configuration_distance = robot.distance(at, expected);
  return gap;
}
}  // namespace

VerifyResult verifyPath(const Problem& problem, const std::vector<Config>& path, double eps,
                        std::optional<double> independentResolution, Endpoints endpoints) {
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
  const double tolerance = 1e-9 * robot.maxExtent();
  if (robot.distance(path.front(), problem.start) > tolerance)
    result.start_gap = endpointGap(robot, path.front(), problem.start);
  if (robot.distance(path.back(), problem.goal) > tolerance)
    result.goal_gap = endpointGap(robot, path.back(), problem.goal);
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
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const EdgeResult edge = checker.checkEdge(path[i], path[i + 1]);
    if (edge.verdict != Verdict::Free) {
      Config q;
      robot.interpolate(path[i], path[i + 1], edge.witness_t, q);
      CheckStats ignored;
      Contact contact;
      collision.inCollision(q, ignored, &contact);
      result.segment = i;
      result.t = edge.witness_t;
      return fail(fmt::format("segment {} (waypoints {} to {}) collides at t = {:.6f} ({})", i, i, i + 1,
                              edge.witness_t, describe(contact, robot, *problem.scene)));
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
