// prmkit compare, sweep and merge, through the command line and the
// prmkit binary itself, as users and schedulers run them.
#include "eval/benchmark.h"
#include "eval/sweep.h"
#include "test_support.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include <cctype>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <map>
#include <set>
#include <sys/wait.h>
#include <thread>

using namespace prmkit;
namespace fs = std::filesystem;
using test::cli;
using test::TempDir;

namespace {

const std::string kBinary = PRMKIT_BINARY;

/// Runs a shell command; returns its exit code, its output in `output`.
int shell(const std::string& command, std::string* output = nullptr) {
  const fs::path log = fs::temp_directory_path() / fmt::format("prmkit-shell-{}.log", ::getpid());
  const int status = std::system(fmt::format("{} > '{}' 2>&1", command, log.string()).c_str());
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (output) *output = text;
  fs::remove(log);
  UNSCOPED_INFO(command << "\n" << text);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<RunRecord> readRecords(const fs::path& file) {
  std::vector<RunRecord> records;
  std::ifstream in(file);
  std::size_t line = 0;
  for (std::string text; std::getline(in, text);)
    records.push_back(parseRecordJson(text, fmt::format("{}:{}", file.string(), ++line)));
  return records;
}

std::size_t lineCount(const fs::path& file) {
  std::ifstream in(file);
  std::size_t lines = 0;
  for (std::string text; std::getline(in, text);) ++lines;
  return lines;
}

/// What must not depend on how the sweep was run: the deterministic outcome of each run, by key.
std::map<std::string, std::tuple<bool, double, std::size_t, std::uint64_t>> outcomes(
    const std::vector<RunRecord>& records) {
  std::map<std::string, std::tuple<bool, double, std::size_t, std::uint64_t>> byKey;
  for (const auto& r : records) {
    REQUIRE(r.failure.empty());
    REQUIRE(byKey.emplace(r.spec.key(), std::tuple{r.solved, r.path_length, r.waypoints, r.check_stats.static_queries})
                .second);
  }
  return byKey;
}

/// 24 runs of a few hundredths of a second each: maze2d and chain5, both
/// prmkit planners, the exact and the 1% checker, three seeds.
fs::path writeSweep(const TempDir& dir, const std::string& extra = "") {
  const auto problems = test::sourceDir() / "configs" / "problems";
  return dir.write("sweep.yaml",
                   fmt::format(R"(name: test
problems: ['{}', '{}']
seeds: 3
time_limit: 30
planners: [{{type: lazy_prm}}, {{type: prm}}]
checkers: [{{type: discrete}}, {{type: adaptive}}]
{})",
                               (problems / "maze2d.yaml").string(), (problems / "chain5.yaml").string(), extra));
}

}  // namespace

TEST_CASE("sweep: killed with SIGKILL mid-run and resumed, exactly one row per grid point, as uninterrupted",
          "[sweep][slow]") {
  TempDir dir;
  const fs::path sweep = writeSweep(dir);
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --jobs 2 --no-plots --out '{}'", kBinary, sweep.string(),
                            (dir.path / "whole").string())) == 0);
  const auto whole = readRecords(dir.path / "whole" / "runs.jsonl");
  REQUIRE(whole.size() == 24);

  const fs::path interrupted = dir.path / "interrupted";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    const std::string out = interrupted.string();
    ::execl(kBinary.c_str(), kBinary.c_str(), "sweep", sweep.c_str(), "--jobs", "2", "--no-plots", "--out", out.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  std::size_t linesAtKill = 0;
  for (int wait = 0; wait < 6000 && linesAtKill < 3; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    linesAtKill = lineCount(interrupted / "runs.jsonl");
  }
  ::kill(-pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  INFO("rows when killed: " << linesAtKill);
  REQUIRE(linesAtKill >= 3);
  REQUIRE(lineCount(interrupted / "runs.jsonl") < 24);

  std::string output;
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --jobs 2 --no-plots --resume --out '{}'", kBinary, sweep.string(),
                            interrupted.string()),
                &output) == 0);
  REQUIRE(output.find("already done") != std::string::npos);
  const auto resumed = readRecords(interrupted / "runs.jsonl");
  REQUIRE(resumed.size() == 24);
  REQUIRE(outcomes(resumed) == outcomes(whole));
  // Resuming a finished sweep runs nothing and adds no row.
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --no-plots --resume --out '{}'", kBinary, sweep.string(),
                            interrupted.string())) == 0);
  REQUIRE(lineCount(interrupted / "runs.jsonl") == 24);
  // Without --resume an existing result file is not touched.
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --no-plots --out '{}'", kBinary, sweep.string(), interrupted.string()),
                &output) == 2);
  REQUIRE(output.find("--resume") != std::string::npos);
}

