// MoveIt / MotionBenchMaker planning scenes: a fixed request for the shipped
// arm6 robot beside the fuzzed scene, so that the scene reader is reached.
#include "fuzz_input.h"
#include "setup/build_problem.h"

namespace {
const char* const kSrdf =
    R"(<robot name="arm6"><group name="arm"><chain base_link="base_link" tip_link="tool"/></group></robot>)";
const char* const kRequest = R"(group_name: arm
start_state:
  joint_state:
    name: [joint1, joint2, joint3, joint4, joint5, joint6]
    position: [0, 0, 0, 0, 0, 0]
goal_constraints:
  - joint_constraints:
      - {joint_name: joint1, position: 0.5}
)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto request = prmkit::fuzz::writeFile("request0001.yaml", kRequest);
  prmkit::fuzz::writeFile("scene0001.yaml", data, size);
  const auto srdf = prmkit::fuzz::writeFile("arm6.srdf", kSrdf);
  prmkit::fuzz::expectCleanRefusal([&] {
    prmkit::loadProblem(
        request, {{"robot.file=" PRMKIT_SOURCE_DIR "/configs/robots/arm6.urdf", "robot.srdf=" + srdf.string()}, true});
  });
  return 0;
}
