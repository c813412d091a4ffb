#include "io/robot_reader.h"

#include "robots/rigid_body.h"

#include <fmt/format.h>

#include <algorithm>

namespace prmkit {

RobotSpec readRobotSpec(const YamlReader& in, const YAML::Node& root, const MotionPlanRequest* request,
                        const std::vector<std::pair<std::string, std::string>>& allowedPairs) {
  const YAML::Node node = in.require(root, "robot", "problem");
  RobotSpec spec;
  spec.type = in.oneOf(in.require(node, "type", "robot"), "robot type", {"rigid2d", "rigid3d", "planar_chain", "urdf"});
  const std::string& type = spec.type;
  if (request && type != "urdf") in.fail(node["type"], "a problem with a MoveIt request needs a robot of type urdf");
  if (type == "rigid2d" || type == "rigid3d") {
    in.requireMap(node, "robot", {"type", "geometry"});
    const YAML::Node bounds = in.require(root, "bounds", "problem");
    in.requireMap(bounds, "bounds", {"lower", "upper"});
    const std::size_t n = type == "rigid2d" ? 2 : 3;
    spec.lower = in.vector(in.require(bounds, "lower", "bounds"), "bounds.lower", n);
    spec.upper = in.vector(in.require(bounds, "upper", "bounds"), "bounds.upper", n);
    if ((spec.upper - spec.lower).minCoeff() <= 0)
      in.fail(bounds, "bounds.upper must exceed bounds.lower on every axis");
    if (std::max(spec.lower.cwiseAbs().maxCoeff(), spec.upper.cwiseAbs().maxCoeff()) > kMaxCoordinate)
      in.fail(bounds, fmt::format("bounds must lie within +-{:g} m", kMaxCoordinate));
    const YAML::Node geometry = in.require(node, "geometry", "robot");
    in.requireMap(geometry, "robot.geometry", {"box", "sphere", "cylinder", "mesh", "polygon", "generator"});
    spec.body =
        readGeometrySpec(in, geometry, "robot.geometry", type == "rigid2d" ? CenterAxes::Plane : CenterAxes::Space);
    return spec;
  }
  if (root["bounds"])
    in.fail(root["bounds"], fmt::format("a {} robot takes its bounds from its joint limits; remove 'bounds'", type));
  if (type == "planar_chain") {
    in.requireMap(node, "robot", {"type", "links", "base", "joint_limits"});
    const YAML::Node links = in.require(node, "links", "robot");
    if (!links.IsSequence() || links.size() == 0) in.fail(links, "expected a list of links with length and width");
    for (const auto& link : links) {
      in.requireMap(link, "robot.links[]", {"length", "width"});
      spec.links.push_back({in.positive(in.require(link, "length", "link"), "link length"),
                            in.positive(in.require(link, "width", "link"), "link width")});
    }
    if (node["base"]) spec.base = readPose(in, node["base"], "robot.base");
    if (node["joint_limits"]) {
      const Eigen::VectorXd limits = in.vector(node["joint_limits"], "robot.joint_limits", 2);
      if (!(limits[0] < limits[1]))
        in.fail(node["joint_limits"], "joint_limits must be [lower, upper] with lower < upper");
      spec.joint_lower = limits[0];
      spec.joint_upper = limits[1];
    }
    return spec;
  }
  in.requireMap(node, "robot", {"type", "file", "srdf", "spheres", "base", "group"});
  const YAML::Node fileNode = in.require(node, "file", "robot");
  UrdfOptions& urdf = spec.urdf;
  if (node["srdf"]) {
    urdf.srdf = in.path(node["srdf"], "robot.srdf");
    spec.srdf_at = in.where(node["srdf"]);
  }
  if (node["spheres"]) {
    urdf.spheres = in.path(node["spheres"], "robot.spheres");
    spec.spheres_at = in.where(node["spheres"]);
  }
  if (node["base"]) urdf.base = readPose(in, node["base"], "robot.base");
  if (node["group"]) urdf.group = in.string(node["group"], "robot.group");
  if (request) {
    if (!urdf.group.empty() && urdf.group != request->group)
      in.fail(node["group"],
              fmt::format("robot.group '{}' differs from the request's group_name '{}'", urdf.group, request->group));
    urdf.group = request->group;
    // Joints outside the planning group keep their start values (MoveIt's semantics).
    urdf.locked_values = request->start;
  }
  urdf.allowed_pairs = allowedPairs;
  spec.urdf_file = in.path(fileNode, "robot.file");
  spec.file_at = in.where(fileNode);
  return spec;
}

std::shared_ptr<Robot> buildRobot(const RobotSpec& spec) {
  if (spec.body) {
    Mesh body = meshOf(buildGeometry(*spec.body));
    if (spec.type == "rigid2d") return std::make_shared<RigidBody2D>(std::move(body), spec.lower, spec.upper);
    return std::make_shared<RigidBody3D>(std::move(body), spec.lower, spec.upper);
  }
  if (spec.type == "planar_chain") return makePlanarChain(spec.links, spec.base, spec.joint_lower, spec.joint_upper);
  try {
    return loadUrdfRobot(spec.urdf_file, spec.urdf);
  } catch (const RobotLoadError& e) {
    const std::string message = e.what();
    const bool srdf = !spec.srdf_at.empty() && message.find("SRDF") != std::string::npos;
    const bool spheres = spec.urdf.spheres && message.find(spec.urdf.spheres->string()) != std::string::npos;
    throw InputError(fmt::format("{}: {}", spheres ? spec.spheres_at : srdf ? spec.srdf_at : spec.file_at, message));
  }
}

}  // namespace prmkit
