#pragma once
// OMPL.app problem files (.cfg, as OMPL.app's GUI and its ompl_benchmark
// program read them). The [problem] section names a robot mesh and
// optionally a world mesh (COLLADA, with node transforms and scale), start
// and goal (x, y, z and an axis-angle rotation theta about axis.x/y/z in 3D;
// x, y, theta in 2D), the volume bounds, a valid-state sampler and an
// optimization objective; it is read into the same tree a prmkit problem
// YAML gives, so that every later check and every --set override works the
// same way. The [benchmark] section (time limit, run count) and the planner
// instances of [planner] are what `compare` runs when given the file.
#include "io/yaml_reader.h"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

/// True for a file prmkit reads as an OMPL.app problem (extension .cfg).
bool isOmplAppConfig(const std::filesystem::path& file);

/// What a .cfg asks a benchmark to run.
struct OmplAppBenchmark {
  std::optional<double> time_limit_s;    // [benchmark] time_limit
  std::optional<std::size_t> run_count;  // [benchmark] run_count
  /// One `NAME=` line of [planner] (the same name may come several times on
  /// purpose), with the `NAME.param=` and `problem.key=` lines that follow it.
  struct PlannerInstance {
    std::string planner;  // OMPL.app's name: prm, lazyprm, rrt, ...
    std::string name;     // its `name` parameter, else `planner`
    int line = 0;
    /// prmkit problem overrides from the instance's `problem.sampler=` line.
    std::vector<std::pair<std::string, std::string>> problem_settings;
    /// Its other parameters (OMPL's ParamSet names), applied to OMPL's planners by name.
    std::vector<std::pair<std::string, std::string>> parameters;
  };
  std::vector<PlannerInstance> planners;
  /// Settings read but not applied, in words (the objective, mem_limit, output, save_paths).
  std::vector<std::string> notes;
};

/// A .cfg read once: the [problem] section as a problem tree, and what
/// [benchmark] and [planner] ask for (with the notes a plan prints).
struct OmplAppConfig {
  YamlReader document;
  OmplAppBenchmark benchmark;
};

/// Reads the whole file; throws InputError with file:line on bad input.
OmplAppConfig readOmplAppConfig(const std::filesystem::path& file);

/// Reads [benchmark] and [planner] (and the notes of [problem]); throws
/// InputError with file:line on bad input, as readOmplAppConfig.
OmplAppBenchmark readOmplAppBenchmark(const std::filesystem::path& file);

}  // namespace prmkit
