#include "io/problem.h"

#include "io/moveit_problem.h"
#include "io/omplapp_problem.h"

#include "checkers/collision_queries.h"
#include "environments/generators.h"
#include "robots/kinematic_chain.h"
#include "robots/planar_chain.h"
#include "robots/rigid_body.h"
#include "robots/urdf_robot.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <set>

namespace prmkit {

namespace {

Transform readPose(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"xyz", "rpy", "quaternion"});
  Transform pose = Transform::Identity();
  if (node["xyz"]) pose.translation() = in.vector(node["xyz"], what + ".xyz", 3);
  if (node["rpy"] && node["quaternion"]) in.fail(node, fmt::format("'{}' takes rpy or quaternion, not both", what));
  if (node["rpy"]) {
    const Eigen::Vector3d rpy = in.vector(node["rpy"], what + ".rpy", 3);
    // URDF convention: fixed axes X (roll), then Y (pitch), then Z (yaw).
    pose.linear() = (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) *
                     Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
                     Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
                        .toRotationMatrix();
  }
  if (node["quaternion"]) {
    const Eigen::Vector4d q = in.vector(node["quaternion"], what + ".quaternion (x, y, z, w)", 4);
    try {
      pose.linear() = unitQuaternion(q).toRotationMatrix();
    } catch (const std::invalid_argument& e) {
      in.fail(node["quaternion"], fmt::format("'{}.quaternion': {}", what, e.what()));
    }
  }
  return pose;
}

template <class T>
void setNumber(const YamlReader& in, const YAML::Node& node, const char* key, const std::string& what, T& out) {
  if (!node[key]) return;
  if constexpr (std::is_integral_v<T>) {
    const long value = in.integer(node[key], what + "." + key, 0);
    // A number the field cannot hold is refused, not wrapped (a seed of 2^32 is not seed 0).
    if (static_cast<unsigned long>(value) > static_cast<unsigned long>(std::numeric_limits<T>::max()))
      in.fail(node[key], fmt::format("{}.{} is at most {}", what, key, std::numeric_limits<T>::max()));
    out = static_cast<T>(value);
  } else {
    out = in.number(node[key], what + "." + key);
  }
}

