// OMPL.app .cfg problem files (sections, keys, start and goal, mesh paths).
#include "fuzz_input.h"
#include "setup/build_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = prmkit::fuzz::writeFile("problem.cfg", data, size);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::loadProblem(file); });
  return 0;
}
