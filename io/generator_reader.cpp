#include "io/generator_reader.h"

#include "io/geometry_reader.h"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace prmkit {

namespace {
// One reader per generator: the keys it accepts, then each number it takes.
GeneratorSpec readSpring(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "turns", "coil_radius", "wire_radius", "pitch", "segments", "sides"});
  SpringParams p;
  setNumber(in, node, "turns", what, p.turns);
  setNumber(in, node, "coil_radius", what, p.coil_radius);
  setNumber(in, node, "wire_radius", what, p.wire_radius);
  setNumber(in, node, "pitch", what, p.pitch);
  setNumber(in, node, "segments", what, p.segments);
  setNumber(in, node, "sides", what, p.sides);
  return p;
}

void readGearParams(const YamlReader& in, const YAML::Node& node, const std::string& what, GearParams& p) {
  in.requireMap(node, what, {"type", "teeth", "root_radius", "tip_radius", "bore_radius", "thickness"});
  setNumber(in, node, "teeth", what, p.teeth);
  setNumber(in, node, "root_radius", what, p.root_radius);
  setNumber(in, node, "tip_radius", what, p.tip_radius);
  setNumber(in, node, "bore_radius", what, p.bore_radius);
  setNumber(in, node, "thickness", what, p.thickness);
}

GeneratorSpec readGear(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  GearParams p;
  readGearParams(in, node, what, p);
  return p;
}

GeneratorSpec readGearPlate(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what,
                {"type", "gear", "clearance", "plate_size", "plate_thickness", "plate_height", "spindle_length"});
  GearPlateParams p;
  if (node["gear"]) readGearParams(in, node["gear"], what + ".gear", p.gear);
  setNumber(in, node, "clearance", what, p.clearance);
  setNumber(in, node, "plate_size", what, p.plate_size);
  setNumber(in, node, "plate_thickness", what, p.plate_thickness);
  setNumber(in, node, "plate_height", what, p.plate_height);
  setNumber(in, node, "spindle_length", what, p.spindle_length);
  return p;
}

GeneratorSpec readSlotWall(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "width", "height", "thickness", "slot_width", "slot_height"});
  SlotWallParams p;
  setNumber(in, node, "width", what, p.width);
  setNumber(in, node, "height", what, p.height);
  setNumber(in, node, "thickness", what, p.thickness);
  setNumber(in, node, "slot_width", what, p.slot_width);
  setNumber(in, node, "slot_height", what, p.slot_height);
  return p;
}

GeneratorSpec readTwistedSlot(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "plates", "spacing", "twist", "size", "thickness", "slot_width", "slot_height"});
  TwistedSlotParams p;
  setNumber(in, node, "plates", what, p.plates);
  setNumber(in, node, "spacing", what, p.spacing);
  setNumber(in, node, "twist", what, p.twist);
  setNumber(in, node, "size", what, p.size);
  setNumber(in, node, "thickness", what, p.thickness);
  setNumber(in, node, "slot_width", what, p.slot_width);
  setNumber(in, node, "slot_height", what, p.slot_height);
  return p;
}

GeneratorSpec readBugTrap(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what,
                {"type", "size", "wall", "opening", "lip", "height", "lids", "baffle", "baffle_width", "flare"});
  BugTrapParams p;
  setNumber(in, node, "size", what, p.size);
  setNumber(in, node, "wall", what, p.wall);
  setNumber(in, node, "opening", what, p.opening);
  setNumber(in, node, "lip", what, p.lip);
  setNumber(in, node, "height", what, p.height);
  if (node["lids"]) p.lids = in.boolean(node["lids"], what + ".lids");
  setNumber(in, node, "baffle", what, p.baffle);
  setNumber(in, node, "baffle_width", what, p.baffle_width);
  setNumber(in, node, "flare", what, p.flare);
  return p;
}

GeneratorSpec readAlphaPuzzle(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what, {"type", "radius", "tube_radius", "clearance", "overlap", "segments", "sides"});
  AlphaPuzzleParams p;
  setNumber(in, node, "radius", what, p.radius);
  setNumber(in, node, "tube_radius", what, p.tube_radius);
  setNumber(in, node, "clearance", what, p.clearance);
  setNumber(in, node, "overlap", what, p.overlap);
  setNumber(in, node, "segments", what, p.segments);
  setNumber(in, node, "sides", what, p.sides);
  return p;
}

