#include "io/moveit_problem.h"

#include <fmt/format.h>

#include <map>
#include <type_traits>
#include <variant>

#include <set>

namespace prmkit {

namespace {

/// geometry_msgs Point/Vector3: [x, y, z] as robowflex writes it, or {x, y, z} as ROS tools do.
Eigen::Vector3d readPoint(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  if (node.IsMap()) {
    in.requireMap(node, what, {"x", "y", "z"});
    return {in.number(in.require(node, "x", what), what + ".x"), in.number(in.require(node, "y", what), what + ".y"),
            in.number(in.require(node, "z", what), what + ".z")};
  }
  return in.vector(node, what + " ([x, y, z])", 3);
}

/// geometry_msgs Quaternion: [x, y, z, w] (w last) or {x, y, z, w}.
Eigen::Quaterniond readQuaternion(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  Eigen::Vector4d q;
  if (node.IsMap()) {
    in.requireMap(node, what, {"x", "y", "z", "w"});
    int i = 0;
    for (const char* key : {"x", "y", "z", "w"}) q[i++] = in.number(in.require(node, key, what), what + "." + key);
  } else {
    q = in.vector(node, what + " ([x, y, z, w])", 4);
  }
  if (q.norm() < 1e-9) in.fail(node, fmt::format("'{}' is a zero quaternion", what));
  return Eigen::Quaterniond(q[3], q[0], q[1], q[2]).normalized();
}

Transform readMsgPose(const YamlReader& in, const YAML::Node& node, const std::string& what, const char* positionKey,
                      const char* orientationKey) {
  if (!node.IsMap())
    in.fail(node, fmt::format("expected '{}' to be a map with {} and {}", what, positionKey, orientationKey));
  Transform pose = Transform::Identity();
  if (node[positionKey]) pose.translation() = readPoint(in, node[positionKey], what + "." + positionKey);
  if (node[orientationKey])
    pose.linear() = readQuaternion(in, node[orientationKey], what + "." + orientationKey).toRotationMatrix();
  return pose;
}

bool emptyOrAbsent(const YAML::Node& node) { return !node || node.IsNull() || (node.IsSequence() && node.size() == 0); }

/// A sequence `key` of `node` (absent or null: empty).
std::vector<YAML::Node> items(const YamlReader& in, const YAML::Node& node, const char* key, const std::string& what) {
  std::vector<YAML::Node> out;
  const YAML::Node list = node[key];
  if (!list || list.IsNull()) return out;
  if (!list.IsSequence()) in.fail(list, fmt::format("expected '{}.{}' to be a list", what, key));
  for (const auto& item : list) out.push_back(item);
  return out;
}

/// shape_msgs SolidPrimitive in its own frame.
Shape readPrimitive(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  if (!node.IsMap()) in.fail(node, fmt::format("expected '{}' to be a map with type and dimensions", what));
  const YAML::Node typeNode = in.require(node, "type", what);
  // shape_msgs/SolidPrimitive constants: BOX 1, SPHERE 2, CYLINDER 3, CONE 4.
  std::string type;
  if (typeNode.IsScalar() && !typeNode.Scalar().empty() &&
      std::isdigit(static_cast<unsigned char>(typeNode.Scalar()[0]))) {
    const long code = in.integer(typeNode, what + ".type", 1, 4);
    type = code == 1 ? "box" : code == 2 ? "sphere" : code == 3 ? "cylinder" : code == 4 ? "cone" : "";
    if (type.empty()) in.fail(typeNode, "expected a SolidPrimitive type: 1 (box), 2 (sphere), 3 (cylinder)");
  } else {
    type = in.oneOf(typeNode, what + ".type", {"box", "sphere", "cylinder", "cone"});
  }
  if (type == "cone") in.fail(typeNode, "cone primitives are not supported (box, sphere, cylinder and meshes are)");
  const YAML::Node dims = in.require(node, "dimensions", what);
  if (type == "box") {
    const Eigen::Vector3d size = in.vector(dims, what + ".dimensions (box: [x, y, z])", 3);
    if (size.minCoeff() <= 0) in.fail(dims, "box dimensions must be positive");
    return Primitive::box(size);
  }
  if (type == "sphere") {
    const double radius = in.vector(dims, what + ".dimensions (sphere: [radius])", 1)[0];
    if (radius <= 0) in.fail(dims, "a sphere radius must be positive");
    return Primitive::sphere(radius);
  }
  const Eigen::Vector2d hr = in.vector(dims, what + ".dimensions (cylinder: [height, radius])", 2);
  if (hr.minCoeff() <= 0) in.fail(dims, "cylinder height and radius must be positive");
  return Primitive::cylinder(hr[1], hr[0]);
}

/// shape_msgs Mesh: vertices and triangles' vertex_indices.
Shape readShapeMesh(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  if (!node.IsMap()) in.fail(node, fmt::format("expected '{}' to be a map with vertices and triangles", what));
  Mesh mesh;
  for (const auto& v : items(in, node, "vertices", what))
    mesh.vertices.push_back(readPoint(in, v, what + ".vertices[]"));
  for (const auto& t : items(in, node, "triangles", what)) {
    const YAML::Node indices = t.IsMap() ? in.require(t, "vertex_indices", what + ".triangles[]") : t;
    const Eigen::VectorXd ijk = in.vector(indices, what + ".triangles[].vertex_indices", 3);
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      if (ijk[k] < 0 || ijk[k] >= static_cast<double>(mesh.vertices.size()) || ijk[k] != std::floor(ijk[k]))
        in.fail(indices, fmt::format("vertex index {} is not one of the {} vertices", ijk[k], mesh.vertices.size()));
      tri[static_cast<std::size_t>(k)] = static_cast<int>(ijk[k]);
    }
    mesh.triangles.push_back(tri);
  }
  if (mesh.empty()) in.fail(node, fmt::format("'{}' has no triangles", what));
  weldIdenticalVertices(mesh);
  return mesh;
}

}  // namespace