Mesh readGenerator(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  const std::string type = in.oneOf(in.require(node, "type", what), what + ".type",
                                    {"spring", "gear", "gear_plate", "slot_wall", "twisted_slot", "bug_trap", "random"});
  try {
    if (type == "spring") {
      in.requireMap(node, what, {"type", "turns", "coil_radius", "wire_radius", "pitch", "segments", "sides"});
      SpringParams p;
      setNumber(in, node, "turns", what, p.turns);
      setNumber(in, node, "coil_radius", what, p.coil_radius);
      setNumber(in, node, "wire_radius", what, p.wire_radius);
      setNumber(in, node, "pitch", what, p.pitch);
      setNumber(in, node, "segments", what, p.segments);
      setNumber(in, node, "sides", what, p.sides);
      return springMesh(p);
    }
    auto readGear = [&](const YAML::Node& g, const std::string& gwhat, GearParams& p) {
      in.requireMap(g, gwhat, {"type", "teeth", "root_radius", "tip_radius", "bore_radius", "thickness"});
      setNumber(in, g, "teeth", gwhat, p.teeth);
      setNumber(in, g, "root_radius", gwhat, p.root_radius);
      setNumber(in, g, "tip_radius", gwhat, p.tip_radius);
      setNumber(in, g, "bore_radius", gwhat, p.bore_radius);
      setNumber(in, g, "thickness", gwhat, p.thickness);
    };
    if (type == "gear") {
      GearParams p;
      readGear(node, what, p);
      return gearMesh(p);
    }
    if (type == "gear_plate") {
      in.requireMap(node, what, {"type", "gear", "clearance", "plate_size", "plate_thickness", "plate_height", "spindle_length"});
      GearPlateParams p;
      if (node["gear"]) readGear(node["gear"], what + ".gear", p.gear);
      setNumber(in, node, "clearance", what, p.clearance);
      setNumber(in, node, "plate_size", what, p.plate_size);
      setNumber(in, node, "plate_thickness", what, p.plate_thickness);
      setNumber(in, node, "plate_height", what, p.plate_height);
      setNumber(in, node, "spindle_length", what, p.spindle_length);
      return gearPlateMotorMesh(p);
    }
    if (type == "slot_wall") {
      in.requireMap(node, what, {"type", "width", "height", "thickness", "slot_width", "slot_height"});
      SlotWallParams p;
      setNumber(in, node, "width", what, p.width);
      setNumber(in, node, "height", what, p.height);
      setNumber(in, node, "thickness", what, p.thickness);
      setNumber(in, node, "slot_width", what, p.slot_width);
      setNumber(in, node, "slot_height", what, p.slot_height);
      return slotWallMesh(p);
    }
    if (type == "twisted_slot") {
      in.requireMap(node, what, {"type", "plates", "spacing", "twist", "size", "thickness", "slot_width", "slot_height"});
      TwistedSlotParams p;
      setNumber(in, node, "plates", what, p.plates);
      setNumber(in, node, "spacing", what, p.spacing);
      setNumber(in, node, "twist", what, p.twist);
      setNumber(in, node, "size", what, p.size);
      setNumber(in, node, "thickness", what, p.thickness);
      setNumber(in, node, "slot_width", what, p.slot_width);
      setNumber(in, node, "slot_height", what, p.slot_height);
      return twistedSlotMesh(p);
    }
    if (type == "bug_trap") {
      in.requireMap(node, what, {"type", "size", "wall", "opening", "lip", "height", "lids"});
      BugTrapParams p;
      setNumber(in, node, "size", what, p.size);
      setNumber(in, node, "wall", what, p.wall);
      setNumber(in, node, "opening", what, p.opening);
      setNumber(in, node, "lip", what, p.lip);
      setNumber(in, node, "height", what, p.height);
      if (node["lids"]) p.lids = in.boolean(node["lids"], what + ".lids");
      return bugTrapMesh(p);
    }
    in.requireMap(node, what,
                  {"type", "count", "region_min", "region_max", "min_size", "max_size", "planar", "polygons", "seed"});
    RandomBoxesParams p;
    setNumber(in, node, "count", what, p.count);
    if (node["region_min"]) p.region_min = in.vector(node["region_min"], what + ".region_min", 3);
    if (node["region_max"]) p.region_max = in.vector(node["region_max"], what + ".region_max", 3);
    setNumber(in, node, "min_size", what, p.min_size);
    setNumber(in, node, "max_size", what, p.max_size);
    if (node["planar"]) p.planar = in.boolean(node["planar"], what + ".planar");
    if (node["polygons"]) p.polygons = in.boolean(node["polygons"], what + ".polygons");
    setNumber(in, node, "seed", what, p.seed);
    if ((p.region_max - p.region_min).minCoeff() <= 0) in.fail(node, "region_max must exceed region_min on every axis");
    return randomObstaclesMesh(p);
  } catch (const std::invalid_argument& e) {
    in.fail(node, e.what());
  }
}

