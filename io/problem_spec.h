#pragma once
// A problem as read and checked, before any of it is built: plain data (the
// settings, the robot's and the scene's descriptions, start and goal as
// written, a MoveIt scene's objects and frames), validated whole, settings
// included, before a mesh, a URDF or a generator is touched. Every reader
// (a prmkit problem, an OMPL.app .cfg, a MoveIt request) produces one;
// setup/build_problem.h builds robot, scene and endpoints from it. A command
// that must know the time limit before anything costs time (`prmkit plan`)
// reads the spec, starts its termination, then builds.
#include "io/geometry_reader.h"
#include "io/moveit_problem.h"
#include "io/problem.h"
#include "io/robot_reader.h"

#include <Eigen/Core>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

/// A start or goal as written, read before the robot exists: its form
/// decides how the robot reads it (a list of coordinates; a pose, for a
/// robot with one; joint values by name, from a MoveIt request).
struct EndpointSpec {
  enum class Form { Coordinates, Pose, Joints, Other };
  std::string what;  // "start", "goal", "queries[2].start", "start_state"
  std::string at;    // where it was written (file:line:column), for errors once the robot is known
  Form form = Form::Other;
  std::size_t list_size = 0;                           // entries of a list (Form::Coordinates)
  Eigen::VectorXd coordinates;                         // Form::Coordinates, when every entry is a number
  Transform pose = Transform::Identity();              // Form::Pose, when it reads as a pose
  std::string error;                                   // why it does not read as its form (the whole message)
  std::vector<std::pair<std::string, double>> joints;  // Form::Joints, in the order written
  std::string planning_group;                          // Form::Joints: the request's group, for messages
};

/// An endpoint at `node` as a problem file writes its start and goal; no
/// robot needed. What cannot be judged without one waits in `error`.
EndpointSpec readEndpointSpec(const YamlReader& in, const YAML::Node& node, const std::string& what);

struct ProblemSpec {
  std::filesystem::path file;
  std::string name;
  PlannerSettings planner;  // validated
  CheckerSettings checker;  // validated, the scale applied to its lengths
  RobotSpec robot;
  SceneSpec scene;  // a MoveIt problem's holds the broad phase alone
  PrimitiveMode primitives = PrimitiveMode::Native;
  std::optional<double> scale;
  EndpointSpec start, goal;
  /// A MoveIt problem's scene: its objects, posed in frames resolved once
  /// the robot's root link is known.
  bool moveit = false;
  std::optional<PlanningSceneSpec> planning_scene;
  /// Settings of the source file read but not applied, in words (an OMPL.app
  /// .cfg's objective, mem_limit, output), for the command to print.
  std::vector<std::string> notes;
  /// Every other section after the overrides, as YAML text (Problem::description_text).
  std::string description_text;
  /// The settings sections as read (Problem::settings_source).
  YAML::Node settings_source;
};

/// Reads and checks the whole problem file (every key, every setting, the
/// robot, the scene, start and goal as written, nothing built, no mesh, URDF
/// or generator touched); throws InputError with file:line:column.
ProblemSpec readProblemSpec(const std::filesystem::path& file, const LoadOptions& options = {});

}  // namespace prmkit
