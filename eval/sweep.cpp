#include "eval/sweep.h"

#include "setup/build_problem.h"
#include "eval/report.h"
#include "eval/worker_pool.h"

#include "base/input_file.h"

#include "io/yaml_reader.h"
#include "registry/planner_registry.h"
#include "io/output_folder.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace prmkit {

namespace {

/// runs.jsonl of a sweep of kMaxSweepRuns runs stays far below this (a record is about 2 KB).
constexpr std::uintmax_t kMaxRunsFileBytes = std::uintmax_t{4} << 30;
/// One record of runs.jsonl (a run's counters and node sources: a few KB).
constexpr std::size_t kMaxRecordBytes = std::size_t{1} << 20;

using Clock = std::chrono::steady_clock;
using Assignments = std::vector<std::pair<std::string, std::string>>;

/// The cartesian product of `grid` (a map of key -> list of values) in file order.
std::vector<Assignments> gridPoints(const YamlReader& in, const YAML::Node& grid, const std::string& prefix,
                                    const std::string& what) {
  std::vector<Assignments> points{{}};
  if (!grid) return points;
  if (!grid.IsMap()) in.fail(grid, fmt::format("expected '{}.grid' to be a map of setting -> list of values", what));
  for (const auto& entry : grid) {
    const std::string key = entry.first.as<std::string>();
    if (key.empty() || key.find_first_of(".= ") != std::string::npos)
      in.fail(entry.first, fmt::format("'{}' is not a setting name of {}", key, what));
    std::vector<std::string> values;
    const YAML::Node list = entry.second;
    if (list.IsScalar()) {
      values.push_back(list.Scalar());
    } else if (list.IsSequence() && list.size() > 0) {
      for (const auto& v : list) {
        if (!v.IsScalar()) in.fail(v, fmt::format("expected a value of {}.{}", what, key));
        values.push_back(v.Scalar());
      }
    } else {
      in.fail(list, fmt::format("expected a non-empty list of values for {}.{}", what, key));
    }
    std::vector<Assignments> next;
    for (const auto& point : points)
      for (const auto& value : values) {
        Assignments extended = point;
        extended.emplace_back(prefix + key, value);
        next.push_back(std::move(extended));
      }
    points = std::move(next);
  }
  return points;
}

struct Entry {
  std::string type;
  std::vector<Assignments> points;
  YAML::Node node;
};

std::vector<Entry> entries(const YamlReader& in, const YAML::Node& root, const char* key,
                           const std::vector<std::string>& names) {
  const YAML::Node list = in.require(root, key, "sweep");
  if (!list.IsSequence() || list.size() == 0)
    in.fail(list, fmt::format("expected '{}' to be a list of {{type, grid}}", key));
  std::vector<Entry> out;
  for (const auto& item : list) {
    in.requireMap(item, key, {"type", "grid"});
    Entry e;
    e.type = in.oneOf(in.require(item, "type", key), fmt::format("{} type", key), names);
    const std::string prefix = std::string(key) == "planners" ? "planner." : "checker." + e.type + ".";
    e.points = gridPoints(in, item["grid"], prefix, fmt::format("{} {}", key, e.type));
    e.node = static_cast<const YAML::Node&>(item);
    out.push_back(std::move(e));
  }
  return out;
}

/// Reads runs.jsonl. With `repairFd` (the file open for writing, under the
/// folder's lock), a last line cut short by a kill is removed from the file;
/// without it, such a line is an error.
std::vector<RunRecord> readRuns(const std::filesystem::path& file, std::ostream& out, int repairFd = -1) {
  std::vector<RunRecord> records;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file))) return records;
  const std::string content = readInputFile(file, kMaxRunsFileBytes, "runs");
  std::size_t complete = content.rfind('\n');
  complete = complete == std::string::npos ? 0 : complete + 1;
  if (complete < content.size()) {
    if (repairFd < 0)
      throw InputError(
          fmt::format("{}: the last line is incomplete (the sweep was stopped while writing it); "
                      "resume that shard with --resume first",
                      file.string()));
    out << fmt::format("{}: dropping an incomplete last line ({} bytes) left by an interrupted write\n", file.string(),
                       content.size() - complete);
    if (::ftruncate(repairFd, static_cast<off_t>(complete)) != 0)
      throw std::runtime_error(
          fmt::format("{}: cannot drop its incomplete last line: {}", file.string(), std::strerror(errno)));
  }
  std::size_t lineNumber = 0, start = 0;
  while (start < complete) {
    const std::size_t end = content.find('\n', start);
    ++lineNumber;
    // One record is a few kilobytes; a line far longer (a huge JSON array
    // planted in it) is refused before the JSON parser sees it.
    if (end - start > kMaxRecordBytes)
      throw InputError(fmt::format("{}:{}: a record of {} bytes, more than the {} KiB a run's record takes",
                                   file.string(), lineNumber, end - start, kMaxRecordBytes >> 10));
    const std::string line = content.substr(start, end - start);
    if (!line.empty()) records.push_back(parseRecordJson(line, fmt::format("{}:{}", file.string(), lineNumber)));
    start = end + 1;
  }
  return records;
}

}  // namespace