TEST_CASE("sweep: shards 1/3, 2/3, 3/3 run by GNU parallel and merged equal the unsharded sweep", "[sweep][slow]") {
  TempDir dir;
  const fs::path sweep = writeSweep(dir);
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --jobs 2 --no-plots --out '{}'", kBinary, sweep.string(),
                            (dir.path / "whole").string())) == 0);
  // The README's recipe, run locally.
  REQUIRE(shell(fmt::format(
              "parallel --will-cite --jobs 2 '{}' sweep '{}' --no-plots --shard {{}}/3 --out '{}/shard{{}}' ::: 1 2 3",
              kBinary, sweep.string(), dir.path.string())) == 0);
  std::size_t sharded = 0;
  for (int i = 1; i <= 3; ++i) sharded += lineCount(dir.path / fmt::format("shard{}", i) / "runs.jsonl");
  REQUIRE(sharded == 24);
  const auto shard = [&](int i) { return (dir.path / fmt::format("shard{}", i)).string(); };
  REQUIRE(shell(fmt::format("'{}' merge '{}' '{}' '{}' '{}' --no-plots --out '{}'", kBinary, sweep.string(), shard(1),
                            shard(2), shard(3), (dir.path / "merged").string())) == 0);
  REQUIRE(outcomes(readRecords(dir.path / "merged" / "runs.jsonl")) ==
          outcomes(readRecords(dir.path / "whole" / "runs.jsonl")));
  std::string output;
  REQUIRE(shell(fmt::format("'{}' merge '{}' '{}' '{}' --no-plots --out '{}'", kBinary, sweep.string(), shard(1),
                            shard(2), (dir.path / "partial").string()),
                &output) == 2);
  REQUIRE(output.find("missing run") != std::string::npos);
  REQUIRE_FALSE(fs::exists(dir.path / "partial" / "runs.jsonl"));
  REQUIRE(shell(fmt::format("'{}' merge '{}' '{}' '{}' '{}' '{}' --no-plots --out '{}'", kBinary, sweep.string(),
                            shard(1), shard(2), shard(3), shard(3), (dir.path / "twice").string()),
                &output) == 2);
  REQUIRE(output.find("duplicated run") != std::string::npos);
}

TEST_CASE("sweep: a run that crashes or hangs is recorded as failed and the sweep goes on", "[sweep][slow]") {
  TempDir dir;
  // Six short runs: the healthy ones end well within run_timeout, even under sanitizers.
  const fs::path sweep = dir.write("sweep.yaml", fmt::format(R"(name: faults
problems: ['{}']
seeds: 3
time_limit: 30
run_timeout: 60
planners: [{{type: lazy_prm}}]
checkers: [{{type: discrete}}, {{type: adaptive}}]
)",
                                                             test::problemFile("chain5").string()));
  // One job: a worker takes three runs, and the crash in its second sends its third to the next worker.
  for (const auto& [fault, jobs] : {std::pair<std::string, int>{"crash", 2}, {"hang", 2}, {"crash", 1}}) {
    const fs::path out = dir.path / fmt::format("{}{}", fault, jobs);
    std::string output;
    // Sanitizers must let the signal through, as a crash in a plain build would.
    REQUIRE(shell(fmt::format("ASAN_OPTIONS=detect_leaks=1:handle_segv=0 PRMKIT_SWEEP_FAULT={}:2 '{}' sweep '{}' "
                              "--jobs {} --no-plots --out '{}'",
                              fault, kBinary, sweep.string(), jobs, out.string()),
                  &output) == 1);
    const auto records = readRecords(out / "runs.jsonl");
    REQUIRE(records.size() == 6);
    for (const auto& r : records) {
      INFO(r.spec.key() << ": " << r.failure);
      if (r.spec.seed == 2) {
        REQUIRE(r.status == "failed");
        REQUIRE(r.failure.find(fault == "crash" ? "crashed: signal 11" : "hung: killed after") != std::string::npos);
      } else {
        REQUIRE(r.failure.empty());
        REQUIRE(r.solved);
      }
    }
    // Failed runs are reported in the summary, not dropped.
    std::ifstream summary(out / "summary.md");
    const std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
    REQUIRE(text.find("| 3 | 67% |") != std::string::npos);
  }
}