std::optional<std::string> requestNumber(const std::filesystem::path& file) {
  const std::string stem = file.stem().string();
  if (!stem.starts_with("request") || file.extension() != ".yaml") return std::nullopt;
  return stem.substr(std::string("request").size());
}

bool isMotionPlanRequest(const YAML::Node& root) {
  return root.IsMap() && !root["robot"] && (root["goal_constraints"] || root["start_state"]);
}

MotionPlanRequest readMotionPlanRequest(const YamlReader& in) {
  const YAML::Node& root = in.root();
  MotionPlanRequest request;
  request.group = in.string(in.require(root, "group_name", "MotionPlanRequest"), "group_name");
  if (request.group.empty()) in.fail(root["group_name"], "group_name must name the SRDF planning group");

  const YAML::Node startState = in.require(root, "start_state", "MotionPlanRequest");
  if (!emptyOrAbsent(startState["attached_collision_objects"]))
    in.fail(startState["attached_collision_objects"], "attached collision objects are not supported");
  const YAML::Node jointState = in.require(startState, "joint_state", "start_state");
  request.start_at = in.where(jointState);
  const YAML::Node names = in.require(jointState, "name", "start_state.joint_state");
  const YAML::Node positions = in.require(jointState, "position", "start_state.joint_state");
  if (!names.IsSequence() || !positions.IsSequence() || names.size() != positions.size())
    in.fail(jointState, "start_state.joint_state needs lists 'name' and 'position' of the same length");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string name = in.string(names[i], "start_state.joint_state.name[]");
    if (!request.start.emplace(name, in.number(positions[i], "start_state.joint_state.position[]")).second)
      in.fail(names[i], fmt::format("joint '{}' appears twice in start_state", name));
  }

  const YAML::Node goals = in.require(root, "goal_constraints", "MotionPlanRequest");
  if (!goals.IsSequence() || goals.size() == 0) in.fail(goals, "expected 'goal_constraints' to be a non-empty list");
  if (goals.size() > 1) in.fail(goals[1], "only one goal constraint set is supported (a single joint-space goal)");
  const YAML::Node goal = goals[0];
  for (const char* key : {"position_constraints", "orientation_constraints", "visibility_constraints"})
    if (!emptyOrAbsent(goal[key]))
      in.fail(goal[key], fmt::format("'{}' goals are not supported; give the goal as joint_constraints", key));
  const YAML::Node constraints = in.require(goal, "joint_constraints", "goal_constraints[0]");
  request.goal_at = in.where(constraints);
  if (!constraints.IsSequence() || constraints.size() == 0)
    in.fail(constraints, "expected 'joint_constraints' to be a non-empty list");
  for (const auto& c : constraints) {
    if (!c.IsMap()) in.fail(c, "expected a joint constraint with joint_name and position");
    const std::string name = in.string(in.require(c, "joint_name", "joint_constraints[]"), "joint_name");
    for (const auto& [other, value] : request.goal)
      if (other == name) in.fail(c, fmt::format("joint '{}' is constrained twice", name));
    request.goal.emplace_back(name, in.number(in.require(c, "position", "joint_constraints[]"), "position"));
  }
  return request;
}