GeneratorSpec readAlphaTube(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  in.requireMap(node, what,
                {"type", "loop_radius", "tube_radius", "crossing_angle", "gap", "tail_length", "hook_angle",
                 "hook_radius", "scale", "segments", "sides"});
  AlphaTubeParams p;
  setNumber(in, node, "loop_radius", what, p.loop_radius);
  setNumber(in, node, "tube_radius", what, p.tube_radius);
  setNumber(in, node, "crossing_angle", what, p.crossing_angle);
  setNumber(in, node, "gap", what, p.gap);
  setNumber(in, node, "tail_length", what, p.tail_length);
  setNumber(in, node, "hook_angle", what, p.hook_angle);
  setNumber(in, node, "hook_radius", what, p.hook_radius);
  setNumber(in, node, "scale", what, p.scale);
  setNumber(in, node, "segments", what, p.segments);
  setNumber(in, node, "sides", what, p.sides);
  return p;
}

GeneratorSpec readHouse(const YamlReader& in, const YAML::Node& node, const std::string& what) {
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
  return p;
}

GeneratorSpec readRandomObstacles(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  if (separateObstacles(in, node, what))
    in.fail(node["separate"], "'separate' makes one obstacle per box: it applies to scene obstacles only");
  return readRandomParams(in, node, what);
}

}  // namespace

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

bool separateObstacles(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  return node.IsMap() && node["separate"] && in.boolean(node["separate"], what + ".separate");
}

GeneratorSpec readGenerator(const YamlReader& in, const YAML::Node& node, const std::string& what) {
  using Reader = GeneratorSpec (*)(const YamlReader&, const YAML::Node&, const std::string&);
  static const std::vector<std::pair<std::string, Reader>> generators{{"spring", readSpring},
                                                                      {"gear", readGear},
                                                                      {"gear_plate", readGearPlate},
                                                                      {"slot_wall", readSlotWall},
                                                                      {"twisted_slot", readTwistedSlot},
                                                                      {"bug_trap", readBugTrap},
                                                                      {"alpha_puzzle", readAlphaPuzzle},
                                                                      {"alpha_tube", readAlphaTube},
                                                                      {"house", readHouse},
                                                                      {"random", readRandomObstacles}};
  std::vector<std::string> names;
  for (const auto& generator : generators) names.push_back(generator.first);
  const std::string type = in.oneOf(in.require(node, "type", what), what + ".type", names);
  try {
    for (const auto& [name, read] : generators)
      if (name == type) {
        GeneratorSpec spec = read(in, node, what);
        std::visit([](const auto& params) { validate(params); }, spec);
        return spec;
      }
  } catch (const std::invalid_argument& e) {
    in.fail(node, e.what());
  }
  in.fail(node, "unknown generator");  // oneOf refused it already
}

Mesh generateMesh(const GeneratorSpec& spec) {
  return std::visit(
      [](const auto& p) -> Mesh {
        using Params = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<Params, SpringParams>) return springMesh(p);
        if constexpr (std::is_same_v<Params, GearParams>) return gearMesh(p);
        if constexpr (std::is_same_v<Params, GearPlateParams>) return gearPlateMotorMesh(p);
        if constexpr (std::is_same_v<Params, SlotWallParams>) return slotWallMesh(p);
        if constexpr (std::is_same_v<Params, TwistedSlotParams>) return twistedSlotMesh(p);
        if constexpr (std::is_same_v<Params, BugTrapParams>) return bugTrapMesh(p);
        if constexpr (std::is_same_v<Params, AlphaPuzzleParams>) return alphaPuzzleMesh(p);
        if constexpr (std::is_same_v<Params, AlphaTubeParams>) return alphaTubeMesh(p);
        if constexpr (std::is_same_v<Params, HouseParams>) return houseMesh(p);
        if constexpr (std::is_same_v<Params, RandomBoxesParams>) return randomObstaclesMesh(p);
      },
      spec);
}

}  // namespace prmkit