/// Exactly one geometry key of `node`: box, sphere, cylinder (primitives), mesh, polygon or generator.
Shape readGeometry(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  std::vector<std::string> present;
  for (const char* key : {"box", "sphere", "cylinder", "mesh", "polygon", "generator"})
    if (node[key]) present.emplace_back(key);
  if (present.size() != 1)
    in.fail(node, fmt::format("'{}' needs exactly one of box, sphere, cylinder, mesh, polygon, generator", what));
  const std::string& kind = present[0];
  const YAML::Node g = node[kind];
  const std::string gwhat = what + "." + kind;
  try {
    if (kind == "box") {
      const Eigen::Vector3d size = in.vector(g, gwhat + " (sizes x, y, z)", 3);
      if (size.minCoeff() <= 0) in.fail(g, "box sizes must be positive");
      return Primitive::box(size);
    }
    if (kind == "sphere") {
      in.requireMap(g, gwhat, {"radius"});
      return Primitive::sphere(in.positive(in.require(g, "radius", gwhat), gwhat + ".radius"));
    }
    if (kind == "cylinder") {
      in.requireMap(g, gwhat, {"radius", "length"});
      return Primitive::cylinder(in.positive(in.require(g, "radius", gwhat), gwhat + ".radius"),
                                 in.positive(in.require(g, "length", gwhat), gwhat + ".length"));
    }
    if (kind == "mesh") {
      in.requireMap(g, gwhat, {"file", "scale", "center"});
      Eigen::Vector3d scale = Eigen::Vector3d::Ones();
      if (g["scale"]) {
        if (g["scale"].IsSequence())
          scale = in.vector(g["scale"], gwhat + ".scale", 3);
        else
          scale.setConstant(in.positive(g["scale"], gwhat + ".scale"));
      }
      const YAML::Node fileNode = in.require(g, "file", gwhat);
      try {
        Mesh mesh = loadMeshFile(in.path(fileNode, gwhat + ".file"), scale);
        // OMPL.app's convention: a robot's pose is that of the mean of its vertices.
        if (g["center"] && in.boolean(g["center"], gwhat + ".center") && !mesh.vertices.empty()) {
          Eigen::Vector3d mean = Eigen::Vector3d::Zero();
          for (const auto& v : mesh.vertices) mean += v;
          mesh = mesh.transformed(Transform(Eigen::Translation3d(-mean / static_cast<double>(mesh.vertices.size()))));
        }
        return mesh;
      } catch (const MeshLoadError& e) {
        in.fail(fileNode, e.what());
      }
    }
    if (kind == "polygon") {
      in.requireMap(g, gwhat, {"points", "height"});
      const YAML::Node points = in.require(g, "points", gwhat);
      if (!points.IsSequence()) in.fail(points, "expected a list of [x, y] points");
      std::vector<Eigen::Vector2d> polygon;
      for (const auto& p : points) polygon.emplace_back(in.vector(p, gwhat + ".points", 2));
      const double height = g["height"] ? in.positive(g["height"], gwhat + ".height") : 0.1;
      return extrudePolygon(polygon, height);
    }
    return readGenerator(in, g, gwhat);
  } catch (const std::invalid_argument& e) {
    in.fail(g, e.what());
  }
}

std::shared_ptr<Robot> readRobot(const YamlReader& in, const YAML::Node& root, const MotionPlanRequest* request,
                                 const std::vector<std::pair<std::string, std::string>>& allowedPairs) {
  const YAML::Node node = in.require(root, "robot", "problem");
  const std::string type =
      in.oneOf(in.require(node, "type", "robot"), "robot type", {"rigid2d", "rigid3d", "planar_chain", "urdf"});
  if (request && type != "urdf") in.fail(node["type"], "a problem with a MoveIt request needs a robot of type urdf");
  if (type == "rigid2d" || type == "rigid3d") {
    in.requireMap(node, "robot", {"type", "geometry"});
    const YAML::Node bounds = in.require(root, "bounds", "problem");
    in.requireMap(bounds, "bounds", {"lower", "upper"});
    const std::size_t n = type == "rigid2d" ? 2 : 3;
    const Eigen::VectorXd lower = in.vector(in.require(bounds, "lower", "bounds"), "bounds.lower", n);
    const Eigen::VectorXd upper = in.vector(in.require(bounds, "upper", "bounds"), "bounds.upper", n);
    if ((upper - lower).minCoeff() <= 0) in.fail(bounds, "bounds.upper must exceed bounds.lower on every axis");
    Mesh body = meshOf(readGeometry(in, in.require(node, "geometry", "robot"), "robot.geometry"));
    if (type == "rigid2d") return std::make_shared<RigidBody2D>(std::move(body), lower, upper);
    return std::make_shared<RigidBody3D>(std::move(body), lower, upper);
  }
  if (root["bounds"]) in.fail(root["bounds"], fmt::format("a {} robot takes its bounds from its joint limits; remove 'bounds'", type));
  if (type == "planar_chain") {
    in.requireMap(node, "robot", {"type", "links", "base", "joint_limits"});
    const YAML::Node links = in.require(node, "links", "robot");
    if (!links.IsSequence() || links.size() == 0) in.fail(links, "expected a list of links with length and width");
    std::vector<PlanarLink> chain;
    for (const auto& link : links) {
      in.requireMap(link, "robot.links[]", {"length", "width"});
      chain.push_back({in.positive(in.require(link, "length", "link"), "link length"),
                       in.positive(in.require(link, "width", "link"), "link width")});
    }
    const Transform base = node["base"] ? readPose(in, node["base"], "robot.base") : Transform::Identity();
    double lower = -std::numbers::pi, upper = std::numbers::pi;
    if (node["joint_limits"]) {
      const Eigen::VectorXd limits = in.vector(node["joint_limits"], "robot.joint_limits", 2);
      if (!(limits[0] < limits[1])) in.fail(node["joint_limits"], "joint_limits must be [lower, upper] with lower < upper");
      lower = limits[0];
      upper = limits[1];
    }
    return makePlanarChain(chain, base, lower, upper);
  }
  in.requireMap(node, "robot", {"type", "file", "srdf", "base", "group"});
  const YAML::Node fileNode = in.require(node, "file", "robot");
  UrdfOptions urdf;
  if (node["srdf"]) urdf.srdf = in.path(node["srdf"], "robot.srdf");
  if (node["base"]) urdf.base = readPose(in, node["base"], "robot.base");
  if (node["group"]) urdf.group = in.string(node["group"], "robot.group");
  if (request) {
    if (!urdf.group.empty() && urdf.group != request->group)
      in.fail(node["group"], fmt::format("robot.group '{}' differs from the request's group_name '{}'", urdf.group,
                                         request->group));
    urdf.group = request->group;
    // Joints outside the planning group keep their start values (MoveIt's semantics).
    urdf.locked_values = request->start;
  }
  urdf.allowed_pairs = allowedPairs;
  try {
    return loadUrdfRobot(in.path(fileNode, "robot.file"), urdf);
  } catch (const RobotLoadError& e) {
    in.fail(node["srdf"] && std::string(e.what()).find("SRDF") != std::string::npos ? node["srdf"] : fileNode, e.what());
  }
}

