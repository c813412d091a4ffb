#include "io/urdf_robot.h"

#include "io/mesh_reader.h"

#include "io/link_spheres.h"
#include "io/srdf_reader.h"

#include "base/input_file.h"

#include <fmt/format.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <functional>
#include <numbers>
#include <optional>
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

/// ROS resolves package://NAME/rest against package NAME's folder. Without
/// ROS, the package folder is taken to be the URDF's folder or one of its
/// parents (URDFs often sit in NAME/urdf/), and packages named like a folder
/// ("package://meshes/...", as VAMP's Panda writes) are tried whole too.
std::filesystem::path resolveMeshPath(const std::string& filename, const std::filesystem::path& urdfDir) {
  const std::string package = "package://";
  const std::string file = "file://";
  if (filename.rfind(package, 0) == 0) {
    const auto rest = filename.substr(package.size());
    const auto slash = rest.find('/');
    const std::filesystem::path inPackage = slash == std::string::npos ? rest : rest.substr(slash + 1);
    std::filesystem::path folder = urdfDir.empty() ? std::filesystem::path(".") : urdfDir;
    for (int up = 0; up < 3; ++up, folder = folder / "..")
      for (const auto& candidate : {folder / inPackage, folder / rest})
        if (std::filesystem::is_regular_file(candidate)) return candidate.lexically_normal();
    return urdfDir / inPackage;
  }
  if (filename.rfind(file, 0) == 0) return filename.substr(file.size());
  const std::filesystem::path p(filename);
  return p.is_absolute() ? p : urdfDir / p;
}

/// urdfdom reads any number for a size; a zero or negative one would make a
/// degenerate or inside-out solid.
void requirePositiveSizes(const std::string& link, const char* what, std::initializer_list<double> sizes) {
  for (const double size : sizes)
    if (!(size > 0.0 && std::isfinite(size)))
      throw RobotLoadError(fmt::format("link '{}': the {} must be positive and finite, got {}", link, what, size));
}

