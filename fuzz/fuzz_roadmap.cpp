// Roadmap files (`plan --roadmap`) and queries files (`plan --queries`) for a
// rigid body in SE(3), whose configurations carry a quaternion to canonicalize.
#include "fuzz_input.h"

#include "setup/build_problem.h"
#include "io/roadmap_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const prmkit::Problem problem = prmkit::loadProblem(PRMKIT_SOURCE_DIR "/configs/problems/thin_wall.yaml");
  const auto roadmap = prmkit::fuzz::writeFile("fuzzed.roadmap", data, size);
  // Both the kept-verdict and the checked-again paths: every other vertex "collides".
  std::size_t asked = 0;
  prmkit::fuzz::expectCleanRefusal(
      [&] { prmkit::readRoadmapFile(roadmap, problem, [&](const prmkit::Config&) { return ++asked % 2 == 0; }); });
  const auto queries = prmkit::fuzz::writeFile("queries.yaml", data, size);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::readQueries(queries, problem); });
  return 0;
}
