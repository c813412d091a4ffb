#pragma once
// `prmkit experiment`: Lin & Li's experiment on a shipped problem. A PRM
// roadmap (samples joined to their k nearest) is checked edge by edge, every
// sample of every edge with the budgeted traversal, for each budget and for
// the best-first (coherence) and depth-first orders; every check's verdict is
// compared with FCL's exact collide().
#include "io/problem.h"
#include "geometry/bvtt_traversal.h"

#include <filesystem>

namespace prmkit {

/// Most roadmap samples the experiment may ask for (each is a static check at
/// every budget, and every edge between them is checked at every budget).
inline constexpr long kMaxExperimentSamples = 100'000;
inline constexpr std::size_t kMaxExperimentBudgets = 100;

struct LinLiExperiment {
  std::string name;
  std::filesystem::path problem;
  std::size_t samples = 50, k = 10;
  double resolution = 0.01;
  std::vector<std::uint64_t> budgets{200, 400, 600, 800, 1000};
  std::uint64_t table2_budget = 600;
  TraversalSettings traversal;  // budget and order are set per run
  std::uint32_t seed = 1;
};

/// Reads an experiment file; throws InputError with file:line:column.
LinLiExperiment loadLinLiExperiment(const std::filesystem::path& file);

struct LinLiRow {  // Table 1: one budget
  std::uint64_t budget;
  std::size_t checks;
  std::size_t incomplete[2];  // [best-first, depth-first]: checks that reached the budget
  double mean_confidence[2];  // over those checks (the paper's Table 1)
};
struct LinLiBucket {  // Table 2: one confidence bucket of the checks that reached the budget
  std::string range;
  std::size_t colliding[2], free[2];  // by FCL's exact verdict
};
struct LinLiResult {
  std::vector<LinLiRow> table1;
  std::vector<LinLiBucket> table2;
  std::size_t edges = 0;
};

LinLiResult runLinLi(const LinLiExperiment& experiment);

std::string linLiTable1Csv(const LinLiResult& result);
std::string linLiTable2Csv(const LinLiResult& result);
/// Both tables as Markdown, with units, for the terminal and the README.
std::string linLiMarkdown(const LinLiExperiment& experiment, const LinLiResult& result);

}  // namespace prmkit
