#pragma once
// A planning problem as built (setup/build_problem.h, from the spec of
// io/problem_spec.h): robot + scene, start and goal, planner and checker
// settings. Data flows one way from here: problem -> checker -> planner -> outputs.
#include "io/yaml_reader.h"
#include "registry/checker_registry.h"
#include "scene/scene.h"
#include "planner/planner.h"
#include "robots/robot.h"

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace prmkit {

struct Problem {
  std::string name;
  std::filesystem::path file;
  std::shared_ptr<const Robot> robot;
  std::shared_ptr<const Scene> scene;
  Config start, goal;
  PlannerSettings planner;
  CheckerSettings checker;
  /// The settings sections as read (`planner`, `checker`, `seed`, `limits`,
  /// `scale`, after the load's overrides), so that withRunSettings can read
  /// them again with more overrides without reading any file.
  YAML::Node settings_source;

  /// The problem file's sections other than the settings (name, robot, scene,
  /// bounds, start, goal, ...; a MoveIt request's or an OMPL.app .cfg's as
  /// translated), after the overrides, as YAML text: with the settings in
  /// force, what stats.json records of the problem planned.
  std::string description_text;
  /// Settings of the source file read but not applied, in words (ProblemSpec::notes).
  std::vector<std::string> notes;

  /// The factor `scale` multiplied every length by (1: none).
  double scale = 1.0;

  /// Diagonal of the region the problem lives in (scene and robot bounds), in metres.
  double sceneSize() const;
};

struct LoadOptions {
  std::vector<std::string> overrides;  // "key.path=value", applied in order
  /// Reject a start or goal that is out of bounds or in collision (validate, plan).
  bool checkEndpoints = true;
  /// Command-line options that stand for a setting, as (option, "key.path=value"),
  /// applied after `overrides`: messages about their values name the option.
  std::vector<std::pair<std::string, std::string>> options = {};
};

/// The name of a problem without `name`: the file stem, or "<folder>-NNNN"
/// for a MotionBenchMaker requestNNNN.yaml.
std::string defaultProblemName(const std::filesystem::path& file);

/// The keys of a problem file that withRunSettings may override.
inline constexpr std::array<const char*, 4> kRunSettingKeys{"planner", "checker", "seed", "limits"};

/// `problem` with more overrides of its run settings (`planner`, `checker`,
/// `seed`, `limits`; InputError for any other key, which would change the
/// robot, the scene or the endpoints), read as loadProblem reads them:
/// robot, scene, start and goal are the loaded ones, no file is read. Safe
/// to call from several threads on one problem.
Problem withRunSettings(const Problem& problem, const LoadOptions& options);

}  // namespace prmkit
