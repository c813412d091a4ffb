#pragma once
// Procedural obstacles and bodies that ship with prmkit, so every shipped
// problem works from a fresh clone without third-party data.
#include "shapes/mesh.h"

#include <cstdint>

namespace prmkit {

// Each generator's parameters have a `validate` (std::invalid_argument naming
// what is wrong), which its mesh function calls first: a problem reader
// checks a whole scene's parameters before it generates any of it.

struct SpringParams {
  double turns = 5.0;
  double coil_radius = 1.0;
  double wire_radius = 0.1;
  double pitch = 0.5;  // rise per turn (m)
  int segments = 150;  // along the helix
  int sides = 6;       // of the wire cross-section
};
/// Helical tube around z, centred on the origin. The defaults give 150*6*2 =
/// 1800 triangles, the size of the springs in Lin & Li's experiment.
void validate(const SpringParams& params);
Mesh springMesh(const SpringParams& params);

struct GearParams {
  int teeth = 12;
  double root_radius = 0.8;
  double tip_radius = 1.0;
  double bore_radius = 0.25;
  double thickness = 0.3;
};
/// Spur gear (extruded tooth profile) with a round bore, axis along z.
void validate(const GearParams& params);
Mesh gearMesh(const GearParams& params);

struct GearPlateParams {
  GearParams gear;          // the gear that must pass: sizes the hole and the spindle
  double clearance = 0.05;  // radial gap between gear and hole, and between bore and spindle (m)
  double plate_size = 4.0;
  double plate_thickness = 0.2;
  double plate_height = 1.5;  // z of the plate's mid-plane
  double spindle_length = 1.2;
};
/// Plate with a round hole above a motor block whose spindle is coaxial with
/// the hole (Xavier 1997, the gear/plate/motor scene): the gear must drop
/// through the hole and slide onto the spindle.
void validate(const GearPlateParams& params);
Mesh gearPlateMotorMesh(const GearPlateParams& params);

struct SlotWallParams {
  double width = 4.0;       // wall extent along y
  double height = 4.0;      // wall extent along z
  double thickness = 0.02;  // along x
  double slot_width = 0.6;
  double slot_height = 0.6;
};
/// Thin wall in the plane x = 0 with a rectangular slot at its centre.
void validate(const SlotWallParams& params);
Mesh slotWallMesh(const SlotWallParams& params);

struct TwistedSlotParams {
  int plates = 4;                     // thin walls across x, evenly spaced
  double spacing = 0.35;              // between consecutive walls, along x
  double twist = 1.5707963267948966;  // rotation about x of the last slot relative to the first (rad)
  double size = 3.0;                  // side of each square wall
  double thickness = 0.02;            // of each wall, along x
  double slot_width = 0.66;           // slot extent along y in the first wall
  double slot_height = 0.3;           // slot extent along z in the first wall
};
/// Walls across x (centred on x = 0), each with a rectangular slot turned a
/// little further about x than the one before, so that a flat body longer
/// than the spacing must turn while it threads the slots (the "twisted
/// slot" narrow passage).
void validate(const TwistedSlotParams& params);
Mesh twistedSlotMesh(const TwistedSlotParams& params);

struct BugTrapParams {
  double size = 2.0;     // outer side of the trap
  double wall = 0.1;     // wall thickness
  double opening = 0.3;  // width of the entrance
  double lip = 0.6;      // length of the two inward lips at the entrance
  double height = 0.5;   // extrusion along z
  bool lids = false;     // close the top and bottom: the entrance is the only way out (3D)
  /// > 0: a plate `baffle` in front of the entrance, as tall as the trap
  /// (lids included) and `baffle_width` wide, so what leaves the entrance
  /// must turn sideways between the front wall and the plate.
  double baffle = 0.0;
  double baffle_width = 1.0;
  /// The lips turn outwards by this angle (rad) about their inner ends, so
  /// the exit is `opening` wide inside and flares to opening + 2 lip
  /// tan(flare) at the front wall (0: a straight corridor).
  double flare = 0.0;
};
/// A square trap open at +x whose entrance has two inward lips (the classic
/// bug trap); with lids, a closed box whose one exit is the lipped entrance;
/// with a baffle, the exit also turns a corner; with a flare, the exit
/// widens outwards like a funnel (OMPL.app's bug trap).
void validate(const BugTrapParams& params);
Mesh bugTrapMesh(const BugTrapParams& params);

struct AlphaPuzzleParams {
  double radius = 0.5;        // of the loop, to the tube's centre line (m)
  double tube_radius = 0.05;  // (m)
  /// Where the loop's ends overlap, one runs above the other with a slot
  /// between them as wide as the tube plus this (m): the gap another piece
  /// of the same tube has to pass through.
  double clearance = 0.03;
  double overlap = 0.6;  // angle over which the ends run one above the other (rad)
  int segments = 128;    // along the centre line
  int sides = 16;        // of the tube's cross-section (inscribed: between vertices up to 2 % of r thinner)
};
/// One piece of an alpha puzzle (after the Parasol lab's alpha puzzle that
/// OMPL.app ships: two tubes bent into loops whose ends pass one above the
/// other, interlocked, that part only by threading one tube through the
/// slot between the other's ends). Here the loop is one turn of a helix
/// around z plus `overlap`, centred on the origin, its ends at angle 0 (+x):
/// the lower end runs from -overlap/2 to overlap/2 under the upper one, the
/// tube's diameter plus `clearance` apart (surface to surface). Unlike the
/// public pieces the ends do not cross at an angle and have no tails: tails
/// that diverge past a crossing give another piece a wider way out round
/// their tips, so the slot would not decide the puzzle. Closed tube (capped);
/// the slot is measured between the round tubes, square to them.
void validate(const AlphaPuzzleParams& params);
Mesh alphaPuzzleMesh(const AlphaPuzzleParams& params);
/// The tube's centre line, one point per ring from the lower end to the
/// upper one (what a test of the pieces' linking walks).
std::vector<Eigen::Vector3d> alphaPuzzleCentreLine(const AlphaPuzzleParams& params);

struct AlphaTubeParams {
  double loop_radius = 0.5;     // of the loop's round part, to the tube's centre line (m)
  double tube_radius = 0.05;    // (m)
  double crossing_angle = 1.0;  // between the two strands where they cross (rad)
  /// Where the strands cross, one runs above the other with this gap
  /// between their surfaces (m): what another tube has to pass through.
  double gap = 0.1;
  double tail_length = 0.35;  // straight run of each end past the crossing (m)
  /// Each tail's tip bends by this angle (rad) on a circle of hook_radius,
  /// away from the other tail (negative: towards it); 0: straight tails.
  double hook_angle = 1.5707963267948966;
  double hook_radius = 0.12;  // (m)
  /// Every length above times this: OMPL.app's alpha 1.0 to 1.5 scale the
  /// fixed piece up by these factors, widening its gap with it.
  double scale = 1.0;
  int segments = 256;  // rings along the whole centre line
  int sides = 16;      // of the tube's cross-section (inscribed)
};
/// One piece of the public alpha puzzle's shape (the letter alpha: the
/// Parasol lab's puzzle that OMPL.app ships as alpha 1.0 to 1.5): a tube
/// bent into a round loop whose two ends cross, one above the other, and
/// run on past the crossing as straight tails ending in hooks. The loop
/// lies about the plane z = 0, round part towards -x, the crossing at the
/// origin, the tails towards +x; the first strand crosses at z = +h/2, the
/// second at -h/2 (h = 2 tube_radius + gap), the centre line climbing
/// evenly along the loop between them. Two pieces interlock with each one's
/// tube through the other's loop; they part only through a crossing: the
/// other tube slips between the strands where they are closest and past a
/// hooked tail. Closed tube (capped); the tube is a polygon inscribed in
/// the round one, so the gap between meshes is up to 2 % of a tube radius
/// wider at 16 sides.
void validate(const AlphaTubeParams& params);
Mesh alphaTubeMesh(const AlphaTubeParams& params);
/// The centre line, one point per ring, tail to tail (scaled).
std::vector<Eigen::Vector3d> alphaTubeCentreLine(const AlphaTubeParams& params);

/// Most rooms the `house` generator makes along each side.
inline constexpr int kMaxHouseRooms = 100;

struct HouseParams {
  int rooms_x = 5, rooms_y = 4;  // the grid of rooms
  double room = 4.0;             // side of a room, wall centre to wall centre (m)
  double wall = 0.15;            // thickness of walls and floor (m)
  double height = 2.5;           // of the walls (m)
  double door_width = 0.9;       // (m)
  double door_height = 2.0;      // (m): a lintel closes the wall above
  int furniture = 3;             // pieces per room, along its walls
  std::uint32_t seed = 1;
};
/// A one-storey house of rooms_x x rooms_y square rooms on a floor slab
/// (the floor's top at z = 0, the house from (0, 0) to (rooms_x, rooms_y)
/// times `room`): outer walls closed, and between rooms exactly one door
/// per edge of a random spanning tree of the rooms (seeded), so one way
/// leads from any room to any other, through each room's door once. Each
/// room has `furniture` boxes standing against its walls, up to 0.8 m deep,
/// none within 0.4 m of a door on the same wall: its middle stays clear,
/// though a piece on the wall at right angles may stand up to 0.5 m in
/// front of a door's side near a corner.
/// After OMPL.app's Home problem (a table carried through a house).
void validate(const HouseParams& params);
Mesh houseMesh(const HouseParams& params);
/// The doors' centres on the floor, one per wall with a door (a test
/// checks each is an opening of the mesh and that they join every room).
std::vector<Eigen::Vector3d> houseDoors(const HouseParams& params);

/// Most boxes the `random` generator makes (with `separate`, each is an
/// obstacle with its own BVH and cover; in one mesh, 40 000 polygons of 24
/// triangles stay within kMaxMeshTriangles).
inline constexpr long kMaxRandomObstacles = 40'000;

struct RandomBoxesParams {
  int count = 20;
  Eigen::Vector3d region_min{-5, -5, -0.5};
  Eigen::Vector3d region_max{5, 5, 0.5};
  double min_size = 0.2;
  double max_size = 1.0;
  bool planar = false;    // keep the boxes' z extent equal to the region's (2D scenes)
  bool polygons = false;  // extruded random convex polygons instead of boxes
  std::uint32_t seed = 1;
};
/// Seeded random axis-aligned boxes (or convex polygons) within a region.
void validate(const RandomBoxesParams& params);
Mesh randomObstaclesMesh(const RandomBoxesParams& params);
/// The same boxes (or polygons) one mesh each, in the same order: obstacles of their own.
std::vector<Mesh> randomObstacleMeshes(const RandomBoxesParams& params);

}  // namespace prmkit
