#pragma once
// `prmkit compare`: every checker x planner combination on one problem with
// the same seeds, or what an OMPL.app .cfg's [benchmark] and [planner]
// sections ask for, as far as prmkit has those planners.
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

/// Runs per combination a comparison may ask for.
inline constexpr std::size_t kMaxCompareRuns = 100'000;

struct CompareOptions {
  std::vector<std::string> checkers;  // makeChecker names
  std::vector<std::string> planners;  // makePlanner names
  std::size_t runs = 10;              // seeds 1..runs
  double time_limit_s = 10.0;
  std::size_t jobs = 1;
  bool plots = true;
  /// Given by the user: they then win over an OMPL.app file's [benchmark] and [planner].
  bool planners_given = false, runs_given = false, time_limit_given = false;
  std::filesystem::path out = "out";
};

/// Runs the comparison as a sweep of one problem (worker processes: a run
/// that crashes or hangs is recorded as failed, the others go on) into
/// options.out, replacing a previous runs.jsonl there, and writes the report;
/// `problemOverrides` complete the problem (a MoveIt request's robot files),
/// `parameters` are the runs' own settings. Throws InputError on bad input
/// before any run; returns runSweep's exit code (1 when a run failed).
int runCompare(const std::filesystem::path& file, const std::vector<std::string>& problemOverrides,
               const std::vector<std::pair<std::string, std::string>>& parameters, CompareOptions options,
               std::ostream& out);

}  // namespace prmkit
