#include "io/geometry_reader.h"

#include "io/mesh_reader.h"

#include "generators/generators.h"
#include "base/input_file.h"
#include "shapes/mesh.h"
#include "robots/robot.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace prmkit {

namespace {
// One reader per generator: the keys it accepts, then each number it takes.
Mesh readSpring(const YamlReader& in, const YAML::Node& node, const std::string& what) {
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

void readGearParams(const YamlReader& in, const YAML::Node& node, const std::string& what, GearParams& p) {
  in.requireMap(node, what, {"type", "teeth", "root_radius", "tip_radius", "bore_radius", "thickness"});
  setNumber(in, node, "teeth", what, p.teeth);
  setNumber(in, node, "root_radius", what, p.root_radius);
  setNumber(in, node, "tip_radius", what, p.tip_radius);
  setNumber(in, node, "bore_radius", what, p.bore_radius);
  setNumber(in, node, "thickness", what, p.thickness);
}

Mesh readGear(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  GearParams p;
  readGearParams(in, node, what, p);
  return gearMesh(p);
}

Mesh readGearPlate(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what,
                {"type", "gear", "clearance", "plate_size", "plate_thickness", "plate_height", "spindle_length"});
  GearPlateParams p;
  if (node["gear"]) readGearParams(in, node["gear"], what + ".gear", p.gear);
  setNumber(in, node, "clearance", what, p.clearance);
  setNumber(in, node, "plate_size", what, p.plate_size);
  setNumber(in, node, "plate_thickness", what, p.plate_thickness);
  setNumber(in, node, "plate_height", what, p.plate_height);
  setNumber(in, node, "spindle_length", what, p.spindle_length);
  return gearPlateMotorMesh(p);
}

Mesh readSlotWall(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "width", "height", "thickness", "slot_width", "slot_height"});
  SlotWallParams p;
  setNumber(in, node, "width", what, p.width);
  setNumber(in, node, "height", what, p.height);
  setNumber(in, node, "thickness", what, p.thickness);
  setNumber(in, node, "slot_width", what, p.slot_width);
  setNumber(in, node, "slot_height", what, p.slot_height);
  return slotWallMesh(p);
}

Mesh readTwistedSlot(const YamlReader& in, const YAML::Node& node, const std::string& what) {
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

Mesh readBugTrap(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "size", "wall", "opening", "lip", "height", "lids", "baffle", "baffle_width"});
  BugTrapParams p;
  setNumber(in, node, "size", what, p.size);
  setNumber(in, node, "wall", what, p.wall);
  setNumber(in, node, "opening", what, p.opening);
  setNumber(in, node, "lip", what, p.lip);
  setNumber(in, node, "height", what, p.height);
  if (node["lids"]) p.lids = in.boolean(node["lids"], what + ".lids");
  setNumber(in, node, "baffle", what, p.baffle);
  setNumber(in, node, "baffle_width", what, p.baffle_width);
  return bugTrapMesh(p);
}

Mesh readAlphaPuzzle(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "radius", "tube_radius", "clearance", "overlap", "segments", "sides"});
  AlphaPuzzleParams p;
  setNumber(in, node, "radius", what, p.radius);
  setNumber(in, node, "tube_radius", what, p.tube_radius);
  setNumber(in, node, "clearance", what, p.clearance);
  setNumber(in, node, "overlap", what, p.overlap);
  setNumber(in, node, "segments", what, p.segments);
  setNumber(in, node, "sides", what, p.sides);
  return alphaPuzzleMesh(p);
}

Mesh readHouse(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(
      node, what,
      {"type", "rooms_x", "rooms_y", "room", "wall", "height", "door_width", "door_height", "furniture", "seed"});
  HouseParams p;
  setNumber(in, node, "rooms_x", what, p.rooms_x);
  setNumber(in, node, "rooms_y", what, p.rooms_y);
  setNumber(in, node, "room", what, p.room);
  setNumber(in, node, "wall", what, p.wall);
  setNumber(in, node, "height", what, p.height);
  setNumber(in, node, "door_width", what, p.door_width);
  setNumber(in, node, "door_height", what, p.door_height);
  setNumber(in, node, "furniture", what, p.furniture);
  setNumber(in, node, "seed", what, p.seed);
  return houseMesh(p);
}

RandomBoxesParams readRandomParams(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(
      node, what,
      {"type", "count", "region_min", "region_max", "min_size", "max_size", "planar", "polygons", "seed", "separate"});
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
  return p;
}

/// `separate: true` asks for one obstacle per box.
bool separateObstacles(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  return node.IsMap() && node["separate"] && in.boolean(node["separate"], what + ".separate");
}

Mesh readRandomObstacles(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  if (separateObstacles(in, node, what))
    in.fail(node["separate"], "'separate' makes one obstacle per box: it applies to scene obstacles only");
  return randomObstaclesMesh(readRandomParams(in, node, what));
}

