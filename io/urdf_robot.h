#pragma once
#include "base/input_file.h"
#include "robots/kinematic_chain.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

namespace prmkit {

struct RobotLoadError : InvalidInput {
  using InvalidInput::InvalidInput;
};

struct UrdfOptions {
  std::optional<std::filesystem::path> srdf;
  Transform base = Transform::Identity();
  /// SRDF planning group (MoveIt semantics: chains, joints, links, subgroups).
  /// Empty: every revolute, continuous and prismatic joint is planned for.
  std::string group;
  /// Values of joints outside the planning group (rad or m); a joint not
  /// given here stays at 0, or at its nearest limit when 0 is outside them.
  std::map<std::string, double> locked_values;
  /// More link pairs never checked against each other (e.g. a MoveIt scene's allowed collision matrix).
  std::vector<std::pair<std::string, std::string>> allowed_pairs;
};

/// Reads a URDF (revolute, continuous, prismatic and fixed joints; mesh, box,
/// cylinder and sphere collision geometry) with urdfdom, and an optional SRDF
/// whose disable_collisions pairs are honoured. Mesh paths resolve relative to
/// the URDF file, with "package://NAME/" stripped. Continuous joints get the
/// limits [-pi, pi]. Joints outside the planning group become fixed joints at
/// their locked value; a mimic joint must be outside the group (it follows its
/// master's locked value). Throws RobotLoadError with the file named.
std::unique_ptr<KinematicChain> loadUrdfRobot(const std::filesystem::path& urdf, const UrdfOptions& options = {});

/// A URDF's or SRDF's whole text, bounded (base/input_file.h), or RobotLoadError.
std::string readRobotDescription(const std::filesystem::path& file, const std::string& what);

}  // namespace prmkit
