#include "eval/report.h"

#include "base/input_file.h"
#include "registry/checker_registry.h"
#include "io/output_text.h"
#include "io/output_folder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace prmkit {

namespace {
/// Text for one line of OMPL's benchmark log, which its statistics script
/// reads line by line: control characters (a newline in a problem or
/// planner name) become spaces.
std::string oneLine(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return text;
}
}  // namespace

namespace {
std::string hostName() {
  char name[256] = {};
  return ::gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : std::string("unknown");
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("model name")) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace

std::vector<Summary> summarize(const std::vector<RunRecord>& records) {
  std::vector<Summary> rows;
  std::map<std::pair<std::string, std::string>, std::vector<const RunRecord*>> groups;
  std::vector<std::pair<std::string, std::string>> order;  // first appearance
  for (const auto& r : records) {
    const std::pair<std::string, std::string> group{r.problem, r.spec.combination()};
    if (!groups.contains(group)) order.push_back(group);
    groups[group].push_back(&r);
  }
  for (const auto& group : order) {
    const auto& runs = groups[group];
    Summary s;
    s.problem = group.first;
    s.combination = group.second;
    s.planner = runs.front()->spec.planner;
    s.checker = runs.front()->spec.checker;
    std::vector<double> times, statics, distances, bvs, lengths;
    for (const RunRecord* r : runs) {
      ++s.runs;
      if (!r->failure.empty()) {
        ++s.failed;
        continue;
      }
      s.solved += r->solved;
      s.unsafe += r->unsafe;
      times.push_back(r->time_s);
      statics.push_back(static_cast<double>(r->check_stats.static_queries));
      distances.push_back(static_cast<double>(r->check_stats.distance_queries));
      bvs.push_back(static_cast<double>(r->check_stats.bv_tests));
      if (r->solved) lengths.push_back(r->path_length);
    }
    s.time_median_s = quantile(times, 0.5);
    s.time_q1_s = quantile(times, 0.25);
    s.time_q3_s = quantile(times, 0.75);
    s.static_queries_median = quantile(statics, 0.5);
    s.distance_queries_median = quantile(distances, 0.5);
    s.bv_tests_median = quantile(bvs, 0.5);
    s.path_length_median = quantile(lengths, 0.5);
    rows.push_back(s);
  }
  return rows;
}

namespace {
/// The summary table as header and cells, which the Markdown and the HTML report both render.
struct SummaryTable {
  std::vector<std::string> header{"problem",
                                  "planner + checker",
                                  "runs",
                                  "solved",
                                  "median time (s)",
                                  "IQR time (s)",
                                  "static checks",
                                  "distance queries",
                                  "BV tests",
                                  "path length (C-space)",
                                  "unsafe paths returned",
                                  "failed runs"};
  std::vector<std::vector<std::string>> rows;
};

SummaryTable summaryTable(const std::vector<Summary>& summaries) {
  SummaryTable table;
  for (const auto& s : summaries)
    table.rows.push_back(
        {s.problem, s.combination, fmt::format("{}", s.runs),
         fmt::format("{:.0f}%", 100.0 * static_cast<double>(s.solved) / static_cast<double>(s.runs)),
         fmt::format("{:.3f}", s.time_median_s), fmt::format("{:.3f}", s.time_q3_s - s.time_q1_s),
         fmt::format("{:.0f}", s.static_queries_median), fmt::format("{:.0f}", s.distance_queries_median),
         fmt::format("{:.0f}", s.bv_tests_median),
         std::isnan(s.path_length_median) ? std::string("-") : fmt::format("{:.3g}", s.path_length_median),
         fmt::format("{}", s.unsafe), fmt::format("{}", s.failed)});
  return table;
}

constexpr std::string_view kSummaryNote =
    "Times are planning times over all runs (unsolved runs count with the time they used); static checks, "
    "distance queries and BV tests are medians per run; unsafe paths are returned paths that dense verification "
    "(prmkit verify with its default step) rejects.";

}  // namespace

std::string summaryMarkdown(const std::vector<Summary>& rows) {
  const SummaryTable table = summaryTable(rows);
  std::string out = fmt::format("| {} |\n|---|---|", fmt::join(table.header, " | "));
  for (std::size_t i = 2; i < table.header.size(); ++i) out += "---:|";
  out += "\n";
  for (const auto& row : table.rows) out += fmt::format("| {} |\n", fmt::join(row, " | "));
  return out + fmt::format("\n{}\n", kSummaryNote);
}

std::string reportHtml(const std::string& experiment, const std::vector<Summary>& rows,
                       const std::vector<std::string>& notes, const std::vector<std::string>& plots) {
  const SummaryTable table = summaryTable(rows);
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>prmkit: {0}</title>\n<style>\n"
      "body {{ font: 14px sans-serif; margin: 20px; }}\n"
      "table {{ border-collapse: collapse; }}\n"
      "th, td {{ border: 1px solid #ccc; padding: 3px 7px; }}\n"
      "td.number {{ text-align: right; }}\n"
      "tr.unsafe td {{ background: #fde2e2; }}\n"
      ".plot svg {{ max-width: 100%; height: auto; }}\n"
      "</style>\n</head>\n<body>\n<h1>prmkit: {0}</h1>\n<table>\n<tr>",
      markupEscaped(experiment));
  for (const auto& cell : table.header) html += fmt::format("<th>{}</th>", markupEscaped(cell));
  html += "</tr>\n";
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    html += rows[r].unsafe > 0 ? "<tr class=\"unsafe\">" : "<tr>";
    for (std::size_t c = 0; c < table.rows[r].size(); ++c)
      html += fmt::format("<td{}>{}</td>", c >= 2 ? " class=\"number\"" : "", markupEscaped(table.rows[r][c]));
    html += "</tr>\n";
  }
  html += fmt::format("</table>\n<p>{}</p>\n", markupEscaped(kSummaryNote));
  if (!notes.empty()) {
    html += "<h2>Not run or not applied</h2>\n<ul>\n";
    for (const auto& note : notes) html += fmt::format("<li>{}</li>\n", markupEscaped(note));
    html += "</ul>\n";
  }
  if (plots.empty()) html += "<p>No plots (matplotlib did not run; see the command's output).</p>\n";
  for (const auto& svg : plots) html += fmt::format("<div class=\"plot\">\n{}\n</div>\n", svg);
  return html + "</body>\n</html>\n";
}

