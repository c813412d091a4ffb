#pragma once
#include "app/cli.h"
#include "planner/planner.h"
#include "setup/build_problem.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <fstream>
#include <sstream>
#include <vector>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace prmkit::test {

inline std::filesystem::path sourceDir() { return PRMKIT_SOURCE_DIR; }
/// The run's node source of that name (its nodes, draws and checks), or
/// nullptr when the run had none.
inline const NodeSourceStats* nodeSource(const PlanResult& result, const std::string& name) {
  const auto found = std::find_if(result.node_sources.begin(), result.node_sources.end(),
                                  [&name](const NodeSourceStats& s) { return s.source == name; });
  return found == result.node_sources.end() ? nullptr : &*found;
}
inline std::filesystem::path problemFile(const std::string& name) {
  return sourceDir() / "configs" / "problems" / (name + ".yaml");
}
/// Every shipped problem (configs/problems/*.yaml), by name, sorted: the
/// one list the tests that say "every shipped problem" run.
inline std::vector<std::string> shippedProblems() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(sourceDir() / "configs" / "problems"))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}
/// The shipped problems a planner needs seconds to minutes for (narrow
/// passages, thousands of obstacles, tight springs): left out of the tests
/// that plan "the shipped problems that plan in milliseconds" (the puzzle,
/// sampling and broad-phase tests plan most of them with their own seeds and
/// limits; every one is in the conformance suite).
inline bool takesLongToPlan(const std::string& name) {
  for (const char* puzzle :
       {"alpha_puzzle", "alpha_puzzle_tight", "alpha_tube", "bug_trap3d", "bug_trap_baffle", "bug_trap_flared", "house",
        "lin_li_springs", "maze_corridor", "twisted_slot", "boxes3000"})
    if (name == puzzle) return true;
  return false;
}
/// Scales iteration counts down under sanitizers (PRMKIT_TEST_SCALE, default 1).
inline int scaled(int n) {
  const char* s = std::getenv("PRMKIT_TEST_SCALE");
  const double scale = s ? std::atof(s) : 1.0;
  return std::max(1, static_cast<int>(n * (scale > 0 ? scale : 1.0)));
}

/// A shipped problem for a test that plans with prmkit's own planners. Their
/// runs are fixed by the seed and the sample limit; the wall-clock limit is
/// lifted so that a loaded CI machine cannot turn a solvable seed into a
/// failure (tests assert properties, never speed).
inline Problem loadForPlanning(const std::string& name, const std::vector<std::string>& overrides = {}) {
  // A copy with the limit first (a later --set of the caller's still wins):
  // push_back of a literal here trips GCC 12's -Warray-bounds false positive.
  std::vector<std::string> all{"limits.time=3600"};
  all.insert(all.end(), overrides.begin(), overrides.end());
  return loadProblem(problemFile(name), {std::move(all), true});
}

/// A whole text file.
inline std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs args[0] (a full path) with the arguments, no shell; returns its exit
/// code and its standard output (and error, with `withErrors`), written to `outputFile`.
inline std::pair<int, std::string> run(const std::vector<std::string>& args, const std::filesystem::path& outputFile,
                                       bool withErrors = false) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (withErrors)
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  else
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return {-1, ""};
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readText(outputFile)};
}

struct Run {
  int code;
  std::string out, err;
};

inline Run cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = runCli(args, out, err);
  return {code, out.str(), err.str()};
}

/// prmkit's roadmap planners as the planning tests run them: prm, lazy_prm
/// and the test folder's own registered planner (tests/test_strategies.h).
inline const std::vector<std::string> kRoadmapPlanners{"prm", "lazy_prm", "sequential_prm"};

/// A small valid rigid2d problem that plans in milliseconds.
inline const std::string kTinyProblem = R"(name: tiny
robot:
  type: rigid2d
  geometry: {box: [0.2, 0.2, 0.1]}
bounds: {lower: [0, 0], upper: [4, 4]}
scene:
  obstacles:
    - {name: block, box: [1, 1, 0.1], pose: {xyz: [2, 2, 0]}}
start: [0.5, 0.5, 0]
goal: [3.5, 3.5, 0]
limits: {time: 5}
)";

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           std::filesystem::path("prmkit-test-" + std::to_string(::getpid()) + "-" +
                                 std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

/// The mesh as an ASCII STL file: every triangle with its normal and its own
/// three corners, as STL stores them (a closed mesh arrives as a triangle soup).
inline std::string asciiStl(const Mesh& mesh) {
  std::ostringstream out;
  out.precision(17);
  out << "solid soup\n";
  for (const auto& t : mesh.triangles) {
    auto corner = [&](int k) { return mesh.vertices[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])]; };
    const Eigen::Vector3d normal = (corner(1) - corner(0)).cross(corner(2) - corner(0)).normalized();
    out << "facet normal " << normal.x() << ' ' << normal.y() << ' ' << normal.z() << "\nouter loop\n";
    for (const int v : t) {
      const Eigen::Vector3d& p = mesh.vertices[static_cast<std::size_t>(v)];
      out << "vertex " << p.x() << ' ' << p.y() << ' ' << p.z() << '\n';
    }
    out << "endloop\nendfacet\n";
  }
  out << "endsolid soup\n";
  return out.str();
}

/// `text` with the first `from` replaced by `to` (which must be there).
inline std::string replaceOnce(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("replaceOnce: '" + from + "' not found");
  return text.replace(at, from.size(), to);
}

/// ../shared/benchdata (third-party data beside the checkout; PRMKIT_BENCHDATA overrides), if present.
inline std::optional<std::filesystem::path> benchdata() {
  const char* env = std::getenv("PRMKIT_BENCHDATA");
  const std::filesystem::path dir = env ? std::filesystem::path(env) : sourceDir() / ".." / "shared" / "benchdata";
  if (std::filesystem::is_directory(dir)) return std::filesystem::canonical(dir);
  return std::nullopt;
}

/// Skips the calling test when benchdata is absent: under CTest (which sets
/// PRMKIT_UNDER_CTEST) the test process exits with 77, CTest's SKIP_RETURN_CODE,
/// so it is reported as skipped rather than passed; run by hand, it warns and returns.
#define PRMKIT_REQUIRE_BENCHDATA(dir)                                                                  \
  const auto dir##_found = ::prmkit::test::benchdata();                                                \
  if (!dir##_found) {                                                                                  \
    const char* message = "SKIPPED: ../shared/benchdata is absent (set PRMKIT_BENCHDATA to its path)"; \
    if (std::getenv("PRMKIT_UNDER_CTEST")) {                                                           \
      std::puts(message);                                                                              \
      std::exit(77);                                                                                   \
    }                                                                                                  \
    WARN(message);                                                                                     \
    return;                                                                                            \
  }                                                                                                    \
  const std::filesystem::path dir = *dir##_found

}  // namespace prmkit::test