std::shared_ptr<Scene> readScene(const YamlReader& in, const YAML::Node& root, PrimitiveMode primitives) {
  auto scene = std::make_shared<Scene>(primitives);
  const YAML::Node node = root["scene"];
  if (!node) return scene;
  in.requireMap(node, "scene", {"obstacles"});
  const YAML::Node obstacles = node["obstacles"];
  if (!obstacles) return scene;
  if (!obstacles.IsSequence()) in.fail(obstacles, "expected 'scene.obstacles' to be a list");
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const YAML::Node o = obstacles[i];
    const std::string what = fmt::format("scene.obstacles[{}]", i);
    in.requireMap(o, what, {"name", "pose", "box", "sphere", "cylinder", "mesh", "polygon", "generator"});
    const std::string name = o["name"] ? in.string(o["name"], what + ".name") : fmt::format("obstacle{}", i);
    const Transform pose = o["pose"] ? readPose(in, o["pose"], what + ".pose") : Transform::Identity();
    try {
      scene->addObstacle(name, readGeometry(in, o, what), pose);
    } catch (const std::invalid_argument& e) {
      in.fail(o, e.what());
    }
  }
  return scene;
}

Config readConfig(const YamlReader& in, const YAML::Node& node, const std::string& what, const Robot& robot) {
  Config q;
  if (node.IsMap() && robot.configAtPose(Transform::Identity())) {
    q = *robot.configAtPose(readPose(in, node, what));
  } else {
    if (!node.IsSequence() || node.size() != robot.configSize())
      in.fail(node, fmt::format("expected '{}' to be a list of {} numbers ({}){}", what, robot.configSize(),
                                fmt::join(robot.coordinateNames(), ", "),
                                node.IsSequence() ? fmt::format(", got {}", node.size()) : ""));
    q = in.vector(node, what, robot.configSize());
  }
  try {
    robot.canonicalize(q);
  } catch (const std::invalid_argument& e) {
    in.fail(node, fmt::format("'{}': {}", what, e.what()));
  }
  return q;
}

