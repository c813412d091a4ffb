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

/// The disable_collisions pairs of an SRDF file.
std::vector<std::pair<std::string, std::string>> readSrdfDisabledPairs(const std::filesystem::path& srdf);

/// Most joint names the subgroups of one planning group may contribute in
/// all (each group is expanded once; this bounds copying its joints into
/// every group that names it).
inline constexpr std::size_t kMaxSrdfGroupEntries = 10'000'000;

/// Names of the joints of an SRDF planning group, as MoveIt defines them:
/// <chain> gives the parent joints of every link from base_link to tip_link
/// (tip included, base's parent joint included when the URDF has it),
/// <joint> a joint, <link> the link's parent joint, <group> a subgroup.
/// `parentJoint` maps a link to its parent joint and that joint's parent link.
std::vector<std::string> readSrdfGroupJoints(
    const std::filesystem::path& srdf, const std::string& group,
    const std::map<std::string, std::pair<std::string, std::string>>& parentJoint);

}  // namespace prmkit