std::map<std::string, std::string> omplBenchmarkLogs(const std::string& experiment,
                                                     const std::vector<RunRecord>& records) {
  static const std::vector<std::string> statuses{"solved",       "time limit", "sample limit", "invalid start",
                                                 "invalid goal", "failed",     "other"};
  std::map<std::string, std::vector<const RunRecord*>> byProblem;
  for (const auto& r : records) byProblem[r.problem].push_back(&r);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::map<std::string, std::string> logs;
  for (const auto& [problem, runs] : byProblem) {
    std::vector<std::string> combinations;
    std::map<std::string, std::vector<const RunRecord*>> byCombination;
    double total = 0, timeLimit = 0;
    std::uint32_t firstSeed = std::numeric_limits<std::uint32_t>::max();
    for (const RunRecord* r : runs) {
      if (!byCombination.contains(r->spec.combination())) combinations.push_back(r->spec.combination());
      byCombination[r->spec.combination()].push_back(r);
      total += r->time_s;
      timeLimit = std::max(timeLimit, r->spec.time_limit_s);
      firstSeed = std::min(firstSeed, r->spec.seed);
    }
    std::size_t runsPerPlanner = 0;
    for (const auto& [name, list] : byCombination) runsPerPlanner = std::max(runsPerPlanner, list.size());
    std::string name = oneLine(fmt::format("{}_{}", experiment, problem));
    std::replace(name.begin(), name.end(), ' ', '_');
    std::string out = fmt::format("prmkit version {}\nExperiment {}\nRunning on {}\nStarting at {}\n", PRMKIT_VERSION,
                                  name, hostName(), date);
    out += fmt::format("<<<|\nprmkit problem {} ({})\n|>>>\n<<<|\n{}\n|>>>\n", oneLine(problem),
                       oneLine(runs.front()->spec.problem_file.string()), oneLine(cpuModel()));
    out += fmt::format("{} is the random seed\n{} seconds per run\n0 MB per run\n{} runs per planner\n", firstSeed,
                       timeLimit, runsPerPlanner);
    out +=
        fmt::format("{} seconds spent to collect the data\n1 enum type\nstatus|{}\n", total, fmt::join(statuses, "|"));
    out += fmt::format("{} planners\n", combinations.size());
    std::vector<std::string> properties{"time REAL",
                                        "solved BOOLEAN",
                                        "status ENUM",
                                        "solution length REAL",
                                        "unsafe BOOLEAN",
                                        "path verified BOOLEAN",
                                        "seed INTEGER",
                                        "graph states INTEGER",
                                        "graph motions INTEGER"};
    PlannerStats::forEachField(
        [&](std::string_view field, auto) { properties.push_back(fmt::format("{} INTEGER", field)); });
    const std::vector<CounterSpec> strategyCounters = checkCounterSpecs();
    CheckStats{}.forEach(
        [&](std::string_view field, double, std::string_view unit) {
          properties.push_back(fmt::format("{} {}", field, unit == "s" ? "REAL" : "INTEGER"));
        },
        strategyCounters);
    for (const auto& combination : combinations) {
      const auto& list = byCombination[combination];
      const RunSpec& spec = list.front()->spec;
      out += fmt::format("{}\n{} common properties\n", oneLine(combination), 2 + spec.parameters.size());
      out += fmt::format("planner = {}\nchecker = {}\n", oneLine(spec.planner), oneLine(spec.checker));
      for (const auto& [key, value] : spec.parameters) out += fmt::format("{} = {}\n", oneLine(key), oneLine(value));
      out += fmt::format("{} properties for each run\n{}\n{} runs\n", properties.size(), fmt::join(properties, "\n"),
                         list.size());
      for (const RunRecord* r : list) {
        const auto status = std::find(statuses.begin(), statuses.end(), r->status);
        std::vector<std::string> values{
            fmt::format("{:.6f}", r->time_s),
            r->solved ? "1" : "0",
            std::to_string(std::min<std::size_t>(status - statuses.begin(), statuses.size() - 1)),
            r->solved ? fmt::format("{:.6g}", r->path_length) : "nan",
            r->unsafe ? "1" : "0",
            r->path_verified ? "1" : "0",
            std::to_string(r->spec.seed),
            std::to_string(r->roadmap_vertices),
            std::to_string(r->roadmap_edges)};
        PlannerStats::forEachField(
            [&](std::string_view, auto member) { values.push_back(std::to_string(r->planner_stats.*member)); });
        r->check_stats.forEach(
            [&](std::string_view, double value, std::string_view unit) {
              values.push_back(unit == "s" ? fmt::format("{:.6f}", value) : fmt::format("{:.0f}", value));
            },
            strategyCounters);
        out += fmt::format("{}; \n", fmt::join(values, "; "));
      }
      out += ".\n";
    }
    // Two problems whose names give the same stem each keep their log.
    std::string file = fileStem(problem) + ".log";
    for (int copy = 2; logs.contains(file); ++copy) file = fmt::format("{}_{}.log", fileStem(problem), copy);
    logs[file] = out;
  }
  return logs;
}