Shard Shard::parse(const std::string& text) {
  Shard s;
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used = 0;
    s.index = std::stoul(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("trailing");
    s.count = std::stoul(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw InputError(fmt::format("--shard '{}': expected i/N, e.g. 2/8", text));
  }
  if (s.count == 0 || s.index == 0 || s.index > s.count)
    throw InputError(fmt::format("--shard '{}': expected 1 <= i <= N", text));
  return s;
}

Sweep loadSweep(const std::filesystem::path& file) {
  YamlReader in(file);
  const YAML::Node root = in.root();
  in.requireMap(root, "sweep", {"name", "problems", "planners", "checkers", "seeds", "time_limit", "run_timeout"});
  Sweep sweep;
  sweep.file = file;
  sweep.name = in.string(in.require(root, "name", "sweep"), "name");
  const YAML::Node problems = in.require(root, "problems", "sweep");
  if (!problems.IsSequence() || problems.size() == 0)
    in.fail(problems, "expected 'problems' to be a list of problem files");
  std::vector<std::uint32_t> seeds;
  const YAML::Node seedNode = in.require(root, "seeds", "sweep");
  if (seedNode.IsSequence()) {
    for (const auto& s : seedNode)
      seeds.push_back(static_cast<std::uint32_t>(in.integer(s, "seeds", 0, std::numeric_limits<std::uint32_t>::max())));
    if (seeds.empty()) in.fail(seedNode, "expected at least one seed");
    if (std::set<std::uint32_t>(seeds.begin(), seeds.end()).size() != seeds.size())
      in.fail(seedNode, "a seed appears twice");
  } else {
    const long count = in.integer(seedNode, "seeds (a count, or a list of seeds)", 1, kMaxSweepRuns);
    for (long s = 1; s <= count; ++s) seeds.push_back(static_cast<std::uint32_t>(s));
  }
  const double timeLimit = root["time_limit"] ? in.positive(root["time_limit"], "time_limit (s)") : 10.0;
  sweep.run_timeout_s =
      root["run_timeout"] ? in.positive(root["run_timeout"], "run_timeout (s)") : defaultRunTimeout(timeLimit);
  const auto planners = entries(in, root, "planners", plannerNames());
  const auto checkers = entries(in, root, "checkers", checkerNames());
  std::set<std::string> keys;
  // One file named twice ("maze2d.yaml" and "./maze2d.yaml", or through a
  // symlink) would run every one of its runs twice under two keys.
  std::map<std::filesystem::path, YAML::Node> listed;
  for (const auto& problemNode : problems) {
    const std::string id = in.string(problemNode, "problem file");
    const std::filesystem::path problemFile = in.path(problemNode, "problem file");
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(problemFile, ec);
    if (const auto [it, added] = listed.emplace(ec ? problemFile : canonical, problemNode); !added)
      in.fail(problemNode, fmt::format("'{}' is the problem file listed as '{}' at {}", id, it->second.Scalar(),
                                       in.where(it->second)));
    for (const auto& planner : planners) {
      for (const auto& plannerPoint : planner.points) {
        for (const auto& checker : checkers) {
          // A planner that checks edges its own way does not use the strategy:
          // one entry, with discrete's static checks.
          const bool ownEdgeChecks = !plannerKind(planner.type).capabilities.checks_edges_with_checker;
          if (ownEdgeChecks && &checker != &checkers.front()) continue;
          const std::string checkerType = ownEdgeChecks ? "discrete" : checker.type;
          const std::vector<Assignments> checkerPoints = ownEdgeChecks ? std::vector<Assignments>{{}} : checker.points;
          for (const auto& checkerPoint : checkerPoints) {
            Assignments parameters = plannerPoint;
            parameters.insert(parameters.end(), checkerPoint.begin(), checkerPoint.end());
            RunSpec spec{problemFile, id, planner.type, checkerType, parameters, seeds.front(), timeLimit};
            try {
              loadProblem(problemFile, {spec.overrides(), false});
            } catch (const InputError& e) {
              throw InputError(fmt::format("{}: the run {} on {} cannot be set up: {}", in.where(checker.node),
                                           spec.combination(), id, e.what()));
            }
            for (std::uint32_t seed : seeds) {
              spec.seed = seed;
              // Two entries that give the same run would run it twice and
              // count it twice in every table.
              if (!keys.insert(spec.key()).second)
                in.fail(&checker != &checkers.front() ? checker.node : planner.node,
                        fmt::format("the run '{}' appears twice in the grid", spec.key()));
              if (sweep.runs.size() >= static_cast<std::size_t>(kMaxSweepRuns))
                in.fail(root, fmt::format("the grid has more than {} runs", kMaxSweepRuns));
              sweep.runs.push_back(spec);
            }
          }
        }
      }
    }
  }
  return sweep;
}

int runSweep(const Sweep& sweep, const SweepOptions& options, std::ostream& out) {
  const FolderLock lock(options.out, FolderLock::Wait::No);
  // Found before the runs, not after them: a folder planted where the report writes a file.
  requireOutputNames(options.out, kReportFiles, "--out");
  const auto runsFile = options.out / "runs.jsonl";
  if (options.fresh) std::filesystem::remove(runsFile);
  // Opened first: a runs file planted as a symlink is refused before it is read or run.
  const int fd = lock.openForAppend("runs.jsonl");
  struct FileCloser {
    int fd;
    ~FileCloser() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  ::fstat(fd, &info);
  std::map<std::string, std::size_t> indexOf;
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) indexOf[sweep.runs[i].key()] = i;
  std::set<std::string> done;
  if (info.st_size > 0) {
    if (!options.resume)
      throw InputError(
          fmt::format("{} already holds runs: continue it with --resume, or choose another --out", runsFile.string()));
    for (const auto& r : readRuns(runsFile, out, fd)) {
      const auto it = indexOf.find(r.spec.key());
      if (it == indexOf.end() || !options.shard.contains(it->second))
        throw InputError(fmt::format("{}: holds the run '{}', which is not in this sweep{}", runsFile.string(),
                                     r.spec.key(), options.shard.count > 1 ? " shard" : ""));
      // As merge refuses it: a run recorded twice would count twice in every table.
      if (!done.insert(r.spec.key()).second)
        throw InputError(fmt::format("{}: holds the run '{}' twice; remove one of the two records", runsFile.string(),
                                     r.spec.key()));
    }
  }
  std::vector<std::size_t> todo;
  std::size_t inShard = 0;
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) {
    if (!options.shard.contains(i)) continue;
    ++inShard;
    if (!done.contains(sweep.runs[i].key())) todo.push_back(i);
  }
  out << fmt::format(
      "sweep {}: {} runs in the grid, {} in shard {}/{}, {} already done, {} to run on {} worker process(es)\n",
      sweep.name, sweep.runs.size(), inShard, options.shard.index, options.shard.count, done.size(), todo.size(),
      options.jobs);
  out.flush();

  const auto started = Clock::now();
  std::size_t finished = 0, failed = 0;
  runOnWorkers(sweep.runs, todo, options.jobs, sweep.run_timeout_s, [&](RunRecord r) {
    // One write and an fsync per run: a kill loses at most the runs in flight.
    writeAll(fd, recordJson(r) + "\n");
    ::fsync(fd);
    ++finished;
    failed += !r.failure.empty();
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    const std::size_t left = todo.size() - finished;
    out << fmt::format("[{}/{}] {} {} seed {}: {} ({:.3f} s); {} left, about {:.0f} s to go\n", finished, todo.size(),
                       r.problem, r.spec.combination(), r.spec.seed,
                       r.failure.empty() ? r.status : "FAILED, " + r.failure, r.time_s, left,
                       elapsed / static_cast<double>(finished) * static_cast<double>(left));
    out.flush();
  });
  out << fmt::format("{} runs done in {:.1f} s ({} failed)\n", finished,
                     std::chrono::duration<double>(Clock::now() - started).count(), failed);
  auto records = readRuns(runsFile, out);
  std::sort(records.begin(), records.end(), [&](const RunRecord& a, const RunRecord& b) {
    return indexOf.at(a.spec.key()) < indexOf.at(b.spec.key());
  });
  writeReport(lock, sweep.name, records, options.plots, out, sweep.notes);
  return failed > 0 ? 1 : 0;
}

