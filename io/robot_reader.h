#pragma once
// The `robot` key of a problem (docs/problem-format.md), read in two steps:
// the description, every key and number checked with no mesh or URDF read,
// then the robot built from it, so that a problem is checked whole before
// any of its geometry costs anything.
#include "io/geometry_reader.h"
#include "io/moveit_problem.h"
#include "io/urdf_robot.h"
#include "robots/planar_chain.h"

#include <filesystem>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

/// The robot as the problem describes it: every key and number checked, no
/// mesh or URDF read.
struct RobotSpec {
  std::string type;
  // rigid2d, rigid3d
  Eigen::VectorXd lower, upper;
  std::optional<GeometrySpec> body;
  // planar_chain
  std::vector<PlanarLink> links;
  Transform base = Transform::Identity();
  double joint_lower = -std::numbers::pi, joint_upper = std::numbers::pi;
  // urdf
  std::filesystem::path urdf_file;
  UrdfOptions urdf;
  std::string file_at, srdf_at, spheres_at;  // where the URDF, SRDF and spheres were named, for their errors
};

/// The robot key (and `bounds` for a rigid body), checked; for a MoveIt
/// request, its group and start values, with `allowedPairs` from its scene.
RobotSpec readRobotSpec(const YamlReader& in, const YAML::Node& root, const MotionPlanRequest* request,
                        const std::vector<std::pair<std::string, std::string>>& allowedPairs);
/// The robot: its body's geometry built, or its URDF read; InputError where the spec was written.
std::shared_ptr<Robot> buildRobot(const RobotSpec& spec);

}  // namespace prmkit