extern const char* const kPlotRunsScript;

namespace {
/// Runs a program with an argument vector (no shell, so no quoting of file
/// names that come from the command line), its output discarded; the exit
/// status, or -1 when it could not run or did not exit normally.
int runQuietly(const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

namespace {
/// The plots plot_runs.py wrote into `dir` for the summarised problems
/// (plot_<fileStem(problem)>.svg, so an older run's plots of other problems
/// in the same folder stay out), each an <svg> element for the report
/// (matplotlib's XML prologue dropped).
std::vector<std::string> plotSvgs(const std::filesystem::path& dir, const std::vector<Summary>& rows) {
  std::vector<std::string> problems;
  for (const auto& row : rows)
    if (std::find(problems.begin(), problems.end(), row.problem) == problems.end()) problems.push_back(row.problem);
  std::vector<std::string> svgs;
  for (const auto& problem : problems) {
    std::string text;
    try {
      text = readInputFile(dir / ("plot_" + fileStem(problem) + ".svg"), std::uintmax_t{64} << 20, "plot");
    } catch (const InputFileError&) {
      continue;
    }
    const auto begin = text.find("<svg");
    if (begin != std::string::npos) svgs.push_back(text.substr(begin));
  }
  return svgs;
}
}  // namespace

void writeReport(const FolderLock& folder, const std::string& experiment, const std::vector<RunRecord>& records,
                 bool plots, std::ostream& out, const std::vector<std::string>& notes) {
  const std::vector<Summary> rows = summarize(records);
  std::string summary = summaryMarkdown(rows);
  if (!notes.empty()) {
    summary += "\nNot run or not applied:\n\n";
    for (const auto& note : notes) summary += fmt::format("- {}\n", note);
  }
  out << summary;
  const std::filesystem::path& dir = folder.folder();
  OutputFiles files;
  files.add("runs.csv", recordsCsv(records));
  files.add("summary.md", summary);
  files.add("plot_runs.py", kPlotRunsScript);
  for (const auto& [name, content] : omplBenchmarkLogs(experiment, records)) files.add("ompl/" + name, content);
  for (const auto& written : files.commit(folder))
    out << fmt::format("wrote {}{}\n", written.string(),
                       written.parent_path().filename() == "ompl" ? " (OMPL benchmark log)" : "");
  // report.html: the table and the plots on one page, written last so that it holds this run's plots.
  // Plots are embedded only when this run drew them (a failed run may leave an older run's files).
  auto writeHtml = [&](bool drawn) {
    OutputFiles page;
    page.add("report.html",
             reportHtml(experiment, rows, notes, drawn ? plotSvgs(dir, rows) : std::vector<std::string>{}));
    for (const auto& written : page.commit(folder)) out << fmt::format("wrote {}\n", written.string());
  };
  if (!plots) return writeHtml(false);
  const std::string script = (dir / "plot_runs.py").string();
  const std::string command = fmt::format("/usr/bin/python3 {} {}", script, dir.string());  // for people only
  if (runQuietly({"/usr/bin/python3", "-c", "import matplotlib"}) != 0) {
    out << fmt::format("plots skipped: Debian's python3-matplotlib is not installed (then run: {})\n", command);
    return writeHtml(false);
  }
  out.flush();
  const bool drawn = runQuietly({"/usr/bin/python3", script, dir.string()}) == 0;
  if (drawn)
    out << fmt::format("wrote plots {}/plot_<problem>.png and .svg\n", dir.string());
  else
    out << fmt::format("plots failed: {} exited with an error\n", command);
  writeHtml(drawn);
}

}  // namespace prmkit
