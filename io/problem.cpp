#include "io/problem_spec.h"

#include "io/geometry_reader.h"
#include "io/robot_reader.h"
#include "io/settings_reader.h"

#include "io/moveit_problem.h"
#include "io/omplapp_problem.h"

#include "geometry/collision_queries.h"
#include "robots/kinematic_chain.h"
#include "registry/planner_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <span>

namespace prmkit {

namespace {

Config readConfig(const YamlReader& in, const YAML::Node& node, const std::string& what, const Robot& robot) {
  Config q;
  if (node.IsMap() && robot.configAtPose(Transform::Identity())) {
    q = *robot.configAtPose(readPose(in, node, what));
  } else {
    if (!node.IsSequence() || node.size() != robot.configSize())
      in.fail(node, fmt::format("expected '{}' to be a list of {} numbers ({}){}", what, robot.configSize(),
                                fmt::join(robot.coordinateNames(), ", "),
                                node.IsSequence() ? fmt::format(", got {}", node.size()) : ""));
    q = in.vector(node, what, robot.configSize());
  }
  try {
    robot.canonicalize(q);
  } catch (const std::invalid_argument& e) {
    in.fail(node, fmt::format("'{}': {}", what, e.what()));
  }
  return q;
}

}  // namespace

double Problem::sceneSize() const {
  Eigen::AlignedBox3d box = scene->bounds();
  const auto& b = robot->bounds();
  if (robot->boundsArePositions()) {
    Eigen::Vector3d lo = Eigen::Vector3d::Zero(), hi = Eigen::Vector3d::Zero();
    lo.head(b.lower.size()) = b.lower;
    hi.head(b.upper.size()) = b.upper;
    box.extend(lo);
    box.extend(hi);
  }
  return box.isEmpty() ? 1.0 : std::max(box.diagonal().norm(), 1e-9);
}

std::string defaultProblemName(const std::filesystem::path& file) {
  // MotionBenchMaker keeps requestNNNN.yaml in one folder per scenario: name both.
  if (const auto number = requestNumber(file); number && file.parent_path().has_filename())
    return fmt::format("{}-{}", file.parent_path().filename().string(), *number);
  return file.stem().string();
}

namespace {

/// A MotionPlanRequest given as the problem: a problem that names it, with
/// the scene beside it (MotionBenchMaker's sceneNNNN.yaml next to
/// requestNNNN.yaml). A numbered request's scene must be there unless
/// --scene names another: planning it in an empty world because its scene
/// file went missing would return paths through its obstacles.
YAML::Node problemForRequest(const std::filesystem::path& file) {
  YAML::Node root(YAML::NodeType::Map);
  root["robot"]["type"] = "urdf";
  root["moveit"]["request"] = file.filename().string();
  if (const auto number = requestNumber(file)) root["moveit"]["scene"] = "scene" + *number + ".yaml";
  return root;
}

/// Start or goal in the robot's coordinate order from joint values by name.
Config jointsToConfig(const YamlReader& in, const YAML::Node& node, const std::string& what, const Robot& robot,
                      const std::map<std::string, double>& values) {
  Config q(static_cast<Eigen::Index>(robot.configSize()));
  for (std::size_t i = 0; i < robot.configSize(); ++i) {
    const auto& name = robot.coordinateNames()[i];
    const auto it = values.find(name);
    if (it == values.end()) in.fail(node, fmt::format("the {} gives no value for the planned joint '{}'", what, name));
    q[static_cast<Eigen::Index>(i)] = it->second;
  }
  try {
    robot.canonicalize(q);
  } catch (const std::invalid_argument& e) {
    in.fail(node, fmt::format("the {}: {}", what, e.what()));
  }
  return q;
}

}  // namespace

namespace {
ProblemSpec readSpec(const std::filesystem::path& file, const LoadOptions& options);
Problem buildSpec(ProblemSpec spec, bool endpointsChecked);

/// What `read` returns; a YAML node of the wrong kind that a reader asked for
/// something it does not have (yaml-cpp's own check) is bad input, with yaml-cpp's position.
template <class Read>
auto asInputError(const std::filesystem::path& file, Read&& read) {
  try {
    return read();
  } catch (const YAML::Exception& e) {
    if (e.mark.is_null()) throw InputError(fmt::format("{}: {}", file.string(), e.msg));
    throw InputError(fmt::format("{}:{}:{}: {}", file.string(), e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}
}  // namespace

ProblemSpec readProblemSpec(const std::filesystem::path& file, const LoadOptions& options) {
  return asInputError(file, [&] { return readSpec(file, options); });
}

Problem buildProblem(ProblemSpec spec, const LoadOptions& options) {
  const std::filesystem::path file = spec.file;
  return asInputError(file, [&] { return buildSpec(std::move(spec), options.checkEndpoints); });
}

Problem loadProblem(const std::filesystem::path& file, const LoadOptions& options) {
  return buildProblem(readProblemSpec(file, options), options);
}

namespace {
/// Where start and goal were written, for errors about them.
struct Endpoint {
  const YamlReader* reader;
  YAML::Node node;
  Config* q;
  const char* what;
};

/// The same problem in other units: every length (geometry, poses, bounds,
/// translations and prismatic joints, the checkers' lengths) times the
/// factor, angles unchanged. Soundness must not depend on the unit.
void scaleProblem(Problem& problem, double factor) {
  std::shared_ptr<Robot> robot = problem.robot->scaled(factor);
  problem.scene = problem.scene->scaled(factor);
  robot->scaleConfig(problem.start, factor);
  robot->scaleConfig(problem.goal, factor);
  problem.robot = robot;
  scaleCheckerLengths(problem.checker, factor);
}

/// Start and goal lie within the bounds and collide with nothing (on the
/// meshes: the verdict every geometry agrees with).
void checkEndpoints(const Problem& problem, std::span<const Endpoint> endpoints) {
  const Robot& robot = *problem.robot;
  CollisionQueries collision(problem.robot, problem.scene, Geometry::Mesh);
  for (const auto& e : endpoints) {
    if (!robot.inBounds(*e.q)) {
      std::string outside;
      // Bounds cover the bounded coordinates only (translation for rigid bodies).
      for (Eigen::Index i = 0; i < std::min(e.q->size(), robot.bounds().lower.size()); ++i)
        if (!((*e.q)[i] >= robot.bounds().lower[i] && (*e.q)[i] <= robot.bounds().upper[i]))
          outside += fmt::format("{}{} = {} not in [{}, {}]", outside.empty() ? "" : ", ",
                                 robot.coordinateNames()[static_cast<std::size_t>(i)], (*e.q)[i],
                                 robot.bounds().lower[i], robot.bounds().upper[i]);
      e.reader->fail(e.node, fmt::format("the {} configuration is out of bounds ({})", e.what,
                                         outside.empty() ? "a coordinate is not finite" : outside));
    }
    CheckStats ignored;
    Contact contact;
    if (collision.inCollision(*e.q, ignored, &contact))
      e.reader->fail(e.node, fmt::format("the {} configuration is in collision ({})", e.what,
                                         describe(contact, robot, *problem.scene)));
  }
}

}  // namespace

Config readEndpointConfig(const YamlReader& in, const YAML::Node& node, const std::string& what,
                          const Problem& problem) {
  // Read as the unscaled problem reads its endpoints: a pose's translation
  // and the coordinates in the file's units, canonical before the scale.
  Config q = readConfig(in, node, what, *problem.robot);
  if (problem.scale != 1.0) problem.robot->scaleConfig(q, problem.scale);
  const Endpoint endpoint{&in, node, &q, what.c_str()};
  checkEndpoints(problem, {&endpoint, 1});
  return q;
}

namespace {
/// Start and goal, from the problem file or the MoveIt request.
std::array<Endpoint, 2> readEndpoints(const YamlReader& in, const YAML::Node& root, const YamlReader* requestIn,
                                      const MotionPlanRequest* request, Problem& problem) {
  const Robot& robot = *problem.robot;
  if (!request) {
    const YAML::Node startNode = in.require(root, "start", "problem");
    const YAML::Node goalNode = in.require(root, "goal", "problem");
    problem.start = readConfig(in, startNode, "start", robot);
    problem.goal = readConfig(in, goalNode, "goal", robot);
    return {Endpoint{&in, startNode, &problem.start, "start"}, Endpoint{&in, goalNode, &problem.goal, "goal"}};
  }
  problem.start = jointsToConfig(*requestIn, request->start_node, "start_state", robot, request->start);
  std::map<std::string, double> goal;
  for (const auto& [name, value] : request->goal) {
    const auto& names = robot.coordinateNames();
    if (std::find(names.begin(), names.end(), name) == names.end())
      requestIn->fail(request->goal_node,
                      fmt::format("the goal constrains joint '{}', which is not in planning group '{}' "
                                  "(planned joints: {})",
                                  name, request->group, fmt::join(names, ", ")));
    goal[name] = value;
  }
  problem.goal = jointsToConfig(*requestIn, request->goal_node, "goal", robot, goal);
  return {Endpoint{requestIn, request->start_node, &problem.start, "start"},
          Endpoint{requestIn, request->goal_node, &problem.goal, "goal"}};
}

ProblemSpec readSpec(const std::filesystem::path& file, const LoadOptions& options) {
  std::vector<std::string> notes;
  ProblemSpec spec = [&] {
    if (!isOmplAppConfig(file)) return ProblemSpec{YamlReader(file)};
    OmplAppConfig config = readOmplAppConfig(file);
    notes = std::move(config.benchmark.notes);
    return ProblemSpec{std::move(config.document)};
  }();
  spec.notes = std::move(notes);
  YamlReader& in = spec.in;
  const bool requestFile = isMotionPlanRequest(in.root());
  if (requestFile) in.replaceRoot(problemForRequest(file));
  for (const auto& o : options.overrides) in.applyOverride(o);
  for (const auto& [option, assignment] : options.options) in.applyOverride(assignment, option);
  const YAML::Node& root = in.root();
  if (requestFile && !(root["robot"].IsMap() && root["robot"]["file"]))
    throw InputError(
        fmt::format("{}: a MoveIt MotionPlanRequest needs its robot: give --urdf and --srdf "
                    "(or --set robot.file=... --set robot.srdf=...)",
                    file.string()));
  in.requireMap(root, "problem",
                {"name", "description", "robot", "scene", "bounds", "start", "goal", "planner", "checker", "seed",
                 "limits", "moveit", "scale", "primitives"});
  spec.file = file;
  // Settings first (validated again once a scale has changed their lengths).
  readPlanner(in, root, spec.planner);
  readChecker(in, root, spec.checker);
  validateSettings(in, root, spec.checker, spec.planner);
  spec.name = root["name"] ? in.string(root["name"], "name") : defaultProblemName(file);
  if (root["description"]) in.string(root["description"], "description");

  // A MoveIt problem: the request gives group, start and goal; the scene the obstacles.
  std::optional<YamlReader>& requestIn = spec.request_in;
  std::optional<YamlReader>& sceneIn = spec.moveit_scene_in;
  std::optional<MotionPlanRequest>& request = spec.request;
  const YAML::Node moveit = root["moveit"];
  spec.moveit = static_cast<bool>(moveit);
  if (moveit) {
    in.requireMap(moveit, "moveit", {"scene", "request"});
    for (const char* key : {"start", "goal"})
      if (root[key]) in.fail(root[key], fmt::format("a problem with 'moveit' takes '{}' from the MoveIt files", key));
    // Its obstacles come from the MoveIt scene; only how to search them may be set here.
    if (const YAML::Node scene = root["scene"]; scene && (!scene.IsMap() || scene.size() != 1 || !scene["broadphase"]))
      in.fail(scene, "a problem with 'moveit' takes 'scene' from the MoveIt files (only scene.broadphase may be set)");
    requestIn.emplace(in.path(in.require(moveit, "request", "moveit"), "moveit.request"));
    request = readMotionPlanRequest(*requestIn);
    if (moveit["scene"]) {
      const std::filesystem::path scenePath = in.path(moveit["scene"], "moveit.scene");
      if (!std::filesystem::exists(scenePath))
        in.fail(moveit["scene"], fmt::format("the MoveIt scene '{}' does not exist (a requestNNNN.yaml plans in its "
                                             "sceneNNNN.yaml unless --scene names another)",
                                             scenePath.string()));
      sceneIn.emplace(scenePath);
    }
  }

  // Everything the file says is read and checked before any geometry is built
  // or any robot file read: a typo anywhere costs no mesh and no generator.
  const auto allowed = sceneIn ? readAllowedCollisions(*sceneIn) : std::vector<std::pair<std::string, std::string>>{};
  spec.robot = readRobotSpec(in, root, request ? &*request : nullptr, allowed);
  spec.primitives =
      root["primitives"] && in.oneOf(root["primitives"], "primitives", {"native", "tessellated"}) == "tessellated"
          ? PrimitiveMode::Tessellated
          : PrimitiveMode::Native;
  if (moveit) {
    spec.scene.broad_phase = readBroadPhase(in, root["scene"]);
  } else {
    spec.scene = readSceneSpec(in, root);
  }
  spec.scale = readScale(in, root);
  spec.settings_source = YAML::Node(YAML::NodeType::Map);
  for (const char* key : {"planner", "checker", "seed", "limits", "scale"})
    if (root[key]) spec.settings_source[key] = YAML::Clone(root[key]);
  // The rest as YAML text, written once here: the problem's description in
  // force (after the overrides), which stats.json records beside the settings.
  YAML::Node described(YAML::NodeType::Map);
  for (const auto& entry : root)
    if (!spec.settings_source[entry.first.Scalar()]) described[entry.first.Scalar()] = YAML::Clone(entry.second);
  YAML::Emitter text;
  text << described;
  spec.description_text = text.c_str();
  return spec;
}

Problem buildSpec(ProblemSpec spec, bool endpointsChecked) {
  const YamlReader& in = spec.in;
  const YAML::Node& root = in.root();
  const std::optional<YamlReader>& requestIn = spec.request_in;
  const std::optional<YamlReader>& sceneIn = spec.moveit_scene_in;
  const std::optional<MotionPlanRequest>& request = spec.request;
  Problem problem;
  problem.file = spec.file;
  problem.name = spec.name;
  problem.notes = spec.notes;
  problem.description_text = spec.description_text;
  problem.planner = spec.planner;
  problem.checker = spec.checker;
  const PrimitiveMode primitives = spec.primitives;
  const SceneSpec& sceneSpec = spec.scene;
  const bool moveit = spec.moveit;

  auto robot = buildRobot(spec.robot);
  std::shared_ptr<Scene> scene;
  if (moveit) {
    scene = std::make_shared<Scene>(primitives);
    if (sceneIn)
      readPlanningScene(*sceneIn, *scene, dynamic_cast<const KinematicChain&>(*robot).description().frames[0].name);
    if (sceneSpec.broad_phase) scene->setBroadPhase(*sceneSpec.broad_phase);
  } else {
    scene = buildScene(sceneSpec, primitives);
  }
  problem.robot = robot;
  problem.scene = scene;

  const std::array<Endpoint, 2> endpoints =
      readEndpoints(in, root, requestIn ? &*requestIn : nullptr, request ? &*request : nullptr, problem);
  if (spec.scale) {
    scaleProblem(problem, *spec.scale);
    problem.scale = *spec.scale;
  }
  validateSettings(in, root, problem.checker, problem.planner);
  problem.settings_source = spec.settings_source;
  if (endpointsChecked) checkEndpoints(problem, endpoints);
  return problem;
}
}  // namespace

}  // namespace prmkit
