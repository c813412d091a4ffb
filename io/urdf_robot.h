#pragma once
#include "base/input_file.h"
#include "robots/kinematic_chain.h"

#include <filesystem>
#include <tinyxml2.h>
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
  /// A spherized URDF of the same robot (VAMP's, MotionBenchMaker's Panda):
  /// each link's collision spheres, by link name, become its Link::spheres;
  /// its joints and other geometry are not read.
  std::optional<std::filesystem::path> spheres;
};

/// Reads a URDF (revolute, continuous, prismatic and fixed joints; mesh, box,
/// cylinder and sphere collision geometry) with urdfdom, and an optional SRDF
/// whose disable_collisions pairs are honoured. Mesh paths resolve relative to
/// the URDF file, with "package://NAME/" stripped. Continuous joints get the
/// limits [-pi, pi]. Joints outside the planning group become fixed joints at
/// their locked value; a mimic joint must be outside the group (it follows its
/// master's locked value). Throws RobotLoadError with the file named.
std::unique_ptr<KinematicChain> loadUrdfRobot(const std::filesystem::path& urdf, const UrdfOptions& options = {});

/// The URDF (UTF-8) as urdfdom will read it: parsed by tinyxml2 into `doc`
/// (line numbers in errors) and printed back, so that urdfdom's parser,
/// TinyXML 2.6, sees only well-formed UTF-8 XML whose only entities are the
/// five predefined ones (fuzzing found it reading past the end of its buffer
/// on malformed input). Throws RobotLoadError with file:line.
std::string normalizedUrdf(const std::string& text, tinyxml2::XMLDocument& doc, const std::filesystem::path& urdf);

/// A URDF's or SRDF's whole text, bounded (base/input_file.h), or RobotLoadError.
std::string readRobotDescription(const std::filesystem::path& file, const std::string& what);

}  // namespace prmkit