void readPlanner(const YamlReader& in, const YAML::Node& root, PlannerSettings& s) {
  if (const YAML::Node p = root["planner"]) {
    in.requireMap(p, "planner", {"type", "k", "radius", "batch", "batch_fraction", "enhance", "sampler", "sampler_sigma", "expand",
                                 "expand_bounces", "expand_step", "path_check", "skip_same_component", "shortcut",
                                 "shortcut_attempts", "min_confidence", "verify_final_path", "threads"});
    if (p["min_confidence"]) {
      s.min_confidence = in.number(p["min_confidence"], "planner.min_confidence (%)");
      if (s.min_confidence < 0 || s.min_confidence > 100)
        in.fail(p["min_confidence"], "planner.min_confidence is a percentage in [0, 100]");
    }
    if (p["verify_final_path"]) s.verify_final_path = in.boolean(p["verify_final_path"], "planner.verify_final_path");
    if (p["type"]) s.type = in.oneOf(p["type"], "planner", plannerNames());
    if (p["k"]) s.k = static_cast<std::size_t>(in.integer(p["k"], "planner.k", 1));
    if (p["radius"]) s.radius = in.positive(p["radius"], "planner.radius");
    if (p["batch"]) s.batch = static_cast<std::size_t>(in.integer(p["batch"], "planner.batch", 1));
    if (p["threads"]) {
      s.threads = static_cast<std::size_t>(in.integer(p["threads"], "planner.threads (0: every core)", 0));
      if (s.threads > kMaxPlannerThreads) in.fail(p["threads"], fmt::format("planner.threads is at most {}", kMaxPlannerThreads));
    }
    if (p["sampler"]) {
      s.sampler = in.string(p["sampler"], "planner.sampler");
      try {
        parseSamplerMix(s.sampler);
      } catch (const std::invalid_argument& e) {
        in.fail(p["sampler"], e.what());
      }
    }
    auto fraction = [&](const char* key, double& value) {
      if (!p[key]) return;
      value = in.number(p[key], fmt::format("planner.{}", key));
      if (!(value >= 0 && value <= 1)) in.fail(p[key], fmt::format("planner.{} is a fraction in [0, 1]", key));
    };
    fraction("sampler_sigma", s.sampler_sigma);
    if (p["sampler_sigma"] && s.sampler_sigma == 0) in.fail(p["sampler_sigma"], "planner.sampler_sigma must be positive");
    fraction("enhance", s.enhance);
    fraction("batch_fraction", s.batch_fraction);
    fraction("expand", s.expand);
    fraction("expand_step", s.expand_step);
    if (p["expand_step"] && s.expand_step == 0) in.fail(p["expand_step"], "planner.expand_step must be positive");
    if (p["expand_bounces"])
      s.expand_bounces = static_cast<std::size_t>(in.integer(p["expand_bounces"], "planner.expand_bounces", 1));
    if (p["path_check"])
      s.path_check = in.oneOf(p["path_check"], "planner.path_check", {"first_collision", "whole_path"}) == "whole_path"
                         ? PlannerSettings::PathCheck::WholePath
                         : PlannerSettings::PathCheck::FirstCollision;
    if (p["skip_same_component"]) s.skip_same_component = in.boolean(p["skip_same_component"], "planner.skip_same_component");
    if (p["shortcut"]) s.shortcut = in.boolean(p["shortcut"], "planner.shortcut");
    if (p["shortcut_attempts"])
      s.shortcut_attempts = static_cast<std::size_t>(in.integer(p["shortcut_attempts"], "planner.shortcut_attempts", 1));
  }
  if (const YAML::Node l = root["limits"]) {
    in.requireMap(l, "limits", {"time", "samples"});
    if (l["time"]) s.time_limit_s = in.positive(l["time"], "limits.time (s)");
    if (l["samples"]) s.max_samples = static_cast<std::size_t>(in.integer(l["samples"], "limits.samples", 1));
  }
  if (root["seed"]) {
    const long seed = in.integer(root["seed"], "seed", 0);
    if (seed > static_cast<long>(std::numeric_limits<std::uint32_t>::max()))
      in.fail(root["seed"], fmt::format("seed is at most {}", std::numeric_limits<std::uint32_t>::max()));
    s.seed = static_cast<std::uint32_t>(seed);
  }
}