std::vector<RunRecord> readRunsFile(const std::filesystem::path& file) {
  std::ostringstream ignored;
  return readRuns(file, ignored);
}

int mergeSweep(const Sweep& sweep, const std::vector<std::filesystem::path>& folders,
               const std::filesystem::path& outDir, bool plots, std::ostream& out) {
  // Writing into an input would replace the shard being read.
  for (const auto& folder : folders)
    if (std::filesystem::weakly_canonical(folder) == std::filesystem::weakly_canonical(outDir))
      throw InputError(fmt::format("merge --out {} is one of the folders being merged: choose another output folder",
                                   outDir.string()));
  std::map<std::string, std::size_t> indexOf;
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) indexOf[sweep.runs[i].key()] = i;
  std::vector<std::optional<RunRecord>> merged(sweep.runs.size());
  std::map<std::string, std::string> source;
  std::vector<std::string> problems;
  for (const auto& folder : folders) {
    const auto file = folder / "runs.jsonl";
    if (!std::filesystem::exists(file))
      throw InputError(fmt::format("{}: no such file (not a sweep output folder)", file.string()));
    for (auto& r : readRuns(file, out)) {
      const std::string key = r.spec.key();
      const auto it = indexOf.find(key);
      if (it == indexOf.end())
        problems.push_back(fmt::format("{}: the run '{}' is not in sweep {}", file.string(), key, sweep.file.string()));
      else if (merged[it->second])
        problems.push_back(fmt::format("duplicated run '{}' (in {} and {})", key, source[key], file.string()));
      else {
        merged[it->second] = std::move(r);
        source[key] = file.string();
      }
    }
  }
  std::size_t missing = 0;
  for (std::size_t i = 0; i < merged.size(); ++i)
    if (!merged[i] && ++missing <= 5) problems.push_back(fmt::format("missing run '{}'", sweep.runs[i].key()));
  if (missing > 5) problems.push_back(fmt::format("... {} missing runs in all", missing));
  if (!problems.empty()) {
    std::string message =
        fmt::format("merge of {} folder(s) for sweep {} failed:", folders.size(), sweep.file.string());
    for (const auto& p : problems) message += "\n  " + p;
    throw InputError(message);
  }
  std::vector<RunRecord> records;
  std::string lines;
  for (auto& r : merged) {
    lines += recordJson(*r) + "\n";
    records.push_back(std::move(*r));
  }
  out << fmt::format("merged {} runs from {} folder(s): none missing, none duplicated\n", records.size(),
                     folders.size());
  const FolderLock lock(outDir, FolderLock::Wait::No);
  OutputFiles files;
  files.add("runs.jsonl", lines);
  for (const auto& written : files.commit(lock)) out << fmt::format("wrote {}\n", written.string());
  writeReport(lock, sweep.name, records, plots, out);
  return 0;
}

}  // namespace prmkit
