// URDF robots (urdfdom, then prmkit's tree walk and meshes) and SRDF files
// (tinyxml2: disabled pairs and planning groups), on the same XML input.
#include "fuzz_input.h"
#include "io/srdf_reader.h"
#include "io/urdf_robot.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto urdf = prmkit::fuzz::writeFile("robot.urdf", data, size);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::loadUrdfRobot(urdf); });
  const auto srdf = prmkit::fuzz::writeFile("robot.srdf", data, size);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::readSrdfDisabledPairs(srdf); });
  return 0;
}
