#pragma once
// prmkit benchmark-set: every MoveIt problem (requestNNNN.yaml with
// sceneNNNN.yaml beside it) of one or more folders, e.g. MotionBenchMaker
// scenarios, planned with one planner and checker on worker processes, and
// a table per folder: success rate, planning time, paths verify rejects.
#include "eval/benchmark.h"

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace prmkit {

struct BenchmarkSetOptions {
  std::filesystem::path urdf, srdf;
  std::string planner = PlannerSettings{}.type, checker = CheckerSettings{}.type;
  std::vector<std::pair<std::string, std::string>> parameters;  // --set key=value
  std::size_t seeds = 1;                                        // seeds 1..N per problem
  std::size_t limit = 0;                                        // at most this many problems per folder (0: all)
  double time_limit_s = 10.0;
  std::size_t jobs = 1;
  bool resume = false;
  bool plots = false;
  std::filesystem::path out = "out/benchmark_set";
};

/// The request files of a folder, sorted by name; InputError when there are none.
std::vector<std::filesystem::path> requestFiles(const std::filesystem::path& folder);

/// Per folder: problems, problems that do not load (invalid start or goal),
/// runs, solved, success rate over the valid problems' runs, median and IQR
/// of the planning time over those runs, returned paths dense verification rejects.
struct SetSummary {
  std::string set;
  std::size_t problems = 0, invalid_problems = 0, runs = 0, solved = 0, rejected = 0, crashed = 0;
  double time_median_s = 0, time_q1_s = 0, time_q3_s = 0;
  std::vector<std::string> invalid;  // "problem: reason"
};
std::vector<SetSummary> summarizeSets(const std::vector<RunRecord>& records);
std::string setsMarkdown(const std::vector<SetSummary>& sets, const std::string& combination, double timeLimit);

/// Runs the sets (resumable like a sweep), writes the sweep report plus
/// sets.md into options.out, prints the table. Returns the exit code.
int runBenchmarkSet(const std::vector<std::filesystem::path>& folders, const BenchmarkSetOptions& options,
                    std::ostream& out);

}  // namespace prmkit
