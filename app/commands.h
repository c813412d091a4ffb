#pragma once
// What the subcommands share: the Command record, the options of commands
// that read one problem, list and assignment parsing. The command line's
// own header (not installed).
#include "eval/compare.h"
#include "io/problem.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace prmkit::cli {

/// Worker processes one command may start: the same bound as a planner's
/// threads (past the cores they only cost memory, and a typo of 50 000 must
/// not start 50 000).
constexpr std::size_t kMaxJobs = kMaxPlannerThreads;
/// Random edges `check --random` draws: every edge and its verdict are held
/// in memory (a million Panda edges take about 0.3 GB).
constexpr std::size_t kMaxRandomEdges = 10'000'000;

/// A comma-separated list of names from `allowed`, each once; InputError otherwise.
std::vector<std::string> splitList(const std::string& text, const std::string& option,
                                   const std::vector<std::string>& allowed);
/// `typed` if it is one of `allowed`; else InputError naming the option and the closest name.
std::string knownName(const std::string& typed, const std::string& option, const std::string& kind,
                      const std::vector<std::string>& allowed);
/// "key.path=value" -> (key.path, value), for run parameters.
std::pair<std::string, std::string> splitAssignment(const std::string& assignment);
/// The --checker help: every registered strategy, in the registry's order.
std::string checkerHelp();
/// The --planner help: prmkit's planners by name, other libraries' by example.
std::string plannerHelp();
/// Seeds are 32-bit: the parser refuses what would wrap.
CLI::Option* addSeed(CLI::App* sub, long& seed, const std::string& help);

/// A subcommand and what runs it once the command line named it.
struct Command {
  CLI::App* sub;
  std::function<int()> run;
};

/// The options of the subcommands that read one problem.
struct ProblemArgs {
  std::string file, urdf, srdf, scene, request;
  std::vector<std::string> overrides;  // --set

  void addTo(CLI::App* sub) {
    sub->add_option("problem", file, "problem YAML file, or a MoveIt MotionPlanRequest YAML (with --urdf)");
    sub->add_option("--set", overrides, "override a value of the problem file: key.path=value (repeatable)");
    sub->add_option("--urdf", urdf, "MoveIt problem: the robot's URDF (robot.file)");
    sub->add_option("--srdf", srdf, "MoveIt problem: the robot's SRDF (robot.srdf)");
    sub->add_option("--scene", scene,
                    "MoveIt problem: PlanningScene YAML (default: sceneNNNN.yaml beside requestNNNN.yaml)");
    sub->add_option("--request", request, "MoveIt problem: MotionPlanRequest YAML (instead of PROBLEM)");
  }
  /// The problem file named by PROBLEM or --request; refuses neither or both.
  std::string problemFile() const {
    if (!request.empty() && !file.empty()) throw InputError("give a problem file or --request, not both");
    const std::string named = request.empty() ? file : request;
    if (named.empty()) throw InputError("give a problem file (or --request with --urdf)");
    return named;
  }
  /// The MoveIt flags, as the overrides of the problem the request stands for.
  std::vector<std::string> moveitOverrides() const {
    std::vector<std::string> result;
    for (const auto& [value, key] :
         {std::pair{&urdf, "robot.file"}, std::pair{&srdf, "robot.srdf"}, std::pair{&scene, "moveit.scene"}})
      if (!value->empty()) result.push_back(fmt::format("{}={}", key, std::filesystem::absolute(*value).string()));
    return result;
  }
  /// The MoveIt flags, then --set, then the subcommand's options that
  /// stand for settings, as (option, "key.path=value").
  LoadOptions loadOptions(std::vector<std::pair<std::string, std::string>> settingOptions = {}) const {
    LoadOptions options;
    options.overrides = moveitOverrides();
    options.overrides.insert(options.overrides.end(), overrides.begin(), overrides.end());
    options.options = std::move(settingOptions);
    return options;
  }
};

/// The evaluation harness's commands (batch_commands.cpp).
Command compareCommand(CLI::App& app, std::ostream& out);
Command sweepCommand(CLI::App& app, std::ostream& out);
Command mergeCommand(CLI::App& app, std::ostream& out);
Command benchmarkSetCommand(CLI::App& app, std::ostream& out);
Command experimentCommand(CLI::App& app, std::ostream& out);
Command listCommand(CLI::App& app, std::ostream& out);

}  // namespace prmkit::cli
