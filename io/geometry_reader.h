#pragma once
// The geometry parts of a prmkit problem file (docs/problem-format.md):
// poses, the geometry keys of obstacles and robot bodies (primitives,
// meshes, polygons, generators) and the scene. Every error goes through the
// YamlReader, so it names file:line:column.
#include "io/generator_reader.h"
#include "shapes/primitive.h"
#include "scene/scene.h"
#include "io/yaml_reader.h"

#include <fmt/format.h>

#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace prmkit {

/// A pose: `xyz` and either `rpy` (URDF's fixed axes) or `quaternion` (x, y, z, w).
Transform readPose(const YamlReader& in, const YAML::Node& node, const std::string& what);

/// The axes a mesh's `center: true` moves its reference point to the origin
/// along: all three, or x and y alone for a body that moves in the plane
/// (OMPL.app keeps a 2D robot's height as the file has it).
enum class CenterAxes { Space, Plane };

/// A mesh file a problem names: read when the geometry is built.
struct MeshFileSpec {
  std::filesystem::path file;
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  bool center = false;  // OMPL.app's reference point moved to the origin
  CenterAxes center_axes = CenterAxes::Space;
  std::string at;  // where the file was named (file:line:column), for its errors
};
/// One geometry key as read and validated, with nothing built and no file
/// read: a primitive, a polygon's extrusion (the points the file gives), a
/// mesh file or a generator.
struct GeometrySpec {
  std::variant<Primitive, Mesh, MeshFileSpec, GeneratorSpec> shape;
  std::string at;  // where the key was written, for errors while building
};

/// Exactly one geometry key of `node`: box, sphere, cylinder (primitives),
/// mesh, polygon or generator, every key and number checked.
GeometrySpec readGeometrySpec(const YamlReader& in, const YAML::Node& node, const std::string& what,
                              CenterAxes centerAxes = CenterAxes::Space);
/// The shape: the mesh file read, the generator run; throws InputError at the spec's place.
Shape buildGeometry(const GeometrySpec& spec);

/// One obstacle of `scene.obstacles` as read.
struct ObstacleSpec {
  std::string name;
  Transform pose = Transform::Identity();
  GeometrySpec geometry;
  /// A `random` generator with `separate: true`: one obstacle per box, named name0, name1, ...
  bool separate = false;
  std::string at;  // where the obstacle was written
};
/// The `scene` key as read, every obstacle checked before any is built.
struct SceneSpec {
  std::vector<ObstacleSpec> obstacles;
  std::optional<BroadPhase> broad_phase;
};
SceneSpec readSceneSpec(const YamlReader& in, const YAML::Node& root);
/// The scene: every obstacle's geometry built, in the file's order.
std::shared_ptr<Scene> buildScene(const SceneSpec& spec, PrimitiveMode primitives);
/// The broad phase named by `scene.broadphase`, if given.
std::optional<BroadPhase> readBroadPhase(const YamlReader& in, const YAML::Node& sceneNode);

/// Sets `out` from node[key] when present: an integer the field can hold, or a number.
template <class T>
void setNumber(const YamlReader& in, const YAML::Node& node, const char* key, const std::string& what, T& out) {
  if (!node[key]) return;
  if constexpr (std::is_integral_v<T>) {
    // A number the field cannot hold is refused, not wrapped (a seed of 2^32 is not seed 0).
    constexpr long most = std::numeric_limits<T>::max() > std::numeric_limits<long>::max()
                              ? std::numeric_limits<long>::max()
                              : static_cast<long>(std::numeric_limits<T>::max());
    out = static_cast<T>(in.integer(node[key], what + "." + key, 0, most));
  } else {
    out = in.number(node[key], what + "." + key);
  }
}

}  // namespace prmkit
