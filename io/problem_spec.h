#pragma once
// A problem as read and checked, before any of it is built: the settings,
// the robot's and the scene's descriptions (io/robot_reader.h,
// io/geometry_reader.h), and the documents the rest is read from once the
// robot exists (start and goal, whose form depends on its joints, and a
// MoveIt scene, whose frames are its links'). loadProblem is
// buildProblem(readProblemSpec(...)); a command that must know the time
// limit before anything costs time (`prmkit plan`) reads the spec, starts
// its termination, then builds.
#include "io/geometry_reader.h"
#include "io/moveit_problem.h"
#include "io/problem.h"
#include "io/robot_reader.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

struct ProblemSpec {
  explicit ProblemSpec(YamlReader document) : in(std::move(document)) {}
  /// The problem document (a prmkit problem, or what an OMPL.app .cfg or a
  /// MoveIt request stands for), with the load's overrides applied.
  YamlReader in;
  std::filesystem::path file;
  std::string name;
  PlannerSettings planner;  // validated
  CheckerSettings checker;  // validated
  RobotSpec robot;
  SceneSpec scene;  // a MoveIt problem's holds the broad phase alone
  PrimitiveMode primitives = PrimitiveMode::Native;
  std::optional<double> scale;
  /// Settings of the source file read but not applied, in words (an OMPL.app
  /// .cfg's objective, mem_limit, output), for the command to print.
  std::vector<std::string> notes;
  /// Every other section after the overrides, as YAML text (Problem::description_text).
  std::string description_text;
  /// The settings sections as read (Problem::settings_source).
  YAML::Node settings_source;
  /// A MoveIt problem: its request (group, start, goal) and scene documents.
  bool moveit = false;
  std::optional<YamlReader> request_in, moveit_scene_in;
  std::optional<MotionPlanRequest> request;
};

/// Reads and checks the whole problem file (every key, every setting, the
/// robot and the scene described, nothing built, no mesh, URDF or generator
/// touched); throws InputError with file:line:column.
ProblemSpec readProblemSpec(const std::filesystem::path& file, const LoadOptions& options = {});
/// Builds robot and scene, reads start and goal (checked unless
/// options.checkEndpoints is off) and applies the scale; InputError where the
/// spec was written, SetupTimeLimit when the thread's setup termination expires.
Problem buildProblem(ProblemSpec spec, const LoadOptions& options = {});

}  // namespace prmkit
