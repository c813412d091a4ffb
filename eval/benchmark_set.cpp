#include "eval/benchmark_set.h"

#include "setup/build_problem.h"
#include "io/moveit_problem.h"

#include "eval/sweep.h"
#include "io/yaml_reader.h"
#include "io/output_folder.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace prmkit {

std::vector<std::filesystem::path> requestFiles(const std::filesystem::path& folder) {
  if (!std::filesystem::is_directory(folder))
    throw InputError(
        fmt::format("{}: not a folder (expected a folder of requestNNNN.yaml and sceneNNNN.yaml)", folder.string()));
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file() && requestNumber(entry.path())) files.push_back(entry.path());
  }
  if (files.empty()) throw InputError(fmt::format("{}: holds no requestNNNN.yaml files", folder.string()));
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

std::string setOf(const RunRecord& r) {
  return std::filesystem::path(r.spec.problem_id).parent_path().filename().string();
}

}  // namespace

std::vector<SetSummary> summarizeSets(const std::vector<RunRecord>& records) {
  std::vector<SetSummary> sets;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::set<std::string>> problems, invalid;
  std::map<std::string, std::vector<double>> times;
  for (const auto& r : records) {
    const std::string set = setOf(r);
    if (!index.count(set)) {
      index[set] = sets.size();
      sets.push_back({});
      sets.back().set = set;
    }
    SetSummary& s = sets[index[set]];
    problems[set].insert(r.spec.problem_id);
    if (r.failure.starts_with(kInvalidInput)) {
      if (invalid[set].insert(r.spec.problem_id).second)
        s.invalid.push_back(fmt::format("{}: {}", r.problem, r.failure.substr(std::string(kInvalidInput).size())));
      continue;
    }
    ++s.runs;
    s.solved += r.solved;
    s.rejected += r.unsafe;
    s.crashed += !r.failure.empty();
    times[set].push_back(r.time_s);
  }
  for (auto& s : sets) {
    s.problems = problems[s.set].size();
    s.invalid_problems = invalid[s.set].size();
    s.time_median_s = quantile(times[s.set], 0.5);
    s.time_q1_s = quantile(times[s.set], 0.25);
    s.time_q3_s = quantile(times[s.set], 0.75);
  }
  return sets;
}

std::string setsMarkdown(const std::vector<SetSummary>& sets, const std::string& combination, double timeLimit) {
  std::string md = fmt::format(
      "{}, time limit {:g} s per run. Times are planning times over all runs of valid problems (unsolved runs count "
      "at the time they stopped).\n\n"
      "| set | problems | invalid | runs | solved | success | median time (s) | IQR (s) | rejected by verify | "
      "crashed or hung |\n|---|---|---|---|---|---|---|---|---|---|\n",
      combination, timeLimit);
  for (const auto& s : sets)
    md += fmt::format("| {} | {} | {} | {} | {} | {:.0f}% | {:.3f} | {:.3f}-{:.3f} | {} | {} |\n", s.set, s.problems,
                      s.invalid_problems, s.runs, s.solved,
                      s.runs ? 100.0 * static_cast<double>(s.solved) / static_cast<double>(s.runs) : 0.0,
                      s.time_median_s, s.time_q1_s, s.time_q3_s, s.rejected, s.crashed);
  for (const auto& s : sets)
    for (const auto& why : s.invalid) md += fmt::format("\ninvalid problem {}\n", why);
  return md;
}

int runBenchmarkSet(const std::vector<std::filesystem::path>& folders, const BenchmarkSetOptions& options,
                    std::ostream& out) {
  if (folders.empty()) throw InputError("give at least one folder of MoveIt problems");
  if (!(options.time_limit_s > 0 && std::isfinite(options.time_limit_s)))
    throw InputError("--time-limit must be a positive number of seconds");
  for (const auto& [file, flag] : {std::pair{options.urdf, "--urdf"}, std::pair{options.srdf, "--srdf"}})
    if (!std::filesystem::is_regular_file(file))
      throw InputError(fmt::format("{} '{}': no such file", flag, file.string()));
  Sweep sweep;
  sweep.name = "benchmark-set";
  sweep.run_timeout_s = defaultRunTimeout(options.time_limit_s);
  const std::vector<std::string> robot{"robot.file=" + std::filesystem::absolute(options.urdf).string(),
                                       "robot.srdf=" + std::filesystem::absolute(options.srdf).string()};
  std::set<std::filesystem::path> seen;
  for (const auto& folder : folders) {
    std::error_code ec;
    if (!seen.insert(std::filesystem::weakly_canonical(folder, ec)).second)
      throw InputError(fmt::format("'{}': this folder is given twice (its problems would run twice)", folder.string()));
    auto files = requestFiles(folder);
    if (options.limit > 0 && files.size() > options.limit) files.resize(options.limit);
    for (const auto& file : files) {
      RunSpec spec{file,
                   file.lexically_normal().string(),
                   options.planner,
                   options.checker,
                   options.parameters,
                   1,
                   options.time_limit_s,
                   robot};
      // Settings errors stop here; an invalid start or goal is a result (recorded per problem).
      loadProblem(file, {spec.overrides(), false});
      for (std::size_t seed = 1; seed <= options.seeds; ++seed) {
        spec.seed = static_cast<std::uint32_t>(seed);
        sweep.runs.push_back(spec);
      }
    }
  }
  SweepOptions sweepOptions;
  sweepOptions.jobs = options.jobs;
  sweepOptions.resume = options.resume;
  sweepOptions.plots = options.plots;
  sweepOptions.out = options.out;
  const int code = runSweep(sweep, sweepOptions, out);
  const auto sets = summarizeSets(readRunsFile(options.out / "runs.jsonl"));
  const std::string table = setsMarkdown(sets, sweep.runs.front().combination(), options.time_limit_s);
  out << table;
  OutputFiles files;
  files.add("sets.md", table);
  const FolderLock lock(options.out, FolderLock::Wait::Yes);
  for (const auto& written : files.commit(lock)) out << fmt::format("wrote {}\n", written.string());
  std::size_t crashed = 0;
  for (const auto& s : sets) crashed += s.crashed;
  // Invalid problems are a finding about the set, not a failure of the run.
  return code != 0 && crashed > 0 ? 1 : 0;
}

}  // namespace prmkit