/// Reads a strategy's section by walking its fields (checkers/settings_fields.h):
/// the section's keys, their types and ranges all come from that one list.
class YamlFields {
 public:
  YamlFields(const YamlReader& in, const YAML::Node& section, std::string path)
      : in_(in), section_(section), path_(std::move(path)) {}
  void number(std::string_view name, double& value, const NumberRange& range) {
    if (const YAML::Node node = given(name)) {
      value = in_.number(node, what(name, range));
      if (!range.contains(value)) in_.fail(node, fmt::format("{}.{} must be {}", path_, name, range.describe()));
    }
  }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange& range) {
    if (const YAML::Node node = given(name)) {
      const long read = in_.integer(node, what(name, range), std::numeric_limits<long>::min());
      if (!range.contains(static_cast<double>(read)))
        in_.fail(node, fmt::format("{}.{} must be {}", path_, name, range.describe()));
      value = static_cast<Integer>(read);
    }
  }
  template <class T, std::size_t N>
  void choice(std::string_view name, T& value, const std::array<Choice<T>, N>& choices) {
    if (const YAML::Node node = given(name)) {
      std::vector<std::string> names;
      for (const auto& choice : choices) names.emplace_back(choice.name);
      const std::string chosen = in_.oneOf(node, fmt::format("{}.{}", path_, name), names);
      for (const auto& choice : choices)
        if (chosen == choice.name) value = choice.value;
    }
  }
  void boolean(std::string_view name, bool& value) {
    if (const YAML::Node node = given(name)) value = in_.boolean(node, fmt::format("{}.{}", path_, name));
  }
  void geometry(Geometry&) {}
  const std::set<std::string>& keys() const { return keys_; }

 private:
  YAML::Node given(std::string_view name) {
    YAML::Node node = section_[std::string(name)];
    if (node) keys_.emplace(name);
    return node;
  }
  std::string what(std::string_view name, const NumberRange& range) const {
    return range.unit.empty() ? fmt::format("{}.{}", path_, name) : fmt::format("{}.{} ({})", path_, name, range.unit);
  }
  const YamlReader& in_;
  const YAML::Node& section_;
  std::string path_;
  std::set<std::string> keys_;
};

void readChecker(const YamlReader& in, const YAML::Node& root, CheckerSettings& s) {
  const YAML::Node c = root["checker"];
  if (!c) return;
  // Each strategy's settings live in its own section, so that switching
  // `type` (e.g. --checker adaptive) keeps the other sections valid.
  std::vector<std::string> keys{"type", "geometry"};
  for (const std::string& name : checkerNames()) keys.push_back(name);
  in.requireMap(c, "checker", keys);
  if (c["geometry"])
    s.geometry =
        in.oneOf(c["geometry"], "checker.geometry", {"convex", "mesh"}) == "convex" ? Geometry::Convex : Geometry::Mesh;
  if (c["type"]) s.type = in.oneOf(c["type"], "checker", checkerNames());
  forEachStrategy(s, [&](std::string_view name, auto& settings) {
    const YAML::Node section = c[std::string(name)];
    if (!section) return;
    const std::string path = fmt::format("checker.{}", name);
    in.requireMap(section, path, fieldNames(settings));
    YamlFields reader(in, section, path);
    settings.fields(reader);
    if constexpr (requires { settings.afterRead(reader.keys()); }) settings.afterRead(reader.keys());
  });
}

}  // namespace

double Problem::sceneSize() const {
  Eigen::AlignedBox3d box = scene->bounds();
  const auto& b = robot->bounds();
  if (robot->boundsArePositions()) {
    Eigen::Vector3d lo = Eigen::Vector3d::Zero(), hi = Eigen::Vector3d::Zero();
    lo.head(b.lower.size()) = b.lower;
    hi.head(b.upper.size()) = b.upper;
    box.extend(lo);
    box.extend(hi);
  }
  return box.isEmpty() ? 1.0 : std::max(box.diagonal().norm(), 1e-9);
}

std::string defaultProblemName(const std::filesystem::path& file) {
  // MotionBenchMaker keeps requestNNNN.yaml in one folder per scenario: name both.
  if (const auto number = requestNumber(file); number && file.parent_path().has_filename())
    return fmt::format("{}-{}", file.parent_path().filename().string(), *number);
  return file.stem().string();
}