Mesh readGenerator(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  using Reader = Mesh (*)(const YamlReader&, const YAML::Node&, const std::string&);
  static const std::vector<std::pair<std::string, Reader>> generators{{"spring", readSpring},
                                                                      {"gear", readGear},
                                                                      {"gear_plate", readGearPlate},
                                                                      {"slot_wall", readSlotWall},
                                                                      {"twisted_slot", readTwistedSlot},
                                                                      {"bug_trap", readBugTrap},
                                                                      {"alpha_puzzle", readAlphaPuzzle},
                                                                      {"house", readHouse},
                                                                      {"random", readRandomObstacles}};
  std::vector<std::string> names;
  for (const auto& generator : generators) names.push_back(generator.first);
  const std::string type = in.oneOf(in.require(node, "type", what), what + ".type", names);
  try {
    for (const auto& [name, read] : generators)
      if (name == type) return read(in, node, what);
  } catch (const std::invalid_argument& e) {
    in.fail(node, e.what());
  }
  in.fail(node, "unknown generator");  // oneOf refused it already
}
}  // namespace

Transform readPose(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"xyz", "rpy", "quaternion"});
  Transform pose = Transform::Identity();
  if (node["xyz"]) pose.translation() = in.vector(node["xyz"], what + ".xyz", 3);
  if (node["rpy"] && node["quaternion"]) in.fail(node, fmt::format("'{}' takes rpy or quaternion, not both", what));
  if (node["rpy"]) {
    const Eigen::Vector3d rpy = in.vector(node["rpy"], what + ".rpy", 3);
    // URDF convention: fixed axes X (roll), then Y (pitch), then Z (yaw).
    pose.linear() =
        (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
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

Shape readGeometry(const YamlReader& in, const YAML::Node& node, const std::string& what, CenterAxes centerAxes) {
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
        if (g["scale"].IsSequence()) {
          scale = in.vector(g["scale"], gwhat + ".scale", 3);
          // A negative factor mirrors the mesh; zero would flatten it.
          if ((scale.array() == 0.0).any()) in.fail(g["scale"], "mesh scale factors must be nonzero");
        } else
          scale.setConstant(in.positive(g["scale"], gwhat + ".scale"));
      }
      const YAML::Node fileNode = in.require(g, "file", gwhat);
      try {
        const std::filesystem::path file = in.path(fileNode, gwhat + ".file");
        Mesh mesh = loadMeshFile(file, scale);
        // OMPL.app's convention: a robot's pose is that of its reference
        // point, taken from the vertices as OMPL.app reads them (not from
        // the welded mesh, whose shared corners count once).
        if (g["center"] && in.boolean(g["center"], gwhat + ".center")) {
          Eigen::Vector3d reference = omplAppVertexMean(file).cwiseProduct(scale);
          if (centerAxes == CenterAxes::Plane) reference.z() = 0.0;
          mesh = mesh.transformed(Transform(Eigen::Translation3d(-reference)));
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

namespace {
/// Adds the obstacles of `scene.obstacles` (a list) to the scene.
void readObstacles(const YamlReader& in, const YAML::Node& obstacles, Scene& scene);
}  // namespace

std::shared_ptr<Scene> readScene(const YamlReader& in, const YAML::Node& root, PrimitiveMode primitives) {
  auto scene = std::make_shared<Scene>(primitives);
  const YAML::Node node = root["scene"];
  if (!node) return scene;
  in.requireMap(node, "scene", {"obstacles", "broadphase"});
  const YAML::Node obstacles = node["obstacles"];
  if (obstacles) readObstacles(in, obstacles, *scene);
  readBroadPhase(in, node, *scene);
  return scene;
}

void readBroadPhase(const YamlReader& in, const YAML::Node& sceneNode, Scene& scene) {
  if (!sceneNode || !sceneNode["broadphase"]) return;
  const std::vector<std::string> names{"none", "aabb_tree", "sort_and_sweep", "hash"};
  const std::string kind = in.oneOf(sceneNode["broadphase"], "scene.broadphase", names);
  for (const BroadPhase b : {BroadPhase::None, BroadPhase::AabbTree, BroadPhase::SortAndSweep, BroadPhase::Hash})
    if (broadPhaseName(b) == kind) scene.setBroadPhase(b);
}

namespace {
void readObstacles(const YamlReader& in, const YAML::Node& obstacles, Scene& scene) {
  if (!obstacles.IsSequence()) in.fail(obstacles, "expected 'scene.obstacles' to be a list");
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const YAML::Node o = obstacles[i];
    const std::string what = fmt::format("scene.obstacles[{}]", i);
    in.requireMap(o, what, {"name", "pose", "box", "sphere", "cylinder", "mesh", "polygon", "generator"});
    const std::string name = o["name"] ? in.string(o["name"], what + ".name") : fmt::format("obstacle{}", i);
    const Transform pose = o["pose"] ? readPose(in, o["pose"], what + ".pose") : Transform::Identity();
    try {
      const YAML::Node generator = o["generator"];
      if (generator && separateObstacles(in, generator, what + ".generator")) {
        if (in.string(in.require(generator, "type", what + ".generator"), what + ".generator.type") != "random")
          in.fail(generator["separate"], "only the 'random' generator makes separate obstacles");
        const auto pieces = randomObstacleMeshes(readRandomParams(in, generator, what + ".generator"));
        for (std::size_t k = 0; k < pieces.size(); ++k)
          scene.addObstacle(fmt::format("{}{}", name, k), pieces[k], pose);
        continue;
      }
      scene.addObstacle(name, readGeometry(in, o, what), pose);
    } catch (const std::invalid_argument& e) {
      in.fail(o, e.what());
    }
  }
}

}  // namespace

}  // namespace prmkit
