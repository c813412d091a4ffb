#include "robots/urdf_robot.h"

#include <fmt/format.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <functional>
#include <numbers>
#include <sstream>

namespace prmkit {

namespace {

Transform toTransform(const urdf::Pose& pose) {
  Transform t = Transform::Identity();
  t.translation() = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  t.linear() = Eigen::Quaterniond(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z)
                   .normalized()
                   .toRotationMatrix();
  return t;
}

std::filesystem::path resolveMeshPath(const std::string& filename, const std::filesystem::path& urdfDir) {
  const std::string package = "package://";
  const std::string file = "file://";
  if (filename.rfind(package, 0) == 0) {
    const auto rest = filename.substr(package.size());
    const auto slash = rest.find('/');
    return urdfDir / (slash == std::string::npos ? rest : rest.substr(slash + 1));
  }
  if (filename.rfind(file, 0) == 0) return filename.substr(file.size());
  const std::filesystem::path p(filename);
  return p.is_absolute() ? p : urdfDir / p;
}

Mesh collisionMesh(const urdf::Collision& collision, const std::filesystem::path& urdfDir, const std::string& link) {
  const auto& g = collision.geometry;
  if (!g) throw RobotLoadError(fmt::format("link '{}' has a collision element without geometry", link));
  Mesh mesh;
  switch (g->type) {
    case urdf::Geometry::BOX: {
      const auto& box = static_cast<const urdf::Box&>(*g);
      mesh = boxMesh({box.dim.x, box.dim.y, box.dim.z});
      break;
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(*g);
      mesh = cylinderMesh(c.radius, c.length);
      break;
    }
    case urdf::Geometry::SPHERE:
      mesh = sphereMesh(static_cast<const urdf::Sphere&>(*g).radius);
      break;
    case urdf::Geometry::MESH: {
      const auto& m = static_cast<const urdf::Mesh&>(*g);
      try {
        mesh = loadMeshFile(resolveMeshPath(m.filename, urdfDir), {m.scale.x, m.scale.y, m.scale.z});
      } catch (const MeshLoadError& e) {
        throw RobotLoadError(fmt::format("link '{}': {}", link, e.what()));
      }
      break;
    }
  }
  return mesh.transformed(toTransform(collision.origin));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> readSrdfDisabledPairs(const std::filesystem::path& srdf) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(srdf.string().c_str()) != tinyxml2::XML_SUCCESS)
    throw RobotLoadError(fmt::format("cannot read SRDF '{}': {} (line {})", srdf.string(), doc.ErrorStr(), doc.ErrorLineNum()));
  const auto* robot = doc.FirstChildElement("robot");
  if (!robot) throw RobotLoadError(fmt::format("SRDF '{}' has no <robot> element", srdf.string()));
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto* e = robot->FirstChildElement("disable_collisions"); e; e = e->NextSiblingElement("disable_collisions")) {
    const char* a = e->Attribute("link1");
    const char* b = e->Attribute("link2");
    if (!a || !b)
      throw RobotLoadError(fmt::format("{}:{}: disable_collisions needs link1 and link2", srdf.string(), e->GetLineNum()));
    pairs.emplace_back(a, b);
  }
  return pairs;
}

std::unique_ptr<KinematicChain> loadUrdfRobot(const std::filesystem::path& urdf,
                                              const std::optional<std::filesystem::path>& srdf, const Transform& base) {
  std::ifstream in(urdf);
  if (!in) throw RobotLoadError(fmt::format("cannot open URDF '{}'", urdf.string()));
  std::stringstream text;
  text << in.rdbuf();
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(text.str());
  if (!model) throw RobotLoadError(fmt::format("'{}' is not a valid URDF (urdfdom could not parse it)", urdf.string()));
  const auto root = model->getRoot();
  if (!root) throw RobotLoadError(fmt::format("URDF '{}' has no root link", urdf.string()));
  const auto urdfDir = urdf.parent_path();

  ChainDescription d;
  d.kind = "urdf";
  d.base = base;
  std::function<void(const urdf::LinkConstSharedPtr&, int)> visit = [&](const urdf::LinkConstSharedPtr& link, int jointIndex) {
    const int frame = static_cast<int>(d.frames.size());
    d.frames.push_back({link->name, jointIndex});
    Mesh merged;
    for (const auto& c : link->collision_array)
      if (c) merged.append(collisionMesh(*c, urdfDir, link->name));
    if (!merged.empty()) d.geometry.emplace_back(frame, std::move(merged));
    for (const auto& child : link->child_links) {
      const auto& uj = *child->parent_joint;
      Joint joint;
      joint.name = uj.name;
      joint.parent_frame = frame;
      joint.origin = toTransform(uj.parent_to_joint_origin_transform);
      joint.axis = Eigen::Vector3d(uj.axis.x, uj.axis.y, uj.axis.z);
      switch (uj.type) {
        case urdf::Joint::REVOLUTE:
        case urdf::Joint::PRISMATIC:
          joint.type = uj.type == urdf::Joint::REVOLUTE ? JointType::Revolute : JointType::Prismatic;
          if (!uj.limits) throw RobotLoadError(fmt::format("URDF '{}': joint '{}' needs <limit>", urdf.string(), uj.name));
          joint.lower = uj.limits->lower;
          joint.upper = uj.limits->upper;
          break;
        case urdf::Joint::CONTINUOUS:
          joint.type = JointType::Revolute;
          joint.lower = -std::numbers::pi;
          joint.upper = std::numbers::pi;
          break;
        case urdf::Joint::FIXED:
          joint.type = JointType::Fixed;
          break;
        default:
          throw RobotLoadError(fmt::format("URDF '{}': joint '{}' is floating or planar; only revolute, continuous, "
                                           "prismatic and fixed joints are supported",
                                           urdf.string(), uj.name));
      }
      if (joint.type != JointType::Fixed) {
        if (joint.axis.norm() < 1e-12)
          throw RobotLoadError(fmt::format("URDF '{}': joint '{}' has a zero axis", urdf.string(), uj.name));
        joint.axis.normalize();
      }
      d.joints.push_back(joint);
      visit(child, static_cast<int>(d.joints.size()) - 1);
    }
  };
  visit(root, -1);
  if (d.geometry.empty()) throw RobotLoadError(fmt::format("URDF '{}' has no collision geometry", urdf.string()));
  if (srdf) d.disabled_pairs = readSrdfDisabledPairs(*srdf);
  try {
    return std::make_unique<KinematicChain>(std::move(d));
  } catch (const std::invalid_argument& e) {
    throw RobotLoadError(fmt::format("URDF '{}': {}", urdf.string(), e.what()));
  }
}

}  // namespace prmkit
