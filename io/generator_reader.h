#pragma once
// The `generator` geometry key of a prmkit problem file
// (docs/problem-format.md): each generator's parameters read, every key and
// number checked and the parameters validated, before any mesh is made.
#include "generators/generators.h"
#include "io/yaml_reader.h"
#include "shapes/mesh.h"

#include <string>
#include <variant>

namespace prmkit {

/// A generator's parameters, validated: run when the geometry is built.
using GeneratorSpec = std::variant<SpringParams, GearParams, GearPlateParams, SlotWallParams, TwistedSlotParams,
                                   BugTrapParams, AlphaPuzzleParams, AlphaTubeParams, HouseParams, RandomBoxesParams>;

/// The generator `node` names (its `type`), its parameters read and
/// validated; errors name file:line:column.
GeneratorSpec readGenerator(const YamlReader& in, const YAML::Node& node, const std::string& what);
/// A `random` generator's parameters (readGenerator reads them too).
RandomBoxesParams readRandomParams(const YamlReader& in, const YAML::Node& node, const std::string& what);
/// `separate: true` asks for one obstacle per box (scene obstacles only).
bool separateObstacles(const YamlReader& in, const YAML::Node& node, const std::string& what);
/// The generator's mesh.
Mesh generateMesh(const GeneratorSpec& spec);

}  // namespace prmkit