TEST_CASE("sweep: OMPL benchmark logs load in ompl_benchmark_statistics", "[sweep]") {
  TempDir dir;
  const fs::path sweep = writeSweep(dir);
  const fs::path out = dir.path / "out";
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --jobs 2 --no-plots --out '{}'", kBinary, sweep.string(), out.string())) ==
          0);
  const fs::path db = dir.path / "benchmark.db";
  REQUIRE(shell(fmt::format("cd '{}' && ompl_benchmark_statistics ompl/maze2d.log ompl/chain5.log -d '{}'",
                            out.string(), db.string())) == 0);
  std::string answer;
  REQUIRE(shell(fmt::format("sqlite3 '{}' 'SELECT COUNT(*) FROM experiments; SELECT COUNT(*) FROM plannerConfigs; "
                            "SELECT COUNT(*) FROM runs; SELECT SUM(solved), COUNT(time) FROM runs; "
                            "SELECT COUNT(*) FROM runs WHERE static_queries > 0;'",
                            db.string()),
                &answer) == 0);
  // 2 experiments (problems), 4 combinations, 24 runs, all solved with a time and counted static checks.
  REQUIRE(answer == "2\n4\n24\n24|24\n24\n");
}

TEST_CASE("compare: same seeds for every combination, table, CSV, OMPL log, plots and report, bad lists exit 2",
          "[sweep]") {
  TempDir dir;
  // A quote in --out must not reach a shell: the plot script runs with an argument vector.
  const fs::path out = dir.path / "compare ';touch prmkit-injected;'";
  fs::remove("prmkit-injected");
  // A plot an earlier run left for another problem stays out of this report.
  fs::create_directories(out);
  std::ofstream(out / "plot_other_problem.svg") << "<svg>stale plot</svg>";
  const auto run =
      cli({"compare", test::problemFile("chain5").string(), "--checkers", "discrete,adaptive", "--planners",
           "lazy_prm,ompl_prm,ompl_fcl_default", "--runs", "2", "--jobs", "2", "--out", out.string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  const auto records = readRecords(out / "runs.jsonl");
  // 2 planners x 2 checkers + ompl_fcl_default once, 2 seeds each.
  REQUIRE(records.size() == 10);
  std::map<std::string, std::set<std::uint32_t>> seeds;
  for (const auto& r : records) {
    seeds[r.spec.combination()].insert(r.spec.seed);
    REQUIRE(r.failure.empty());
    if (r.spec.checker == "adaptive" && r.spec.planner != "ompl_fcl_default") REQUIRE_FALSE(r.unsafe);
    REQUIRE(r.unsafe == (r.solved && !r.verify_message.empty()));
  }
  REQUIRE(seeds.size() == 5);
  for (const auto& [combination, used] : seeds) REQUIRE(used == std::set<std::uint32_t>{1, 2});
  REQUIRE(lineCount(out / "runs.csv") == 11);
  REQUIRE(fs::exists(out / "summary.md"));
  REQUIRE(fs::exists(out / "ompl" / "chain5.log"));
  REQUIRE(fs::file_size(out / "plot_chain5.png") > 1000);
  REQUIRE(fs::exists(out / "plot_chain5.svg"));
  // The plots are readable by others as every other output is (0644, not mkstemp's 0600).
  for (const char* file : {"plot_chain5.png", "plot_chain5.svg", "summary.md"}) {
    INFO(file);
    CHECK((fs::status(out / file).permissions() & fs::perms::others_read) != fs::perms::none);
  }
  // report.html: every combination's row and this run's plots, inline.
  const std::string report = test::readText(out / "report.html");
  for (const auto& [combination, used] : seeds)
    CHECK(report.find(fmt::format("<td>{}</td>", combination)) != std::string::npos);
  CHECK(report.find("<svg") != std::string::npos);
  CHECK(report.find("chain5: time per run") != std::string::npos);
  CHECK(report.find("stale plot") == std::string::npos);
  REQUIRE_FALSE(fs::exists("prmkit-injected"));

  const fs::path bad = dir.path / "bad";
  const auto unknown =
      cli({"compare", test::problemFile("maze2d").string(), "--checkers", "discrete,exactish", "--out", bad.string()});
  REQUIRE(unknown.code == 2);
  REQUIRE(unknown.err.find("unknown name 'exactish'") != std::string::npos);
  REQUIRE_FALSE(fs::exists(bad));
}

TEST_CASE("sweep: bad sweep files and shards exit 2 with file:line:column", "[sweep]") {
  TempDir dir;
  const fs::path sweep = writeSweep(dir, "");
  const std::string text = [&] {
    std::ifstream in(sweep);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }();
  const auto badGrid = dir.write("bad_grid.yaml", text + "# end\n");
  {
    std::ofstream(badGrid) << test::replaceOnce(text, "{type: adaptive}", "{type: adaptive, grid: {etaa: [0.1]}}");
    const auto run = cli({"sweep", badGrid.string(), "--out", (dir.path / "o1").string()});
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find("bad_grid.yaml:6:") != std::string::npos);
    REQUIRE(run.err.find("etaa") != std::string::npos);
  }
  {
    const auto run = cli({"sweep", sweep.string(), "--shard", "4/3", "--out", (dir.path / "o2").string()});
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find("1 <= i <= N") != std::string::npos);
  }
  {
    std::ofstream(badGrid) << test::replaceOnce(text, "seeds: 3", "seeds: three");
    const auto run = cli({"sweep", badGrid.string(), "--out", (dir.path / "o3").string()});
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find("bad_grid.yaml:3:") != std::string::npos);
  }
  {
    std::ofstream(badGrid) << test::replaceOnce(text, "planners: [{type: lazy_prm}, {type: prm}]",
                                                "planners: [{type: lazy_prm}, {type: lazy_prm}]");
    const auto run = cli({"sweep", badGrid.string(), "--out", (dir.path / "o4").string()});
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find("bad_grid.yaml:5:") != std::string::npos);
    REQUIRE(run.err.find("appears twice in the grid") != std::string::npos);
    REQUIRE_FALSE(fs::exists(dir.path / "o4"));
  }
  // A seed count past the grid's bound ran out of memory listing the grid;
  // a listed seed past 32 bits wrapped to another seed.
  for (const auto& [seeds, expected] : std::vector<std::pair<std::string, std::string>>{
           {"seeds: 1000000000", "bad_grid.yaml:3:8: expected an integer <= 1000000 for 'seeds"},
           {"seeds: [1, 4294967297]", "bad_grid.yaml:3:12: expected an integer <= 4294967295 for 'seeds'"}}) {
    std::ofstream(badGrid) << test::replaceOnce(text, "seeds: 3", seeds);
    const auto run = cli({"sweep", badGrid.string(), "--out", (dir.path / "o5").string()});
    INFO(run.err);
    REQUIRE(run.code == 2);
    REQUIRE(run.err.find(expected) != std::string::npos);
    REQUIRE_FALSE(fs::exists(dir.path / "o5"));
  }
  REQUIRE_FALSE(fs::exists(dir.path / "o1"));
}

