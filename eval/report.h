#pragma once
// What compare and sweep write from their records: the summary table
// (Markdown and one HTML page with the plots), OMPL benchmark logs, and the
// plots drawn by Debian's matplotlib.
#include "eval/benchmark.h"
#include "io/output_folder.h"

#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace prmkit {

/// Per (problem, combination): runs, success rate, median and IQR of the
/// planning time over all runs, medians of static checks, distance queries
/// and BV tests, median path length of solved runs, unsafe paths returned.
struct Summary {
  std::string problem, combination, planner, checker;
  std::size_t runs = 0, solved = 0, unsafe = 0, failed = 0;
  double time_median_s = 0, time_q1_s = 0, time_q3_s = 0;
  double static_queries_median = 0, distance_queries_median = 0, bv_tests_median = 0;
  double path_length_median = 0;  // NaN when nothing was solved
};
std::vector<Summary> summarize(const std::vector<RunRecord>& records);
std::string summaryMarkdown(const std::vector<Summary>& rows);
/// report.html: the summary table (rows with unsafe paths marked), the
/// notes, and the plots (inline <svg> elements), one self-contained page.
std::string reportHtml(const std::string& experiment, const std::vector<Summary>& rows,
                       const std::vector<std::string>& notes, const std::vector<std::string>& plots);

/// OMPL benchmark logs (the format ompl_benchmark_statistics reads), one per
/// problem: file name -> content. Each combination is one "planner".
std::map<std::string, std::string> omplBenchmarkLogs(const std::string& experiment,
                                                     const std::vector<RunRecord>& records);

/// Writes runs.csv, summary.md, ompl/<problem>.log and plot_runs.py into
/// `dir`, then the plots (plot_<problem>.png/.svg) with Debian's
/// /usr/bin/python3 and matplotlib unless `plots` is false, then
/// report.html (reportHtml, with those plots). Reports to `out`.
/// `notes` (what the request asked for and was not run or applied) end summary.md.
/// The files writeReport writes into the folder (besides plots and the OMPL logs).
inline const std::vector<std::string> kReportFiles{"runs.csv", "summary.md", "plot_runs.py", "report.html"};

void writeReport(const FolderLock& folder, const std::string& experiment, const std::vector<RunRecord>& records,
                 bool plots, std::ostream& out, const std::vector<std::string>& notes = {});

}  // namespace prmkit
