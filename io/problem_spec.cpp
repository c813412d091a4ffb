#include "io/problem_spec.h"

#include "io/geometry_reader.h"
#include "io/robot_reader.h"
#include "io/settings_reader.h"

#include "io/moveit_problem.h"
#include "io/omplapp_problem.h"

#include "registry/planner_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

namespace prmkit {

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

ProblemSpec readSpec(const std::filesystem::path& file, const LoadOptions& options);

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

EndpointSpec readEndpointSpec(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  EndpointSpec spec;
  spec.what = what;
  spec.at = in.where(node);
  // What fails to read is kept, not thrown: whether a map is a pose or a
  // mistake, and how long the list must be, depend on the robot.
  try {
    if (node.IsMap()) {
      spec.form = EndpointSpec::Form::Pose;
      spec.pose = readPose(in, node, what);
    } else if (node.IsSequence()) {
      spec.form = EndpointSpec::Form::Coordinates;
      spec.list_size = node.size();
      if (node.size() > 0) spec.coordinates = in.vector(node, what);
    }
  } catch (const InputError& e) {
    spec.error = e.what();
  }
  return spec;
}

namespace {
EndpointSpec jointsEndpointSpec(std::string what, std::string at, std::vector<std::pair<std::string, double>> joints,
                                const std::string& group) {
  EndpointSpec spec;
  spec.form = EndpointSpec::Form::Joints;
  spec.what = std::move(what);
  spec.at = std::move(at);
  spec.joints = std::move(joints);
  spec.planning_group = group;
  return spec;
}

ProblemSpec readSpec(const std::filesystem::path& file, const LoadOptions& options) {
  std::vector<std::string> notes;
  YamlReader in = [&] {
    if (!isOmplAppConfig(file)) return YamlReader(file);
    OmplAppConfig config = readOmplAppConfig(file);
    notes = std::move(config.benchmark.notes);
    return std::move(config.document);
  }();
  ProblemSpec spec;
  spec.notes = std::move(notes);
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
  std::optional<YamlReader> requestIn, sceneIn;
  std::optional<MotionPlanRequest> request;
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
      spec.planning_scene = readPlanningSceneSpec(*sceneIn);
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
  if (spec.scale) {
    // Lengths in the problem's units, as the scaled robot and scene will be.
    scaleCheckerLengths(spec.checker, *spec.scale);
    validateSettings(in, root, spec.checker, spec.planner);
  }
  if (!request) {
    spec.start = readEndpointSpec(in, in.require(root, "start", "problem"), "start");
    spec.goal = readEndpointSpec(in, in.require(root, "goal", "problem"), "goal");
  } else {
    spec.start = jointsEndpointSpec("start_state", request->start_at, {request->start.begin(), request->start.end()},
                                    request->group);
    spec.goal = jointsEndpointSpec("goal", request->goal_at, request->goal, request->group);
  }
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

}  // namespace

}  // namespace prmkit