namespace {

/// A MotionPlanRequest given as the problem: a problem that names it, with
/// the scene beside it (MotionBenchMaker's sceneNNNN.yaml next to requestNNNN.yaml).
YAML::Node problemForRequest(const std::filesystem::path& file) {
  YAML::Node root(YAML::NodeType::Map);
  root["robot"]["type"] = "urdf";
  root["moveit"]["request"] = file.filename().string();
  if (const auto number = requestNumber(file)) {
    const auto scene = file.parent_path() / ("scene" + *number + ".yaml");
    if (std::filesystem::exists(scene)) root["moveit"]["scene"] = scene.filename().string();
  }
  return root;
}

/// Start or goal in the robot's coordinate order from joint values by name.
Config jointsToConfig(const YamlReader& in, const YAML::Node& node, const std::string& what, const Robot& robot,
                      const std::map<std::string, double>& values) {
  Config q(static_cast<Eigen::Index>(robot.configSize()));
  for (std::size_t i = 0; i < robot.configSize(); ++i) {
    const auto& name = robot.coordinateNames()[i];
    const auto it = values.find(name);
    if (it == values.end()) in.fail(node, fmt::format("the {} gives no value for the planned joint '{}'", what, name));
    q[static_cast<Eigen::Index>(i)] = it->second;
  }
  try {
    robot.canonicalize(q);
  } catch (const std::invalid_argument& e) {
    in.fail(node, fmt::format("the {}: {}", what, e.what()));
  }
  return q;
}

}  // namespace

namespace {
Problem readProblem(const std::filesystem::path& file, const LoadOptions& options);
}  // namespace

