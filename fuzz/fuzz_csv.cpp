// Path files (`verify`) and edge files (`check --edges`) for a rigid body in
// SE(3), whose configurations carry a quaternion to canonicalize.
#include "eval/edge_check.h"
#include "fuzz_input.h"

#include "io/path_files.h"
#include "setup/build_problem.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const prmkit::Problem problem = prmkit::loadProblem(PRMKIT_SOURCE_DIR "/configs/problems/thin_wall.yaml");
  const auto file = prmkit::fuzz::writeFile("path.csv", data, size);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::readPathCsv(file, *problem.robot); });
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::readEdgesCsv(file, *problem.robot); });
  return 0;
}
