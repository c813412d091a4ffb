// OMPL's planners by name and their parameters (`planner.parameters`): the
// first byte picks the planner, each following line is one NAME=VALUE. The
// names and values are checked before the planner is built (an unknown
// name, a value OMPL refuses or one outside OMPL's range suggestion is bad
// input); what passes plans a small problem under a short time limit and
// must end within it: a crash inside OMPL, or a run past its limit, is a
// finding. The problem is the shipped maze2d.
#include "registry/checker_registry.h"
#include "fuzz_input.h"
#include "setup/build_problem.h"
#include "registry/planner_registry.h"

#include <chrono>
#include <sstream>

namespace {

/// The time limit of each run (s), and how far past it a run may end.
constexpr double kLimit = 0.2, kGrace = 2.0;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> planners = [] {
    std::vector<std::string> names;
    for (const std::string& name : prmkit::plannerNames())
      if (name.rfind("ompl:", 0) == 0) names.push_back(name);
    return names;
  }();
  // A shipped problem most planners solve in milliseconds.
  static const std::filesystem::path file = std::filesystem::path(PRMKIT_SOURCE_DIR) / "configs/problems/maze2d.yaml";
  if (size < 1 || planners.empty()) return 0;
  std::vector<std::string> overrides{"planner.type=" + planners[data[0] % planners.size()],
                                     "limits.time=" + std::to_string(kLimit), "planner.threads=1"};
  // Optimizing planners run to their limit unless they stop at their first path: both, by the first byte's top bit.
  if (!(data[0] & 0x80)) overrides.push_back("planner.first_solution=true");
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  for (std::string line; std::getline(lines, line) && overrides.size() < 12;)
    if (line.find('=') != std::string::npos) overrides.push_back("planner.parameters." + line);
  prmkit::fuzz::expectCleanRefusal([&] {
    prmkit::Problem problem = prmkit::loadProblem(file, {overrides, true});
    auto checker = prmkit::makeChecker(problem.checker, problem.robot, problem.scene);
    auto planner = prmkit::makePlanner(problem.planner);
    const auto started = std::chrono::steady_clock::now();
    planner->solve(*checker, problem.start, problem.goal);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (seconds > kLimit + kGrace) {
      std::fprintf(stderr, "the run ended %.2f s after its %.2f s limit\n", seconds - kLimit, kLimit);
      std::abort();
    }
  });
  return 0;
}
