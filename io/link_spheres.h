#pragma once
// The spheres of a spherized URDF (VAMP's, MotionBenchMaker's Panda), read
// per link of a robot already described (io/urdf_robot.h): they stand for
// its links in the `spheres` strategy.
#include "robots/kinematic_chain.h"

#include <filesystem>
#include <utility>
#include <vector>

namespace prmkit {

/// The collision spheres of the URDF `file` per frame of `frames`, by link
/// name (links the robot lacks are not read): every collision element of a
/// link read must be a sphere (centre: its origin; at most
/// kMaxSpheresPerBody). Throws RobotLoadError naming the file.
std::vector<std::pair<int, std::vector<Sphere>>> readLinkSpheres(const std::filesystem::path& file,
                                                                 const std::vector<Frame>& frames);

}  // namespace prmkit