Mesh collisionMesh(const urdf::Collision& collision, const std::filesystem::path& urdfDir, const std::string& link) {
  const auto& g = collision.geometry;
  if (!g) throw RobotLoadError(fmt::format("link '{}' has a collision element without geometry", link));
  Mesh mesh;
  switch (g->type) {
    case urdf::Geometry::BOX: {
      const auto& box = static_cast<const urdf::Box&>(*g);
      requirePositiveSizes(link, "box size", {box.dim.x, box.dim.y, box.dim.z});
      mesh = boxMesh({box.dim.x, box.dim.y, box.dim.z});
      break;
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(*g);
      requirePositiveSizes(link, "cylinder radius and length", {c.radius, c.length});
      mesh = cylinderMesh(c.radius, c.length);
      break;
    }
    case urdf::Geometry::SPHERE:
      requirePositiveSizes(link, "sphere radius", {static_cast<const urdf::Sphere&>(*g).radius});
      mesh = sphereMesh(static_cast<const urdf::Sphere&>(*g).radius);
      break;
    case urdf::Geometry::MESH: {
      const auto& m = static_cast<const urdf::Mesh&>(*g);
      // A negative factor mirrors the mesh (used for left and right parts); zero flattens it.
      for (const double factor : {m.scale.x, m.scale.y, m.scale.z})
        if (!(factor != 0.0 && std::isfinite(factor)))
          throw RobotLoadError(
              fmt::format("link '{}': the mesh scale must be finite and nonzero, got {}", link, factor));
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

std::string normalizedUrdf(const std::string& text, tinyxml2::XMLDocument& doc, const std::filesystem::path& urdf) {
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    throw RobotLoadError(fmt::format("{}:{}: {}", urdf.string(), doc.ErrorLineNum(), doc.ErrorStr()));
  tinyxml2::XMLPrinter printer(nullptr, /*compact=*/true);
  doc.Print(&printer);
  return std::string(printer.CStr(), static_cast<std::size_t>(std::max(printer.CStrSize() - 1, 0)));
}

namespace {

/// urdfdom logs a collision element it cannot read (an unknown shape such as
/// a capsule, a missing or malformed attribute) and drops it, leaving its link
/// without that geometry: a link that passes through obstacles unseen. The
/// file's <collision> elements are counted with tinyxml2 and compared with
/// what urdfdom kept.
void requireEveryCollisionRead(const urdf::ModelInterface& model, const tinyxml2::XMLDocument& doc,
                               const std::filesystem::path& urdf) {
  const auto* robot = doc.FirstChildElement("robot");
  if (!robot) return;
  for (const auto* link = robot->FirstChildElement("link"); link; link = link->NextSiblingElement("link")) {
    const char* name = link->Attribute("name");
    const auto parsed = name ? model.getLink(name) : nullptr;
    if (!parsed) continue;
    std::size_t written = 0;
    for (const auto* c = link->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision")) ++written;
    if (parsed->collision_array.size() < written)
      throw RobotLoadError(fmt::format(
          "{}:{}: link '{}' has {} collision elements and urdfdom read {} (an unknown shape, or a missing or malformed "
          "attribute; urdfdom's message names it); prmkit does not drop geometry",
          urdf.string(), link->GetLineNum(), name, written, parsed->collision_array.size()));
  }
}

/// URDF's links form a tree: each link has at most one parent joint, and no
/// link is its own ancestor. urdfdom keeps the last of two parents and links
/// a loop into its children, which a walk from the root then follows
/// forever; the file is checked here first, with the joints named.
void requireKinematicTree(const tinyxml2::XMLDocument& doc, const std::filesystem::path& urdf) {
  const auto* robot = doc.FirstChildElement("robot");
  if (!robot) return;
  struct ParentJoint {
    std::string joint, parent;
    int line;
  };
  std::map<std::string, ParentJoint> parentOf;  // child link -> its joint
  for (const auto* j = robot->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
    const auto* parent = j->FirstChildElement("parent");
    const auto* child = j->FirstChildElement("child");
    const char* name = j->Attribute("name");
    if (!name || !parent || !child || !parent->Attribute("link") || !child->Attribute("link"))
      continue;  // urdfdom refuses it with its own message
    const std::string childLink = child->Attribute("link");
    const ParentJoint joint{name, parent->Attribute("link"), j->GetLineNum()};
    if (const auto [it, added] = parentOf.emplace(childLink, joint); !added)
      throw RobotLoadError(fmt::format(
          "{}:{}: joint '{}' gives link '{}' a second parent joint ('{}', line {}); URDF links form a tree (a "
          "kinematic loop cannot be written in URDF)",
          urdf.string(), joint.line, joint.joint, childLink, it->second.joint, it->second.line));
  }
  // With one parent each, a loop is a walk up that comes back: each link is
  // walked from once (0 unseen, 1 on the current walk, 2 known to reach a root).
  std::map<std::string, int> state;
  for (const auto& [start, first] : parentOf) {
    std::vector<std::string> walk;
    std::string link = start;
    while (state[link] == 0) {
      state[link] = 1;
      walk.push_back(link);
      const auto up = parentOf.find(link);
      if (up == parentOf.end()) break;
      link = up->second.parent;
      if (state[link] == 1) {
        const ParentJoint& closing = parentOf.at(link);
        throw RobotLoadError(
            fmt::format("{}:{}: joint '{}' makes link '{}' its own ancestor (a kinematic loop; URDF links form a tree)",
                        urdf.string(), closing.line, closing.joint, link));
      }
    }
    for (const auto& walked : walk) state[walked] = 2;
  }
}

}  // namespace

std::string readRobotDescription(const std::filesystem::path& file, const std::string& what) {
  try {
    return readTextFile(file, kMaxDescriptionFileBytes, what);
  } catch (const InputFileError& e) {
    throw RobotLoadError(e.what());
  }
}

namespace {
bool movable(const urdf::Joint& j) {
  return j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::CONTINUOUS || j.type == urdf::Joint::PRISMATIC;
}

/// A parsed URDF as a chain description: which joints are planned (the
/// SRDF group's, or every movable joint that does not mimic), the values of
/// the locked ones, and the frames in depth-first order.
class UrdfChain {
 public:
  UrdfChain(const urdf::ModelInterface& model, const std::filesystem::path& urdf, const UrdfOptions& options)
      : model_(model), urdf_(urdf), options_(options) {
    for (const auto& [name, joint] : model_.joints_)
      parentJoint_[joint->child_link_name] = {name, joint->parent_link_name};
    findPlannedJoints();
    for (const auto& [name, value] : options_.locked_values) {
      if (!model_.getJoint(name))
        throw RobotLoadError(fmt::format("URDF '{}' has no joint '{}' (given a value)", urdf_.string(), name));
      if (!std::isfinite(value))
        throw RobotLoadError(fmt::format("joint '{}' is given a value that is not finite", name));
    }
  }

  /// Depth first from the root with an explicit stack (a URDF's tree can be
  /// as deep as it is long: no recursion on it), children in file order, so
  /// that frames and joints come in the same order as a recursive walk.
  ChainDescription describe(const urdf::LinkConstSharedPtr& root) const {
    ChainDescription d;
    d.kind = "urdf";
    d.base = options_.base;
    struct Pending {
      urdf::LinkConstSharedPtr link;
      int parent_frame;  // -1: the root
    };
    std::vector<Pending> stack{{root, -1}};
    std::set<std::string> reached;        // planned joints below the root
    std::set<const urdf::Link*> visited;  // a tree (requireKinematicTree), so each link once
    while (!stack.empty()) {
      const Pending next = stack.back();
      stack.pop_back();
      if (!visited.insert(next.link.get()).second)
        throw RobotLoadError(
            fmt::format("URDF '{}': link '{}' is reached twice from the root", urdf_.string(), next.link->name));
      int jointIndex = -1;
      if (next.parent_frame >= 0) {
        if (planned_.count(next.link->parent_joint->name)) reached.insert(next.link->parent_joint->name);
        d.joints.push_back(jointOf(*next.link->parent_joint, next.parent_frame));
        jointIndex = static_cast<int>(d.joints.size()) - 1;
      }
      const int frame = static_cast<int>(d.frames.size());
      d.frames.push_back({next.link->name, jointIndex});
      Mesh merged;
      for (const auto& c : next.link->collision_array)
        if (c) merged.append(collisionMesh(*c, urdf_.parent_path(), next.link->name));
      if (!merged.empty()) d.geometry.emplace_back(frame, std::move(merged));
      for (auto child = next.link->child_links.rbegin(); child != next.link->child_links.rend(); ++child)
        stack.push_back({*child, frame});
    }
    // urdfdom accepts a joint whose parent is its own child (a cycle): the
    // links in it hang below no root, and their joints would vanish.
    for (const std::string& name : planned_)
      if (!reached.count(name))
        throw RobotLoadError(
            fmt::format("URDF '{}': joint '{}' is not below the root link '{}' (its links form a "
                        "cycle, or a second tree)",
                        urdf_.string(), name, root->name));
    if (planned_.empty())
      throw RobotLoadError(
          fmt::format("URDF '{}' has no revolute, continuous or prismatic joint to plan for", urdf_.string()));
    return d;
  }

 private:
  void findPlannedJoints() {
    if (options_.group.empty()) {
      for (const auto& [name, joint] : model_.joints_)
        if (movable(*joint) && !joint->mimic) planned_.insert(name);
      return;
    }
    if (!options_.srdf)
      throw RobotLoadError(fmt::format("URDF '{}': planning group '{}' needs an SRDF", urdf_.string(), options_.group));
    for (const auto& name : readSrdfGroupJoints(*options_.srdf, options_.group, parentJoint_)) {
      const auto joint = model_.getJoint(name);
      if (!joint)
        throw RobotLoadError(fmt::format("SRDF '{}': group '{}' names joint '{}', which URDF '{}' does not have",
                                         options_.srdf->string(), options_.group, name, urdf_.string()));
      if (movable(*joint)) planned_.insert(name);
    }
    if (planned_.empty())
      throw RobotLoadError(fmt::format("SRDF '{}': group '{}' has no revolute, continuous or prismatic joint",
                                       options_.srdf->string(), options_.group));
  }

  std::pair<double, double> limitsOf(const urdf::Joint& j) const {
    if (j.type == urdf::Joint::CONTINUOUS) return {-std::numbers::pi, std::numbers::pi};
    if (!j.limits) throw RobotLoadError(fmt::format("URDF '{}': joint '{}' needs <limit>", urdf_.string(), j.name));
    return {j.limits->lower, j.limits->upper};
  }

  /// A joint outside the planning group: its given value, its mimicked
  /// master's (at most 32 deep), or 0 clamped to its limits.
  double lockedValue(const urdf::Joint& j, int depth) const {
    if (j.mimic) {
      const auto master = model_.getJoint(j.mimic->joint_name);
      if (!master || depth > 32)
        throw RobotLoadError(
            fmt::format("URDF '{}': joint '{}' mimics '{}', which is not a joint (or mimics in a cycle)",
                        urdf_.string(), j.name, j.mimic->joint_name));
      if (planned_.count(master->name))
        throw RobotLoadError(
            fmt::format("URDF '{}': joint '{}' mimics the planned joint '{}'; mimic joints are supported "
                        "only outside the planning group (give a group that leaves '{}' out)",
                        urdf_.string(), j.name, master->name, master->name));
      return j.mimic->multiplier * lockedValue(*master, depth + 1) + j.mimic->offset;
    }
    const auto [lower, upper] = limitsOf(j);
    const auto given = options_.locked_values.find(j.name);
    if (given == options_.locked_values.end()) return std::clamp(0.0, lower, upper);
    if (given->second < lower - 1e-9 || given->second > upper + 1e-9)
      throw RobotLoadError(
          fmt::format("joint '{}' is locked at {} outside its limits [{}, {}]", j.name, given->second, lower, upper));
    return given->second;
  }

  Joint jointOf(const urdf::Joint& uj, int parentFrame) const {
    Joint joint;
    joint.name = uj.name;
    joint.parent_frame = parentFrame;
    joint.origin = toTransform(uj.parent_to_joint_origin_transform);
    joint.axis = Eigen::Vector3d(uj.axis.x, uj.axis.y, uj.axis.z);
    joint.type = JointType::Fixed;
    if (!movable(uj) && uj.type != urdf::Joint::FIXED)
      throw RobotLoadError(
          fmt::format("URDF '{}': joint '{}' is floating or planar; only revolute, continuous, "
                      "prismatic and fixed joints are supported",
                      urdf_.string(), uj.name));
    if (!movable(uj)) return joint;
    if (joint.axis.norm() < 1e-12)
      throw RobotLoadError(fmt::format("URDF '{}': joint '{}' has a zero axis", urdf_.string(), uj.name));
    joint.axis.normalize();
    const bool revolute = uj.type != urdf::Joint::PRISMATIC;
    if (planned_.count(uj.name)) {
      joint.type = revolute ? JointType::Revolute : JointType::Prismatic;
      std::tie(joint.lower, joint.upper) = limitsOf(uj);
    } else {
      // A locked joint is a fixed joint whose origin includes its motion.
      const double value = lockedValue(uj, 0);
      joint.origin = revolute ? joint.origin * Transform(Eigen::AngleAxisd(value, joint.axis))
                              : joint.origin * Transform(Eigen::Translation3d(value * joint.axis));
    }
    return joint;
  }

  const urdf::ModelInterface& model_;
  const std::filesystem::path& urdf_;
  const UrdfOptions& options_;
  std::map<std::string, std::pair<std::string, std::string>> parentJoint_;  // child link -> (joint, parent link)
  std::set<std::string> planned_;
};
}  // namespace

std::unique_ptr<KinematicChain> loadUrdfRobot(const std::filesystem::path& urdf, const UrdfOptions& options) {
  tinyxml2::XMLDocument doc;
  const std::string text = normalizedUrdf(readRobotDescription(urdf, "URDF"), doc, urdf);
  requireKinematicTree(doc, urdf);
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(text);
  if (!model) throw RobotLoadError(fmt::format("'{}' is not a valid URDF (urdfdom could not parse it)", urdf.string()));
  requireEveryCollisionRead(*model, doc, urdf);
  const auto root = model->getRoot();
  if (!root) throw RobotLoadError(fmt::format("URDF '{}' has no root link", urdf.string()));
  ChainDescription d = UrdfChain(*model, urdf, options).describe(root);
  if (d.geometry.empty()) throw RobotLoadError(fmt::format("URDF '{}' has no collision geometry", urdf.string()));
  if (options.spheres) d.spheres = readLinkSpheres(*options.spheres, d.frames);
  if (options.srdf) d.disabled_pairs = readSrdfDisabledPairs(*options.srdf);
  d.disabled_pairs.insert(d.disabled_pairs.end(), options.allowed_pairs.begin(), options.allowed_pairs.end());
  try {
    return std::make_unique<KinematicChain>(std::move(d));
  } catch (const std::invalid_argument& e) {
    throw RobotLoadError(fmt::format("URDF '{}': {}", urdf.string(), e.what()));
  }
}

}  // namespace prmkit
