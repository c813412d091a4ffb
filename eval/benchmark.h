#pragma once
// One planning run as compare and sweep see it: what to run (RunSpec), what
// came out (RunRecord, with the returned path re-verified densely), and the
// tables, CSV and OMPL benchmark logs made from many records.
#include "io/problem.h"

#include <filesystem>
#include <functional>
#include <ostream>
#include <map>
#include <string>
#include <vector>

namespace prmkit {

struct RunSpec {
  std::filesystem::path problem_file;  // where the problem is read from
  /// The problem as the sweep or command line named it (a path relative to
  /// the sweep file), so that keys match across machines with other checkouts.
  std::string problem_id;
  std::string planner;  // a makePlanner name
  std::string checker;  // a makeChecker name
  /// Extra settings as problem-file overrides ("checker.discrete.resolution" -> "0.005").
  std::vector<std::pair<std::string, std::string>> parameters;
  std::uint32_t seed = 1;
  double time_limit_s = 10.0;
  /// Overrides that complete the problem itself (the robot files of a MoveIt
  /// request), applied before the run's own; not part of the combination.
  std::vector<std::string> problem_overrides = {};
  /// What the user named the planner (an OMPL.app .cfg's `NAME.name=`
  /// rename), shown instead of `planner`; empty: `planner`.
  std::string planner_name = {};

  /// The combination without the seed: "planner+checker[parameters]".
  std::string combination() const;
  /// Unique within a sweep: problem file, combination and seed.
  std::string key() const;
  /// The overrides that turn the problem file into this run (on one thread,
  /// unless `parameters` set planner.threads).
  std::vector<std::string> overrides() const;
};

struct RunRecord {
  RunSpec spec;
  std::string problem;  // the problem's name
  bool solved = false;
  std::string status;          // the planner's status, or "failed" when the run itself failed
  std::string failure;         // why the run failed (bad input, crash, hang); empty otherwise
  double time_s = 0.0;         // planning time (s), excluding loading and verification
  double search_time_s = 0.0;  // of time_s, in graph searches (PlanResult::search_time_s)
  double path_length = 0.0;    // C-space units
  std::size_t waypoints = 0;
  bool path_verified = false;  // the planner's claim: every edge found free by an exact checker
  bool unsafe = false;         // the returned path was rejected by dense verification (prmkit verify)
  std::string verify_message;
  std::size_t roadmap_vertices = 0, roadmap_edges = 0;
  PlannerStats planner_stats;
  std::vector<NodeSourceStats> node_sources;
  CheckStats check_stats;
  std::vector<RacePart> race;            // PlanResult::race: empty when no race ran
  std::vector<RelaxedStage> relaxation;  // PlanResult::relaxation: empty when none ran
};

/// How the failure of a run whose problem does not load (e.g. a start in collision) begins.
inline constexpr const char* kInvalidInput = "invalid input: ";

/// Loads the problem with the run's overrides, plans, and verifies the
/// returned path with verifyPath at the default eps. Bad input becomes a
/// failed record, not an exception.
RunRecord runPlanning(const RunSpec& spec);

/// One JSON object per record (JSON Lines), and back; parse errors throw
/// InputError naming `where` (file:line).
std::string recordJson(const RunRecord& record);
RunRecord parseRecordJson(const std::string& line, const std::string& where);

std::string recordsCsv(const std::vector<RunRecord>& records);

/// Quantile p in [0, 1] with linear interpolation between order statistics
/// (Hyndman & Fan type 7, as numpy's default); NaN for no values.
double quantile(std::vector<double> values, double p);

}  // namespace prmkit
