#include "io/geometry_reader.h"

#include "io/generator_reader.h"
#include "io/mesh_reader.h"

#include "generators/generators.h"
#include "base/input_file.h"
#include "shapes/mesh.h"
#include "robots/robot.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace prmkit {

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

namespace {
/// The shape of one geometry key `kind` (its node `g`), read and validated.
decltype(GeometrySpec::shape) readShape(const YamlReader& in, const std::string& kind, const YAML::Node& g,
                                        const std::string& gwhat, CenterAxes centerAxes) {
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
    MeshFileSpec file;
    if (g["scale"]) {
      if (g["scale"].IsSequence()) {
        file.scale = in.vector(g["scale"], gwhat + ".scale", 3);
        // A negative factor mirrors the mesh; zero would flatten it.
        if ((file.scale.array() == 0.0).any()) in.fail(g["scale"], "mesh scale factors must be nonzero");
      } else
        file.scale.setConstant(in.positive(g["scale"], gwhat + ".scale"));
    }
    const YAML::Node fileNode = in.require(g, "file", gwhat);
    file.file = in.path(fileNode, gwhat + ".file");
    file.at = in.where(fileNode);
    file.center = g["center"] && in.boolean(g["center"], gwhat + ".center");
    file.center_axes = centerAxes;
    return file;
  }
  if (kind == "polygon") {
    in.requireMap(g, gwhat, {"points", "height"});
    const YAML::Node points = in.require(g, "points", gwhat);
    if (!points.IsSequence()) in.fail(points, "expected a list of [x, y] points");
    std::vector<Eigen::Vector2d> polygon;
    for (const auto& p : points) polygon.emplace_back(in.vector(p, gwhat + ".points", 2));
    const double height = g["height"] ? in.positive(g["height"], gwhat + ".height") : 0.1;
    // The points the file gives, extruded (as small as the file's list).
    return extrudePolygon(polygon, height);
  }
  return readGenerator(in, g, gwhat);
}
}  // namespace

GeometrySpec readGeometrySpec(const YamlReader& in, const YAML::Node& node, const std::string& what,
                              CenterAxes centerAxes) {
  std::vector<std::string> present;
  for (const char* key : {"box", "sphere", "cylinder", "mesh", "polygon", "generator"})
    if (node[key]) present.emplace_back(key);
  if (present.size() != 1)
    in.fail(node, fmt::format("'{}' needs exactly one of box, sphere, cylinder, mesh, polygon, generator", what));
  const std::string& kind = present[0];
  const YAML::Node g = node[kind];
  const std::string gwhat = what + "." + kind;
  try {
    return GeometrySpec{readShape(in, kind, g, gwhat, centerAxes), in.where(g)};
  } catch (const std::invalid_argument& e) {
    in.fail(g, e.what());
  }
}

Shape buildGeometry(const GeometrySpec& spec) {
  try {
    if (const auto* primitive = std::get_if<Primitive>(&spec.shape)) return *primitive;
    if (const auto* polygon = std::get_if<Mesh>(&spec.shape)) return *polygon;
    if (const auto* generator = std::get_if<GeneratorSpec>(&spec.shape)) return generateMesh(*generator);
    const MeshFileSpec& file = std::get<MeshFileSpec>(spec.shape);
    try {
      Mesh mesh = loadMeshFile(file.file, file.scale);
      // OMPL.app's convention: a robot's pose is that of its reference
      // point, taken from the vertices as OMPL.app reads them (not from
      // the welded mesh, whose shared corners count once).
      if (file.center) {
        Eigen::Vector3d reference = omplAppVertexMean(file.file).cwiseProduct(file.scale);
        if (file.center_axes == CenterAxes::Plane) reference.z() = 0.0;
        mesh = mesh.transformed(Transform(Eigen::Translation3d(-reference)));
      }
      return mesh;
    } catch (const MeshLoadError& e) {
      throw InputError(fmt::format("{}: {}", file.at, e.what()));
    }
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: {}", spec.at, e.what()));
  }
}

SceneSpec readSceneSpec(const YamlReader& in, const YAML::Node& root) {
  SceneSpec spec;
  const YAML::Node node = root["scene"];
  if (!node) return spec;
  in.requireMap(node, "scene", {"obstacles", "broadphase"});
  spec.broad_phase = readBroadPhase(in, node);
  const YAML::Node obstacles = node["obstacles"];
  if (!obstacles) return spec;
  if (!obstacles.IsSequence()) in.fail(obstacles, "expected 'scene.obstacles' to be a list");
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const YAML::Node o = obstacles[i];
    const std::string what = fmt::format("scene.obstacles[{}]", i);
    in.requireMap(o, what, {"name", "pose", "box", "sphere", "cylinder", "mesh", "polygon", "generator"});
    ObstacleSpec obstacle;
    obstacle.at = in.where(o);
    obstacle.name = o["name"] ? in.string(o["name"], what + ".name") : fmt::format("obstacle{}", i);
    if (o["pose"]) obstacle.pose = readPose(in, o["pose"], what + ".pose");
    if (const YAML::Node generator = o["generator"];
        generator && separateObstacles(in, generator, what + ".generator")) {
      if (in.string(in.require(generator, "type", what + ".generator"), what + ".generator.type") != "random")
        in.fail(generator["separate"], "only the 'random' generator makes separate obstacles");
      const RandomBoxesParams params = readRandomParams(in, generator, what + ".generator");
      try {
        validate(params);
      } catch (const std::invalid_argument& e) {
        in.fail(o, e.what());
      }
      obstacle.separate = true;
      obstacle.geometry = GeometrySpec{GeneratorSpec(params), in.where(generator)};
    } else {
      obstacle.geometry = readGeometrySpec(in, o, what);
    }
    spec.obstacles.push_back(std::move(obstacle));
  }
  return spec;
}

std::shared_ptr<Scene> buildScene(const SceneSpec& spec, PrimitiveMode primitives) {
  auto scene = std::make_shared<Scene>(primitives);
  for (const ObstacleSpec& o : spec.obstacles) {
    try {
      if (o.separate) {
        const auto pieces =
            randomObstacleMeshes(std::get<RandomBoxesParams>(std::get<GeneratorSpec>(o.geometry.shape)));
        for (std::size_t k = 0; k < pieces.size(); ++k)
          scene->addObstacle(fmt::format("{}{}", o.name, k), pieces[k], o.pose);
        continue;
      }
      scene->addObstacle(o.name, buildGeometry(o.geometry), o.pose);
    } catch (const std::invalid_argument& e) {
      throw InputError(fmt::format("{}: {}", o.at, e.what()));
    }
  }
  if (spec.broad_phase) scene->setBroadPhase(*spec.broad_phase);
  return scene;
}

std::optional<BroadPhase> readBroadPhase(const YamlReader& in, const YAML::Node& sceneNode) {
  if (!sceneNode || !sceneNode["broadphase"]) return std::nullopt;
  const std::vector<std::string> names{"none", "aabb_tree", "sort_and_sweep", "hash"};
  const std::string kind = in.oneOf(sceneNode["broadphase"], "scene.broadphase", names);
  for (const BroadPhase b : {BroadPhase::None, BroadPhase::AabbTree, BroadPhase::SortAndSweep, BroadPhase::Hash})
    if (broadPhaseName(b) == kind) return b;
  return std::nullopt;
}

}  // namespace prmkit
