#pragma once
// MoveIt's problem messages as YAML: a PlanningScene gives the
// obstacles and the allowed collision matrix, a MotionPlanRequest the
// planning group, the start state and a joint-space goal. These are the files
// MotionBenchMaker writes; only the fields that change the problem are read,
// and fields prmkit cannot honour (attached objects, octomaps, planes,
// Cartesian goal constraints) are errors rather than silently dropped.
#include "io/geometry_reader.h"
#include "io/yaml_reader.h"
#include "scene/scene.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

struct MotionPlanRequest {
  std::string group;                                 // group_name
  std::map<std::string, double> start;               // start_state.joint_state (rad or m)
  std::vector<std::pair<std::string, double>> goal;  // goal_constraints[0].joint_constraints
  std::string start_at, goal_at;                     // where they were written, for errors
};

/// "NNNN" of a MotionBenchMaker requestNNNN.yaml (whose scene is sceneNNNN.yaml beside it).
std::optional<std::string> requestNumber(const std::filesystem::path& file);

/// True when a YAML file's top level looks like a MotionPlanRequest (and not a prmkit problem).
bool isMotionPlanRequest(const YAML::Node& root);

/// Reads a MotionPlanRequest; throws InputError with file:line:column.
MotionPlanRequest readMotionPlanRequest(const YamlReader& in);

/// A PlanningScene's world as read: its collision objects (boxes, spheres,
/// cylinders, inline meshes) and fixed frames, each posed in a frame named
/// as written, resolved once the robot's root link is known.
struct PlanningSceneSpec {
  struct FixedFrame {
    std::string child, parent;
    Transform transform;
    std::string at;
  };
  struct Object {
    std::string frame;                 // empty: the planning frame
    std::string frame_at;              // where the frame was named
    std::vector<ObstacleSpec> shapes;  // posed in `frame`; named id, or id#k for several
  };
  std::vector<FixedFrame> fixed_frames;
  std::vector<Object> objects;
};
/// Reads a PlanningScene's world collision objects and fixed frames; throws
/// InputError with file:line:column.
PlanningSceneSpec readPlanningSceneSpec(const YamlReader& in);
/// Adds the objects to `scene`, their frames resolved with the robot's root
/// frame `rootLink` (InputError where an unknown frame was named).
void addPlanningScene(const PlanningSceneSpec& spec, Scene& scene, const std::string& rootLink);

/// The robot link pairs a PlanningScene's allowed collision matrix allows
/// (InputError when it allows contact with one of the scene's objects).
std::vector<std::pair<std::string, std::string>> readAllowedCollisions(const YamlReader& in);

}  // namespace prmkit
