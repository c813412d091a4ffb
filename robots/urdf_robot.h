#pragma once
#include "robots/kinematic_chain.h"

#include <filesystem>
#include <memory>
#include <optional>

namespace prmkit {

struct RobotLoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads a URDF (revolute, continuous, prismatic and fixed joints; mesh, box,
/// cylinder and sphere collision geometry) with urdfdom, and an optional SRDF
/// whose disable_collisions pairs are honoured. Mesh paths resolve relative to
/// the URDF file, with "package://NAME/" stripped. Continuous joints get the
/// limits [-pi, pi]. Throws RobotLoadError with the file named.
std::unique_ptr<KinematicChain> loadUrdfRobot(const std::filesystem::path& urdf,
                                              const std::optional<std::filesystem::path>& srdf,
                                              const Transform& base = Transform::Identity());

/// The disable_collisions pairs of an SRDF file.
std::vector<std::pair<std::string, std::string>> readSrdfDisabledPairs(const std::filesystem::path& srdf);

}  // namespace prmkit
