#pragma once
// prmkit sweep and merge: a grid of planning runs read from a sweep
// file, run on worker processes, appended to runs.jsonl one fsync'ed line per
// run, resumable, shardable across machines, merged back with a check.
#include "eval/benchmark.h"

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace prmkit {

/// Most runs one sweep grid may hold: every run is listed in memory and in
/// runs.jsonl, and a typo in a seed count must not fill the disk.
inline constexpr long kMaxSweepRuns = 1'000'000;

struct Sweep {
  std::string name;
  std::filesystem::path file;
  /// The whole grid in its one deterministic order (shards and resume index into it).
  std::vector<RunSpec> runs;
  /// A run still going after this long (s) is killed and recorded as failed.
  double run_timeout_s = 0.0;
  /// What the request asked for and the sweep does not run or apply (an
  /// OMPL.app file's other planners): the report lists them.
  std::vector<std::string> notes;
};

/// The default run_timeout: twice the planning time limit and 30 s for
/// loading, building the checkers and verifying.
inline double defaultRunTimeout(double timeLimit) { return 2.0 * timeLimit + 30.0; }

/// Reads a sweep file (docs/sweep-format.md) and checks every (problem,
/// combination) by loading it; throws InputError with file:line:column.
Sweep loadSweep(const std::filesystem::path& file);

struct Shard {
  std::size_t index = 1, count = 1;  // run r (0-based) belongs to shard (r mod count) + 1
  /// Parses "i/N" with 1 <= i <= N; throws InputError.
  static Shard parse(const std::string& text);
  bool contains(std::size_t run) const { return run % count == index - 1; }
};

struct SweepOptions {
  std::size_t jobs = 1;
  Shard shard;
  bool resume = false;
  /// Start afresh: the runs a previous sweep left in the folder are dropped (under the folder's lock).
  bool fresh = false;
  bool plots = true;
  std::filesystem::path out = "out/sweep";
};

/// Runs the sweep's runs of the shard that runs.jsonl does not hold yet, then
/// writes the report of everything in runs.jsonl. Returns the exit code.
int runSweep(const Sweep& sweep, const SweepOptions& options, std::ostream& out);

/// The records of a runs.jsonl file (InputError on a malformed or torn line).
std::vector<RunRecord> readRunsFile(const std::filesystem::path& file);

/// Combines the runs.jsonl of shard folders; every run of the sweep must be
/// there exactly once (else InputError naming what is missing or duplicated).
int mergeSweep(const Sweep& sweep, const std::vector<std::filesystem::path>& folders,
               const std::filesystem::path& outDir, bool plots, std::ostream& out);

}  // namespace prmkit