Problem loadProblem(const std::filesystem::path& file, const LoadOptions& options) {
  try {
    return readProblem(file, options);
  } catch (const YAML::Exception& e) {
    // A node of the wrong kind that the reader asked for something it does
    // not have (yaml-cpp's own check): bad input, with yaml-cpp's position.
    if (e.mark.is_null()) throw InputError(fmt::format("{}: {}", file.string(), e.msg));
    throw InputError(fmt::format("{}:{}:{}: {}", file.string(), e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

namespace {
Problem readProblem(const std::filesystem::path& file, const LoadOptions& options) {
  YamlReader in = isOmplAppConfig(file) ? readOmplAppConfig(file) : YamlReader(file);
  const bool requestFile = isMotionPlanRequest(in.root());
  if (requestFile) in.replaceRoot(problemForRequest(file));
  for (const auto& o : options.overrides) in.applyOverride(o);
  const YAML::Node& root = in.root();
  if (requestFile && !(root["robot"].IsMap() && root["robot"]["file"]))
    throw InputError(fmt::format("{}: a MoveIt MotionPlanRequest needs its robot: give --urdf and --srdf "
                                 "(or --set robot.file=... --set robot.srdf=...)",
                                 file.string()));
  in.requireMap(root, "problem",
                {"name", "description", "robot", "scene", "bounds", "start", "goal", "planner", "checker", "seed", "limits",
                 "moveit", "scale", "primitives"});
  Problem problem;
  problem.file = file;
  problem.name = root["name"] ? in.string(root["name"], "name") : defaultProblemName(file);
  if (root["description"]) in.string(root["description"], "description");

  // A MoveIt problem: the request gives group, start and goal; the scene the obstacles.
  std::optional<YamlReader> requestIn, sceneIn;
  std::optional<MotionPlanRequest> request;
  const YAML::Node moveit = root["moveit"];
  if (moveit) {
    in.requireMap(moveit, "moveit", {"scene", "request"});
    for (const char* key : {"start", "goal", "scene"})
      if (root[key]) in.fail(root[key], fmt::format("a problem with 'moveit' takes '{}' from the MoveIt files", key));
    requestIn.emplace(in.path(in.require(moveit, "request", "moveit"), "moveit.request"));
    request = readMotionPlanRequest(*requestIn);
    if (moveit["scene"]) sceneIn.emplace(in.path(moveit["scene"], "moveit.scene"));
  }

  const auto allowed = sceneIn ? readAllowedCollisions(*sceneIn) : std::vector<std::pair<std::string, std::string>>{};
  auto robot = readRobot(in, root, request ? &*request : nullptr, allowed);
  const PrimitiveMode primitives =
      root["primitives"] && in.oneOf(root["primitives"], "primitives", {"native", "tessellated"}) == "tessellated"
          ? PrimitiveMode::Tessellated
          : PrimitiveMode::Native;
  std::shared_ptr<Scene> scene;
  if (moveit) {
    scene = std::make_shared<Scene>(primitives);
    if (sceneIn)
      readPlanningScene(*sceneIn, *scene, dynamic_cast<const KinematicChain&>(*robot).description().frames[0].name);
  } else {
    scene = readScene(in, root, primitives);
  }
  problem.robot = robot;
  problem.scene = scene;

  // Where start and goal were written, for errors about them.
  struct Endpoint {
    const YamlReader* reader;
    YAML::Node node;
    Config* q;
    const char* what;
  };
  std::array<Endpoint, 2> endpoints{};
  if (request) {
    problem.start = jointsToConfig(*requestIn, request->start_node, "start_state", *robot, request->start);
    std::map<std::string, double> goal;
    for (const auto& [name, value] : request->goal) {
      const auto& names = robot->coordinateNames();
      if (std::find(names.begin(), names.end(), name) == names.end())
        requestIn->fail(request->goal_node, fmt::format("the goal constrains joint '{}', which is not in planning group '{}' "
                                                        "(planned joints: {})",
                                                        name, request->group, fmt::join(names, ", ")));
      goal[name] = value;
    }
    problem.goal = jointsToConfig(*requestIn, request->goal_node, "goal", *robot, goal);
    endpoints = {Endpoint{&*requestIn, request->start_node, &problem.start, "start"},
                 Endpoint{&*requestIn, request->goal_node, &problem.goal, "goal"}};
  } else {
    const YAML::Node startNode = in.require(root, "start", "problem");
    const YAML::Node goalNode = in.require(root, "goal", "problem");
    problem.start = readConfig(in, startNode, "start", *robot);
    problem.goal = readConfig(in, goalNode, "goal", *robot);
    endpoints = {Endpoint{&in, startNode, &problem.start, "start"}, Endpoint{&in, goalNode, &problem.goal, "goal"}};
  }
  readPlanner(in, root, problem.planner);
  readChecker(in, root, problem.checker);
  if (root["scale"]) {
    // The same problem in other units: every length (geometry, poses, bounds,
    // translations and prismatic joints, the checkers' lengths) times the
    // factor, angles unchanged. Soundness must not depend on the unit.
    const double factor = in.positive(root["scale"], "scale");
    if (!(factor >= 1e-9 && factor <= 1e9)) in.fail(root["scale"], "scale must lie in [1e-9, 1e9]");
    robot = robot->scaled(factor);
    scene = scene->scaled(factor);
    problem.robot = robot;
    problem.scene = scene;
    robot->scaleConfig(problem.start, factor);
    robot->scaleConfig(problem.goal, factor);
    LengthScaler lengths{factor};
    forEachStrategy(problem.checker, [&](std::string_view, auto& settings) { settings.fields(lengths); });
  }
  try {
    // The sections were checked field by field as they were read; this
    // catches what `scale` may have pushed out of range.
    forEachStrategy(problem.checker, [&](std::string_view name, auto& settings) {
      validateFields(settings, fmt::format("checker.{}", name));
    });
    makePlanner(problem.planner);
  } catch (const std::invalid_argument& e) {
    in.fail(root, e.what());
  }
  if (options.checkEndpoints) {
    CollisionQueries collision(problem.robot, problem.scene, Geometry::Mesh);
    for (const auto& e : endpoints) {
      if (!robot->inBounds(*e.q)) {
        std::string outside;
        // Bounds cover the bounded coordinates only (translation for rigid bodies).
        for (Eigen::Index i = 0; i < std::min(e.q->size(), robot->bounds().lower.size()); ++i)
          if (!((*e.q)[i] >= robot->bounds().lower[i] && (*e.q)[i] <= robot->bounds().upper[i]))
            outside += fmt::format("{}{} = {} not in [{}, {}]", outside.empty() ? "" : ", ",
                                   robot->coordinateNames()[static_cast<std::size_t>(i)], (*e.q)[i],
                                   robot->bounds().lower[i], robot->bounds().upper[i]);
        e.reader->fail(e.node, fmt::format("the {} configuration is out of bounds ({})", e.what,
                                           outside.empty() ? "a coordinate is not finite" : outside));
      }
      CheckStats ignored;
      Contact contact;
      if (collision.inCollision(*e.q, ignored, &contact))
        e.reader->fail(e.node, fmt::format("the {} configuration is in collision ({})", e.what,
                                           describe(contact, *robot, *problem.scene)));
    }
  }
  return problem;
}
}  // namespace

}  // namespace prmkit
