#include "setup/build_problem.h"

#include "geometry/collision_queries.h"
#include "robots/kinematic_chain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

namespace prmkit {

namespace {

[[noreturn]] void failAt(const EndpointSpec& spec, const std::string& what) {
  throw InputError(fmt::format("{}: {}", spec.at, what));
}

/// Start or goal in the robot's coordinate order from joint values by name
/// (a MoveIt request's; the goal may constrain the planned joints alone).
Config jointsToConfig(const EndpointSpec& spec, const Robot& robot) {
  const auto& names = robot.coordinateNames();
  std::map<std::string, double> values;
  for (const auto& [name, value] : spec.joints) {
    if (spec.what == "goal" && std::find(names.begin(), names.end(), name) == names.end())
      failAt(spec, fmt::format("the goal constrains joint '{}', which is not in planning group '{}' "
                               "(planned joints: {})",
                               name, spec.planning_group, fmt::join(names, ", ")));
    values[name] = value;
  }
  Config q(static_cast<Eigen::Index>(robot.configSize()));
  for (std::size_t i = 0; i < robot.configSize(); ++i) {
    const auto it = values.find(names[i]);
    if (it == values.end())
      failAt(spec, fmt::format("the {} gives no value for the planned joint '{}'", spec.what, names[i]));
    q[static_cast<Eigen::Index>(i)] = it->second;
  }
  try {
    robot.canonicalize(q);
  } catch (const std::invalid_argument& e) {
    failAt(spec, fmt::format("the {}: {}", spec.what, e.what()));
  }
  return q;
}

/// The configuration an endpoint stands for, in the file's units, canonical.
Config configOf(const EndpointSpec& spec, const Robot& robot) {
  if (spec.form == EndpointSpec::Form::Joints) return jointsToConfig(spec, robot);
  Config q;
  if (spec.form == EndpointSpec::Form::Pose && robot.configAtPose(Transform::Identity())) {
    if (!spec.error.empty()) throw InputError(spec.error);
    q = *robot.configAtPose(spec.pose);
  } else {
    const bool list = spec.form == EndpointSpec::Form::Coordinates;
    if (!list || spec.list_size != robot.configSize())
      failAt(spec, fmt::format("expected '{}' to be a list of {} numbers ({}){}", spec.what, robot.configSize(),
                               fmt::join(robot.coordinateNames(), ", "),
                               list ? fmt::format(", got {}", spec.list_size) : ""));
    if (!spec.error.empty()) throw InputError(spec.error);
    q = spec.coordinates;
  }
  try {
    robot.canonicalize(q);
  } catch (const std::invalid_argument& e) {
    failAt(spec, fmt::format("'{}': {}", spec.what, e.what()));
  }
  return q;
}

/// The same problem in other units: every length (geometry, poses, bounds,
/// translations and prismatic joints) times the factor, angles unchanged
/// (the checkers' lengths were scaled with the spec's settings). Soundness
/// must not depend on the unit.
void scaleProblem(Problem& problem, double factor) {
  std::shared_ptr<Robot> robot = problem.robot->scaled(factor);
  problem.scene = problem.scene->scaled(factor);
  robot->scaleConfig(problem.start, factor);
  robot->scaleConfig(problem.goal, factor);
  problem.robot = robot;
}

/// Start and goal lie within the bounds and collide with nothing (on the
/// meshes: the verdict every geometry agrees with).
void checkEndpoint(const Problem& problem, const EndpointSpec& spec, const Config& q) {
  const Robot& robot = *problem.robot;
  // The endpoint's own name in messages ("the start configuration"), as the user wrote it.
  const std::string what = spec.what == "start_state" ? "start" : spec.what;
  if (!robot.inBounds(q)) {
    std::string outside;
    // Bounds cover the bounded coordinates only (translation for rigid bodies).
    for (Eigen::Index i = 0; i < std::min(q.size(), robot.bounds().lower.size()); ++i)
      if (!(q[i] >= robot.bounds().lower[i] && q[i] <= robot.bounds().upper[i]))
        outside += fmt::format("{}{} = {} not in [{}, {}]", outside.empty() ? "" : ", ",
                               robot.coordinateNames()[static_cast<std::size_t>(i)], q[i], robot.bounds().lower[i],
                               robot.bounds().upper[i]);
    failAt(spec, fmt::format("the {} configuration is out of bounds ({})", what,
                             outside.empty() ? "a coordinate is not finite" : outside));
  }
  CollisionQueries collision(problem.robot, problem.scene, Geometry::Mesh);
  CheckStats ignored;
  Contact contact;
  if (collision.inCollision(q, ignored, &contact))
    failAt(spec,
           fmt::format("the {} configuration is in collision ({})", what, describe(contact, robot, *problem.scene)));
}

Problem build(ProblemSpec spec, bool endpointsChecked) {
  Problem problem;
  problem.file = spec.file;
  problem.name = spec.name;
  problem.notes = spec.notes;
  problem.description_text = spec.description_text;
  problem.planner = spec.planner;
  problem.checker = spec.checker;

  auto robot = buildRobot(spec.robot);
  std::shared_ptr<Scene> scene;
  if (spec.moveit) {
    scene = std::make_shared<Scene>(spec.primitives);
    if (spec.planning_scene)
      addPlanningScene(*spec.planning_scene, *scene,
                       dynamic_cast<const KinematicChain&>(*robot).description().frames[0].name);
    if (spec.scene.broad_phase) scene->setBroadPhase(*spec.scene.broad_phase);
  } else {
    scene = buildScene(spec.scene, spec.primitives);
  }
  problem.robot = robot;
  problem.scene = scene;
  problem.start = configOf(spec.start, *robot);
  problem.goal = configOf(spec.goal, *robot);
  if (spec.scale) {
    scaleProblem(problem, *spec.scale);
    problem.scale = *spec.scale;
  }
  problem.settings_source = spec.settings_source;
  if (endpointsChecked) {
    checkEndpoint(problem, spec.start, problem.start);
    checkEndpoint(problem, spec.goal, problem.goal);
  }
  return problem;
}

}  // namespace

Problem buildProblem(ProblemSpec spec, const LoadOptions& options) {
  return build(std::move(spec), options.checkEndpoints);
}

Problem loadProblem(const std::filesystem::path& file, const LoadOptions& options) {
  return buildProblem(readProblemSpec(file, options), options);
}

Config endpointConfig(const EndpointSpec& spec, const Problem& problem) {
  // Read as the unscaled problem reads its endpoints: a pose's translation
  // and the coordinates in the file's units, canonical before the scale.
  Config q = configOf(spec, *problem.robot);
  if (problem.scale != 1.0) problem.robot->scaleConfig(q, problem.scale);
  checkEndpoint(problem, spec, q);
  return q;
}

std::vector<QueryEnds> readQueries(const std::filesystem::path& file, const Problem& problem) {
  std::vector<QueryEnds> queries;
  for (const QuerySpec& query : readQuerySpecs(file))
    queries.push_back({endpointConfig(query.start, problem), endpointConfig(query.goal, problem)});
  return queries;
}

}  // namespace prmkit
