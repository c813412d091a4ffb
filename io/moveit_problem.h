#pragma once
// MoveIt's problem messages as YAML: a PlanningScene gives the
// obstacles and the allowed collision matrix, a MotionPlanRequest the
// planning group, the start state and a joint-space goal. These are the files
// MotionBenchMaker writes; only the fields that change the problem are read,
// and fields prmkit cannot honour (attached objects, octomaps, planes,
// Cartesian goal constraints) are errors rather than silently dropped.
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
  YAML::Node start_node, goal_node;                  // for error locations
};

/// "NNNN" of a MotionBenchMaker requestNNNN.yaml (whose scene is sceneNNNN.yaml beside it).
std::optional<std::string> requestNumber(const std::filesystem::path& file);

/// True when a YAML file's top level looks like a MotionPlanRequest (and not a prmkit problem).
bool isMotionPlanRequest(const YAML::Node& root);

/// Reads a MotionPlanRequest; throws InputError with file:line:column.
MotionPlanRequest readMotionPlanRequest(const YamlReader& in);

/// Adds a PlanningScene's world collision objects (boxes, spheres, cylinders,
/// meshes; poses in the robot's root frame `rootLink` or a fixed frame) to `scene`.
void readPlanningScene(const YamlReader& in, Scene& scene, const std::string& rootLink);

/// The robot link pairs a PlanningScene's allowed collision matrix allows
/// (InputError when it allows contact with one of the scene's objects).
std::vector<std::pair<std::string, std::string>> readAllowedCollisions(const YamlReader& in);

}  // namespace prmkit