PlanningSceneSpec readPlanningSceneSpec(const YamlReader& in) {
  const YAML::Node& root = in.root();
  if (const YAML::Node robotState = root["robot_state"];
      robotState && !emptyOrAbsent(robotState["attached_collision_objects"]))
    in.fail(robotState["attached_collision_objects"], "attached collision objects are not supported");
  PlanningSceneSpec spec;
  for (const auto& f : items(in, root, "fixed_frame_transforms", "scene")) {
    PlanningSceneSpec::FixedFrame frame;
    frame.child = in.string(in.require(f, "child_frame_id", "fixed_frame_transforms[]"), "child_frame_id");
    frame.parent = f["header"] && f["header"]["frame_id"] ? in.string(f["header"]["frame_id"], "header.frame_id") : "";
    frame.transform = readMsgPose(in, in.require(f, "transform", "fixed_frame_transforms[]"),
                                  "fixed_frame_transforms[].transform", "translation", "rotation");
    frame.at = in.where(f);
    spec.fixed_frames.push_back(std::move(frame));
  }

  const YAML::Node world = root["world"];
  if (!world) return spec;
  if (const YAML::Node octomap = world["octomap"];
      octomap && octomap["octomap"] && !emptyOrAbsent(octomap["octomap"]["data"]))
    in.fail(octomap, "octomaps are not supported");
  const auto objects = items(in, world, "collision_objects", "world");
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const YAML::Node o = objects[i];
    const std::string what = fmt::format("world.collision_objects[{}]", i);
    if (!o.IsMap()) in.fail(o, fmt::format("expected '{}' to be a map", what));
    const std::string id = o["id"] ? in.string(o["id"], what + ".id") : fmt::format("object{}", i);
    // CollisionObject.operation: ADD is 0 (the default); REMOVE, APPEND, MOVE change an existing scene.
    if (o["operation"] &&
        !(o["operation"].IsScalar() && (o["operation"].Scalar() == "0" || o["operation"].Scalar() == "add")))
      in.fail(o["operation"], "only ADD (0) collision objects are supported");
    if (!emptyOrAbsent(o["planes"])) in.fail(o["planes"], "plane collision objects are not supported");
    PlanningSceneSpec::Object object;
    if (o["header"] && o["header"]["frame_id"]) {
      object.frame = in.string(o["header"]["frame_id"], what + ".header.frame_id");
      object.frame_at = in.where(o["header"]["frame_id"]);
    }
    // MoveIt >= 1.1 poses shapes relative to the object's own pose.
    const Transform objectPose =
        o["pose"] ? readMsgPose(in, o["pose"], what + ".pose", "position", "orientation") : Transform::Identity();
    auto readShapes = [&](const char* shapesKey, const char* posesKey, auto&& readShape) {
      const auto shapeNodes = items(in, o, shapesKey, what);
      const auto poseNodes = items(in, o, posesKey, what);
      if (shapeNodes.size() != poseNodes.size())
        in.fail(
            o, fmt::format("'{}' has {} {} but {} {}", what, shapeNodes.size(), shapesKey, poseNodes.size(), posesKey));
      for (std::size_t k = 0; k < shapeNodes.size(); ++k) {
        ObstacleSpec shape;
        std::visit([&](auto&& read) { shape.geometry.shape = std::move(read); },
                   readShape(in, shapeNodes[k], fmt::format("{}.{}[{}]", what, shapesKey, k)));
        shape.pose = objectPose * readMsgPose(in, poseNodes[k], fmt::format("{}.{}[{}]", what, posesKey, k), "position",
                                              "orientation");
        shape.at = shape.geometry.at = in.where(o);
        object.shapes.push_back(std::move(shape));
      }
    };
    readShapes("primitives", "primitive_poses", readPrimitive);
    readShapes("meshes", "mesh_poses", readShapeMesh);
    if (object.shapes.empty()) in.fail(o, fmt::format("collision object '{}' has no primitives or meshes", id));
    for (std::size_t k = 0; k < object.shapes.size(); ++k)
      object.shapes[k].name = object.shapes.size() == 1 ? id : fmt::format("{}#{}", id, k);
    spec.objects.push_back(std::move(object));
  }
  return spec;
}

