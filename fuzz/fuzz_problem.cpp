// prmkit problem files (docs/problem-format.md): the YAML reader, robots,
// scenes, generators and the planner and checker settings.
#include "fuzz_input.h"
#include "setup/build_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = prmkit::fuzz::writeFile("problem.yaml", data, size);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::loadProblem(file); });
  return 0;
}
