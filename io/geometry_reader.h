#pragma once
// The geometry parts of a prmkit problem file (docs/problem-format.md):
// poses, the geometry keys of obstacles and robot bodies (primitives,
// meshes, polygons, generators) and the scene. Every error goes through the
// YamlReader, so it names file:line:column.
#include "shapes/primitive.h"
#include "scene/scene.h"
#include "io/yaml_reader.h"

#include <fmt/format.h>

#include <limits>
#include <memory>
#include <string>
#include <type_traits>

namespace prmkit {

/// A pose: `xyz` and either `rpy` (URDF's fixed axes) or `quaternion` (x, y, z, w).
Transform readPose(const YamlReader& in, const YAML::Node& node, const std::string& what);

/// The axes a mesh's `center: true` moves its reference point to the origin
/// along: all three, or x and y alone for a body that moves in the plane
/// (OMPL.app keeps a 2D robot's height as the file has it).
enum class CenterAxes { Space, Plane };

/// Exactly one geometry key of `node`: box, sphere, cylinder (primitives), mesh, polygon or generator.
Shape readGeometry(const YamlReader& in, const YAML::Node& node, const std::string& what,
                   CenterAxes centerAxes = CenterAxes::Space);

/// The `scene` key: its obstacles, each a geometry with a name and a pose.
std::shared_ptr<Scene> readScene(const YamlReader& in, const YAML::Node& root, PrimitiveMode primitives);
/// Selects the scene's broad phase from `scene.broadphase` (if given).
void readBroadPhase(const YamlReader& in, const YAML::Node& sceneNode, Scene& scene);

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