void addPlanningScene(const PlanningSceneSpec& spec, Scene& scene, const std::string& rootLink) {
  // Frames object poses may be given in: the robot's root and the scene's fixed frames.
  std::map<std::string, Transform> frames{{"", Transform::Identity()}, {rootLink, Transform::Identity()}};
  for (const auto& f : spec.fixed_frames) {
    if (!frames.count(f.parent))
      throw InputError(fmt::format("{}: fixed frame '{}' is given in the unknown frame '{}'", f.at, f.child, f.parent));
    frames[f.child] = frames[f.parent] * f.transform;
  }
  for (const auto& object : spec.objects) {
    const auto frame = frames.find(object.frame);
    if (frame == frames.end())
      throw InputError(fmt::format("{}: unknown frame '{}' (expected '{}', a fixed frame of the scene, or empty)",
                                   object.frame_at, object.frame, rootLink));
    for (const auto& shape : object.shapes) {
      try {
        std::visit(
            [&](const auto& geometry) {
              using Geometry = std::decay_t<decltype(geometry)>;
              if constexpr (std::is_same_v<Geometry, Primitive> || std::is_same_v<Geometry, Mesh>)
                scene.addObstacle(shape.name, Shape(geometry), frame->second * shape.pose);
            },
            shape.geometry.shape);
      } catch (const std::invalid_argument& e) {
        throw InputError(fmt::format("{}: {}", shape.at, e.what()));
      }
    }
  }
}

std::vector<std::pair<std::string, std::string>> readAllowedCollisions(const YamlReader& in) {
  const YAML::Node& root = in.root();
  std::set<std::string> objectIds;
  if (root["world"])
    for (const auto& o : items(in, root["world"], "collision_objects", "world"))
      if (o.IsMap() && o["id"] && o["id"].IsScalar()) objectIds.insert(o["id"].Scalar());
  std::vector<std::pair<std::string, std::string>> allowed;
  if (const YAML::Node acm = root["allowed_collision_matrix"]) {
    const YAML::Node names = in.require(acm, "entry_names", "allowed_collision_matrix");
    const YAML::Node values = in.require(acm, "entry_values", "allowed_collision_matrix");
    if (!names.IsSequence() || !values.IsSequence() || names.size() != values.size())
      in.fail(acm, "allowed_collision_matrix needs entry_names and entry_values of the same length");
    for (std::size_t i = 0; i < names.size(); ++i) {
      const YAML::Node row = values[i];
      const YAML::Node entries = row.IsMap() ? row["enabled"] : row;  // rostopic writes rows as {enabled: [...]}
      if (!entries || !entries.IsSequence() || entries.size() != names.size())
        in.fail(row, fmt::format("allowed_collision_matrix row {} must have {} entries", i, names.size()));
      for (std::size_t k = 0; k < names.size(); ++k) {
        if (k == i || !in.boolean(entries[k], "allowed_collision_matrix entry")) continue;
        const std::string a = in.string(names[i], "entry_names[]"), b = in.string(names[k], "entry_names[]");
        for (const auto& name : {a, b})
          if (objectIds.count(name))
            in.fail(entries[k], fmt::format("the allowed collision matrix allows contact with the object '{}'; "
                                            "allowed robot-object contacts are not supported",
                                            name));
        allowed.emplace_back(a, b);
      }
    }
  }
  return allowed;
}

}  // namespace prmkit