TEST_CASE("sweep: one writer per output folder, merge never writes into a shard", "[sweep]") {
  TempDir dir;
  const fs::path sweep = writeSweep(dir, "");
  const fs::path out = dir.path / "out";
  fs::create_directories(out);
  {
    // Another process's sweep holds the folder: this one stops before running anything.
    const int fd = ::open((out / ".prmkit.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    const auto held = cli({"sweep", sweep.string(), "--out", out.string(), "--no-plots"});
    ::close(fd);
    REQUIRE(held.code == 2);
    REQUIRE(held.err.find("another prmkit sweep or merge is writing to this folder") != std::string::npos);
    REQUIRE_FALSE(fs::exists(out / "runs.jsonl"));
  }
  const fs::path shard = dir.path / "shard";
  fs::create_directories(shard);
  std::ofstream(shard / "runs.jsonl") << "";
  const auto into = cli({"merge", sweep.string(), shard.string(), "--out", (dir.path / "shard" / ".").string()});
  REQUIRE(into.code == 2);
  REQUIRE(into.err.find("is one of the folders being merged") != std::string::npos);
}

TEST_CASE("sweep: every shipped sweep file loads, with the grid its comment states", "[sweep]") {
  // loadSweep loads every (problem, combination), so a key or value a shipped
  // grid misspells fails here rather than on a user's machine.
  std::map<std::string, std::size_t> runs;
  for (const auto& entry : fs::directory_iterator(test::sourceDir() / "configs" / "sweeps")) {
    INFO(entry.path());
    const Sweep sweep = loadSweep(entry.path());
    REQUIRE_FALSE(sweep.runs.empty());
    runs[entry.path().stem().string()] = sweep.runs.size();
  }
  REQUIRE(runs.at("narrow_passages") == 4 * 6 * 20);
  REQUIRE(runs.at("narrow_passages_default") == 4 * 2 * 20);
  REQUIRE(runs.at("twisted_slot_path_check") == 7 * 10);
  REQUIRE(runs.at("race") == 4 * 2 * 3);
}

TEST_CASE("sweep: a run's race is in its record, and reads back as written", "[sweep]") {
  RunSpec spec;
  spec.problem_file = test::problemFile("maze2d");
  spec.problem_id = "maze2d";
  spec.planner = "lazy_prm";
  spec.checker = "adaptive";
  spec.parameters = {{"planner.threads", "2"}, {"planner.race_after", "0"}};
  const RunRecord record = runPlanning(spec);
  REQUIRE(record.solved);
  REQUIRE(record.race.size() == 2);
  REQUIRE(record.race[1].started);
  REQUIRE(record.race[0].won != record.race[1].won);
  const RunRecord back = parseRecordJson(recordJson(record), "record");
  REQUIRE(back.race.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    REQUIRE(back.race[i].planner == record.race[i].planner);
    REQUIRE(back.race[i].won == record.race[i].won);
    REQUIRE(back.race[i].start_work == record.race[i].start_work);
    REQUIRE(back.race[i].work == record.race[i].work);
    REQUIRE(back.race[i].samples_drawn == record.race[i].samples_drawn);
  }
  // One thread (a sweep's default) never races.
  spec.parameters = {{"planner.race_after", "0"}};
  REQUIRE(runPlanning(spec).race.empty());
}

TEST_CASE("sweep: the shipped Slurm scripts on a real single-node Slurm, a task killed and resubmitted, then merged",
          "[sweep][slurm]") {
  TempDir dir;
  // Four seeds: 32 runs, about 11 a shard, so that task 2 is still running when the test kills it.
  const fs::path sweep = writeSweep(dir, "");
  const std::string text = test::readText(sweep);
  const fs::path bigger = dir.write("sweep4.yaml", test::replaceOnce(text, "seeds: 3", "seeds: 4"));
  REQUIRE(shell(fmt::format("'{}' sweep '{}' --jobs 2 --no-plots --out '{}'", kBinary, bigger.string(),
                            (dir.path / "whole").string())) == 0);
  const auto whole = readRecords(dir.path / "whole" / "runs.jsonl");
  REQUIRE(whole.size() == 32);

  // Debian's munged, slurmctld and slurmd on localhost, stopped whatever happens.
  const fs::path cluster = dir.path / "cluster";
  const std::string script = (test::sourceDir() / "scripts" / "slurm-local.sh").string();
  REQUIRE(shell(fmt::format("'{}' start '{}'", script, cluster.string())) == 0);
  struct Stop {
    std::string command;
    ~Stop() { std::system(command.c_str()); }
  } stopCluster{fmt::format("'{}' stop '{}' >/dev/null 2>&1", script, cluster.string())};
  // The commands docs/commands.md gives, with the binary under test as `prmkit`.
  const fs::path scripts = test::sourceDir() / "scripts" / "slurm";
  const fs::path out = dir.path / "cluster-out";
  const std::string env = fmt::format("SLURM_CONF='{}/slurm.conf' PRMKIT='{}' ", cluster.string(), kBinary);
  // sbatch runs the scripts with /bin/sh, dash on Debian: no brace expansion there.
  std::string shellName;
  shell("readlink -f /bin/sh", &shellName);
  INFO("/bin/sh is " << shellName);
  std::string ids;
  REQUIRE(shell(env + fmt::format("'{}/submit-sweep.sh' '{}' '{}' 3", scripts.string(), bigger.string(), out.string()),
                &ids) == 0);
  std::string array, merge;
  {
    std::istringstream lines(ids);
    for (std::string word, id; lines >> word >> id;) (word == "array" ? array : merge) = id;
  }
  REQUIRE(!array.empty());
  REQUIRE(!merge.empty());
  auto queued = [&] {
    std::string listing;
    REQUIRE(shell(env + "squeue -h -o %i", &listing) == 0);
    return listing;
  };
  // Kill task 2 once it has recorded a run: it stops part-way through its shard.
  const fs::path shard2 = out / "shard-2" / "runs.jsonl";
  const auto waitStarted = std::chrono::steady_clock::now();
  for (int i = 0; i < 60000 && !(fs::exists(shard2) && lineCount(shard2) >= 1); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  INFO("waited " << std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStarted).count()
                 << " s for task 2's first run");
  REQUIRE(lineCount(shard2) >= 1);
  REQUIRE(shell(env + fmt::format("scancel --signal=KILL --full {}_2", array)) == 0);
  for (int i = 0; i < 60000 && queued().find(array + "_2") != std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const std::size_t atKill = lineCount(shard2);
  // As the scripts' comments say: the merge waiting on the array can no
  // longer run; the task resubmitted alone resumes, and a merge follows it.
  REQUIRE(shell(env + fmt::format("scancel {}", merge)) == 0);
  const std::string vars = env + fmt::format("SWEEP='{}' OUT='{}' SHARDS=3 ", bigger.string(), out.string());
  std::string again;
  REQUIRE(shell(vars + fmt::format("sbatch --parsable --array=2 --output='{}/task-%A_%a.out' '{}/sweep.sbatch'",
                                   out.string(), scripts.string()),
                &again) == 0);
  again = again.substr(0, again.find_first_of(";\n"));
  REQUIRE(shell(vars + fmt::format("sbatch --parsable --dependency=afterok:{} --output='{}/merge-%j.out' "
                                   "'{}/merge.sbatch'",
                                   again, out.string(), scripts.string())) == 0);
  for (int i = 0; i < 60000 && !queued().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(queued().empty());

  std::size_t sharded = 0;
  for (int i = 1; i <= 3; ++i) sharded += lineCount(out / fmt::format("shard-{}", i) / "runs.jsonl");
  REQUIRE(sharded == 32);
  // The kill came part-way: the resubmitted task had runs left to do.
  INFO("runs recorded by task 2 when it was killed: " << atKill);
  REQUIRE(atKill < lineCount(shard2));
  // The merge job ran under /bin/sh and merged every shard: the same outcomes as one process.
  REQUIRE(fs::exists(out / "all" / "runs.jsonl"));
  REQUIRE(outcomes(readRecords(out / "all" / "runs.jsonl")) == outcomes(whole));
}
