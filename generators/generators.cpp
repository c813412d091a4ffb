#include "generators/generators.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

namespace prmkit {

namespace {
constexpr double kPi = std::numbers::pi;

void requirePositive(double v, const char* what) {
  if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument(std::string(what) + " must be positive");
}

/// Generator counts are bounded so that no generated mesh exceeds the
/// triangles a mesh file may hold (kMaxMeshTriangles): a count of 10^9 teeth
/// would otherwise overflow the int index arithmetic or exhaust memory.
void requireCountAtMost(long count, long most, const char* what) {
  if (count > most) throw std::invalid_argument(fmt::format("{} is at most {}, got {}", what, most, count));
}

/// The side triangles of a tube whose vertices are `rings` consecutive rings
/// of `sides` vertices each, starting at vertex `first`.
void appendTubeSides(Mesh& m, int first, int rings, int sides) {
  for (int s = 0; s + 1 < rings; ++s)
    for (int k = 0; k < sides; ++k) {
      const int a = first + s * sides + k, b = first + s * sides + (k + 1) % sides;
      const int c = a + sides, d = b + sides;
      m.triangles.push_back({a, b, d});
      m.triangles.push_back({a, d, c});
    }
}

/// Caps on a tube of `rings` rings of `sides` vertices from vertex 0: a fan
/// round each end's centre (first, then last), facing away from the tube.
void appendTubeCaps(Mesh& m, const Eigen::Vector3d& firstCentre, const Eigen::Vector3d& lastCentre, int rings,
                    int sides) {
  const auto centreIndex = static_cast<int>(m.vertices.size());
  m.vertices.push_back(firstCentre);
  m.vertices.push_back(lastCentre);
  const int last = (rings - 1) * sides;
  for (int k = 0; k < sides; ++k) {
    const int next = (k + 1) % sides;
    m.triangles.push_back({centreIndex, next, k});
    m.triangles.push_back({centreIndex + 1, last + k, last + next});
  }
}

std::vector<Eigen::Vector2d> circle(double radius, int n, double phase = 0.0) {
  std::vector<Eigen::Vector2d> out;
  for (int i = 0; i < n; ++i) {
    const double a = phase + 2 * kPi * i / n;
    out.emplace_back(radius * std::cos(a), radius * std::sin(a));
  }
  return out;
}
}  // namespace

void validate(const SpringParams& p) {
  requirePositive(p.turns, "spring turns");
  requirePositive(p.coil_radius, "spring coil_radius");
  requirePositive(p.wire_radius, "spring wire_radius");
  if (p.segments < 3 || p.sides < 3) throw std::invalid_argument("spring segments and sides must be >= 3");
  requireCountAtMost(p.sides, 1000, "spring sides");
  requireCountAtMost(p.segments, static_cast<long>(kMaxMeshTriangles) / (2 * p.sides),
                     "spring segments (with these sides)");
}

Mesh springMesh(const SpringParams& p) {
  validate(p);
  Mesh m;
  const double length = p.turns * p.pitch;
  // Rings of the tube along the helix; each ring lies in the plane spanned by
  // the helix's normal (radial) and binormal.
  for (int s = 0; s <= p.segments; ++s) {
    const double t = static_cast<double>(s) / p.segments;
    const double a = 2 * kPi * p.turns * t;
    const Eigen::Vector3d centre(p.coil_radius * std::cos(a), p.coil_radius * std::sin(a), length * (t - 0.5));
    const Eigen::Vector3d tangent = Eigen::Vector3d(-p.coil_radius * std::sin(a) * 2 * kPi * p.turns,
                                                    p.coil_radius * std::cos(a) * 2 * kPi * p.turns, length)
                                        .normalized();
    const Eigen::Vector3d radial(std::cos(a), std::sin(a), 0.0);
    const Eigen::Vector3d binormal = tangent.cross(radial).normalized();
    for (int k = 0; k < p.sides; ++k) {
      const double b = 2 * kPi * k / p.sides;
      m.vertices.push_back(centre + p.wire_radius * (std::cos(b) * radial + std::sin(b) * binormal));
    }
  }
  appendTubeSides(m, 0, p.segments + 1, p.sides);
  return m;
}

namespace {
void requireValid(const AlphaPuzzleParams& p) {
  requirePositive(p.radius, "alpha_puzzle radius");
  requirePositive(p.tube_radius, "alpha_puzzle tube_radius");
  requirePositive(p.clearance, "alpha_puzzle clearance");
  if (!(p.overlap > 0 && p.overlap <= kPi)) throw std::invalid_argument("alpha_puzzle overlap must be in (0, pi]");
  if (!(p.radius > 4 * p.tube_radius + p.clearance))
    throw std::invalid_argument("alpha_puzzle radius must exceed 4 tube radii plus the clearance");
  if (p.segments < 8 || p.sides < 3) throw std::invalid_argument("alpha_puzzle segments >= 8 and sides >= 3");
  requireCountAtMost(p.sides, 1000, "alpha_puzzle sides");
  requireCountAtMost(p.segments, static_cast<long>(kMaxMeshTriangles) / (2 * p.sides + 2),
                     "alpha_puzzle segments (with these sides)");
}

/// The two ends' centre lines are one turn apart and must be 4 r +
/// clearance apart (the slot, 2 r + clearance, plus a tube radius on each
/// side), measured square to the helix, which climbs at the angle a with
/// tan a = pitch / (2 pi R): pitch cos a = 4 r + clearance.
double alphaPitch(const AlphaPuzzleParams& p) {
  const double apart = 4 * p.tube_radius + p.clearance, circumference = 2 * kPi * p.radius;
  return apart * circumference / std::sqrt(circumference * circumference - apart * apart);
}

/// The centre line's angle about z at ring `s` (0 to segments).
double alphaAngle(const AlphaPuzzleParams& p, int s) { return -p.overlap / 2 + (2 * kPi + p.overlap) * s / p.segments; }

Eigen::Vector3d alphaCentre(const AlphaPuzzleParams& p, double angle) {
  return Eigen::Vector3d(p.radius * std::cos(angle), p.radius * std::sin(angle),
                         alphaPitch(p) * (angle - kPi) / (2 * kPi));
}
}  // namespace

std::vector<Eigen::Vector3d> alphaPuzzleCentreLine(const AlphaPuzzleParams& p) {
  requireValid(p);
  std::vector<Eigen::Vector3d> line;
  for (int s = 0; s <= p.segments; ++s) line.push_back(alphaCentre(p, alphaAngle(p, s)));
  return line;
}

void validate(const AlphaPuzzleParams& p) { requireValid(p); }

Mesh alphaPuzzleMesh(const AlphaPuzzleParams& p) {
  requireValid(p);
  const double pitch = alphaPitch(p);
  Mesh m;
  const int rings = p.segments + 1;
  for (int s = 0; s < rings; ++s) {
    const double angle = alphaAngle(p, s);
    const Eigen::Vector3d radial(std::cos(angle), std::sin(angle), 0.0);
    const Eigen::Vector3d centre = alphaCentre(p, angle);
    const Eigen::Vector3d tangent =
        Eigen::Vector3d(-p.radius * std::sin(angle), p.radius * std::cos(angle), pitch / (2 * kPi)).normalized();
    const Eigen::Vector3d binormal = tangent.cross(radial).normalized();
    for (int k = 0; k < p.sides; ++k) {
      const double b = 2 * kPi * k / p.sides;
      m.vertices.push_back(centre + p.tube_radius * (std::cos(b) * radial + std::sin(b) * binormal));
    }
  }
  appendTubeSides(m, 0, rings, p.sides);
  appendTubeCaps(m, alphaCentre(p, alphaAngle(p, 0)), alphaCentre(p, alphaAngle(p, p.segments)), rings, p.sides);
  return m;
}

namespace {
void requireValid(const AlphaTubeParams& p) {
  requirePositive(p.loop_radius, "alpha_tube loop_radius");
  requirePositive(p.tube_radius, "alpha_tube tube_radius");
  requirePositive(p.gap, "alpha_tube gap");
  requirePositive(p.tail_length, "alpha_tube tail_length");
  requirePositive(p.hook_radius, "alpha_tube hook_radius");
  requirePositive(p.scale, "alpha_tube scale");
  if (!(p.crossing_angle >= 0.2 && p.crossing_angle <= 2.5))
    throw std::invalid_argument("alpha_tube crossing_angle must be in [0.2, 2.5] rad");
  if (!(std::abs(p.hook_angle) <= kPi)) throw std::invalid_argument("alpha_tube hook_angle must be in [-pi, pi]");
  // A bend tighter than the tube would fold its surface onto itself.
  if (!(p.loop_radius > 2 * p.tube_radius && p.hook_radius > 2 * p.tube_radius))
    throw std::invalid_argument("alpha_tube loop_radius and hook_radius must exceed 2 tube radii");
  if (!(p.tail_length > 2 * p.tube_radius + p.gap))
    throw std::invalid_argument("alpha_tube tail_length must exceed the tube's diameter plus the gap");
  const double reach = p.loop_radius / std::sin(p.crossing_angle / 2) + p.loop_radius + p.tail_length + p.hook_radius;
  if (!(p.scale * reach <= kMaxCoordinate))
    throw std::invalid_argument(fmt::format("alpha_tube reaches past {} m from the origin", kMaxCoordinate));
  if (p.segments < 16 || p.sides < 3) throw std::invalid_argument("alpha_tube segments >= 16 and sides >= 3");
  requireCountAtMost(p.sides, 1000, "alpha_tube sides");
  requireCountAtMost(p.segments, static_cast<long>(kMaxMeshTriangles) / (2 * p.sides + 2),
                     "alpha_tube segments (with these sides)");
}

/// The alpha's centre line at arc length s (unscaled): tail A's hook and
/// straight run into the crossing, on to where the loop's circle touches,
/// round the circle, back to the crossing and out along tail B to its hook.
/// With the half crossing angle g, the circle (radius R) touching both
/// strands' lines through the crossing has its centre at (-R / sin g, 0).
struct AlphaTubePath {
  explicit AlphaTubePath(const AlphaTubeParams& p) : p_(p), g_(p.crossing_angle / 2), c_(p.loop_radius / std::sin(g_)) {
    hook_ = std::abs(p.hook_angle) * p.hook_radius;
    lead_ = c_ * std::cos(g_);
    arc_ = p.loop_radius * (kPi + 2 * g_);
    loop_ = 2 * lead_ + arc_;
  }
  double length() const { return 2 * (hook_ + p_.tail_length) + loop_; }

  Eigen::Vector3d at(double s) const {
    const double tail = hook_ + p_.tail_length, h = 2 * p_.tube_radius + p_.gap;
    if (s <= tail) return tailPoint(tail - s, +1, h / 2);
    if (s >= tail + loop_) return tailPoint(s - tail - loop_, -1, -h / 2);
    const double u = s - tail;  // along the loop, from the first crossing
    const double z = h / 2 - h * u / loop_;
    Eigen::Vector2d xy;
    if (u <= lead_) {
      xy = u * Eigen::Vector2d(-std::cos(g_), -std::sin(g_));
    } else if (u <= lead_ + arc_) {
      // Clockwise round the centre (-c, 0) from the lower touching point.
      const double angle = -(kPi / 2 - g_) - (u - lead_) / p_.loop_radius;
      xy = Eigen::Vector2d(-c_, 0) + p_.loop_radius * Eigen::Vector2d(std::cos(angle), std::sin(angle));
    } else {
      xy = (loop_ - u) * Eigen::Vector2d(-std::cos(g_), std::sin(g_));
    }
    return {xy.x(), xy.y(), z};
  }

 private:
  /// Tail A (side +1, direction (cos g, sin g)) or B (side -1, direction
  /// (cos g, -sin g)) at distance d from the crossing, at height z; past its
  /// straight run it bends away from the other tail (towards it with a
  /// negative hook_angle).
  Eigen::Vector3d tailPoint(double d, double side, double z) const {
    const Eigen::Vector2d direction(std::cos(g_), side * std::sin(g_));
    if (d <= p_.tail_length) return {d * direction.x(), d * direction.y(), z};
    const Eigen::Vector2d end = p_.tail_length * direction;
    // Turning left (side +1) or right (side -1) away from the x axis.
    const double turn = side * (p_.hook_angle >= 0 ? 1.0 : -1.0);
    const Eigen::Vector2d normal = turn * Eigen::Vector2d(-direction.y(), direction.x());
    const Eigen::Vector2d centre = end + p_.hook_radius * normal;
    const double angle = (d - p_.tail_length) / p_.hook_radius;
    const Eigen::Vector2d xy = centre - p_.hook_radius * (std::cos(angle) * normal - std::sin(angle) * direction);
    return {xy.x(), xy.y(), z};
  }

  AlphaTubeParams p_;
  double g_, c_, hook_ = 0, lead_ = 0, arc_ = 0, loop_ = 0;
};
}  // namespace

void validate(const AlphaTubeParams& p) { requireValid(p); }

std::vector<Eigen::Vector3d> alphaTubeCentreLine(const AlphaTubeParams& p) {
  requireValid(p);
  const AlphaTubePath path(p);
  std::vector<Eigen::Vector3d> line;
  for (int i = 0; i <= p.segments; ++i) line.push_back(p.scale * path.at(path.length() * i / p.segments));
  return line;
}

Mesh alphaTubeMesh(const AlphaTubeParams& p) {
  const std::vector<Eigen::Vector3d> line = alphaTubeCentreLine(p);
  const double radius = p.scale * p.tube_radius;
  Mesh m;
  // Rings square to the centre line, their frames carried along it by the
  // rotation from each tangent to the next (parallel transport: no twist).
  const auto tangentAt = [&](std::size_t i) {
    const std::size_t a = i == 0 ? 0 : i - 1, b = std::min(i + 1, line.size() - 1);
    return Eigen::Vector3d((line[b] - line[a]).normalized());
  };
  Eigen::Vector3d tangent = tangentAt(0);
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ().cross(tangent).normalized();
  for (std::size_t i = 0; i < line.size(); ++i) {
    const Eigen::Vector3d next = tangentAt(i);
    normal = (Eigen::Quaterniond::FromTwoVectors(tangent, next) * normal).normalized();
    tangent = next;
    const Eigen::Vector3d binormal = tangent.cross(normal).normalized();
    for (int k = 0; k < p.sides; ++k) {
      const double b = 2 * kPi * k / p.sides;
      m.vertices.push_back(line[i] + radius * (std::cos(b) * normal + std::sin(b) * binormal));
    }
  }
  const int rings = static_cast<int>(line.size());
  appendTubeSides(m, 0, rings, p.sides);
  appendTubeCaps(m, line.front(), line.back(), rings, p.sides);
  return m;
}

void validate(const GearParams& p) {
  if (p.teeth < 3) throw std::invalid_argument("a gear needs at least 3 teeth");
  // extrudeRing makes 8 triangles per profile point, 4 points a tooth.
  requireCountAtMost(p.teeth, static_cast<long>(kMaxMeshTriangles) / 32, "gear teeth");
  requirePositive(p.thickness, "gear thickness");
  if (!(p.bore_radius > 0 && p.bore_radius < p.root_radius && p.root_radius < p.tip_radius))
    throw std::invalid_argument("gear radii must satisfy 0 < bore_radius < root_radius < tip_radius");
}

Mesh gearMesh(const GearParams& p) {
  validate(p);
  // Four profile points per tooth (root, tip, tip, root), each matched with a
  // bore point at the same angle so the ring triangulation stays simple.
  std::vector<Eigen::Vector2d> outer, inner;
  const int perTooth = 4;
  const int n = p.teeth * perTooth;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * kPi * i / n;
    const int phase = i % perTooth;
    const double r = (phase == 1 || phase == 2) ? p.tip_radius : p.root_radius;
    outer.emplace_back(r * std::cos(a), r * std::sin(a));
    inner.emplace_back(p.bore_radius * std::cos(a), p.bore_radius * std::sin(a));
  }
  return extrudeRing(outer, inner, p.thickness);
}

void validate(const GearPlateParams& p) {
  requirePositive(p.clearance, "gear_plate clearance");
  requirePositive(p.plate_size, "gear_plate plate_size");
  requirePositive(p.plate_thickness, "gear_plate plate_thickness");
  requirePositive(p.spindle_length, "gear_plate spindle_length");
  const double holeRadius = p.gear.tip_radius + p.clearance;
  const double spindleRadius = p.gear.bore_radius - p.clearance;
  if (!(spindleRadius > 0))
    throw std::invalid_argument("gear_plate clearance must be smaller than the gear's bore radius");
  if (!(holeRadius < p.plate_size / 2)) throw std::invalid_argument("gear_plate plate_size is too small for the hole");
}

Mesh gearPlateMotorMesh(const GearPlateParams& p) {
  validate(p);
  const double holeRadius = p.gear.tip_radius + p.clearance;
  const double spindleRadius = p.gear.bore_radius - p.clearance;
  Mesh m;
  // Plate: ring between the hole (circumscribed... inscribed polygon keeps the
  // hole no larger than the nominal one) and the square boundary.
  const int n = 64;
  std::vector<Eigen::Vector2d> hole = circle(holeRadius * std::cos(kPi / n), n), square;
  for (const auto& h : hole) {
    const Eigen::Vector2d d = h.normalized();
    const double s = (p.plate_size / 2) / std::max(std::abs(d.x()), std::abs(d.y()));
    square.push_back(d * s);
  }
  Mesh plate = extrudeRing(square, hole, p.plate_thickness);
  m.append(plate, Transform(Eigen::Translation3d(0, 0, p.plate_height)));
  // Motor block on the floor and its spindle along z.
  const double motorHeight = 0.5;
  m.append(boxMesh({1.5, 1.5, motorHeight}), Transform(Eigen::Translation3d(0, 0, motorHeight / 2)));
  m.append(cylinderMesh(spindleRadius, p.spindle_length, 32),
           Transform(Eigen::Translation3d(0, 0, motorHeight + p.spindle_length / 2)));
  return m;
}

void validate(const SlotWallParams& p) {
  requirePositive(p.thickness, "slot_wall thickness");
  if (!(p.slot_width > 0 && p.slot_width < p.width && p.slot_height > 0 && p.slot_height < p.height))
    throw std::invalid_argument("slot_wall slot must be positive and smaller than the wall");
}

Mesh slotWallMesh(const SlotWallParams& p) {
  validate(p);
  Mesh m;
  const double sideWidth = (p.width - p.slot_width) / 2;
  const double capHeight = (p.height - p.slot_height) / 2;
  // Left and right columns span the full height; top and bottom caps span the slot width.
  for (double sign : {-1.0, 1.0}) {
    m.append(boxMesh({p.thickness, sideWidth, p.height}),
             Transform(Eigen::Translation3d(0, sign * (p.slot_width / 2 + sideWidth / 2), 0)));
    m.append(boxMesh({p.thickness, p.slot_width, capHeight}),
             Transform(Eigen::Translation3d(0, 0, sign * (p.slot_height / 2 + capHeight / 2))));
  }
  return m;
}

void validate(const TwistedSlotParams& p) {
  if (p.plates < 2) throw std::invalid_argument("twisted_slot needs at least 2 plates");
  requireCountAtMost(p.plates, 10'000, "twisted_slot plates");
  requirePositive(p.spacing, "twisted_slot spacing");
  if (!(p.thickness > 0 && p.thickness < p.spacing))
    throw std::invalid_argument("twisted_slot thickness must be positive and below the spacing");
  if (!std::isfinite(p.twist)) throw std::invalid_argument("twisted_slot twist must be finite");
  validate(SlotWallParams{p.size, p.size, p.thickness, p.slot_width, p.slot_height});
}

Mesh twistedSlotMesh(const TwistedSlotParams& p) {
  validate(p);
  const Mesh plate = slotWallMesh({p.size, p.size, p.thickness, p.slot_width, p.slot_height});
  Mesh m;
  for (int k = 0; k < p.plates; ++k) {
    const double x = (k - 0.5 * (p.plates - 1)) * p.spacing;
    const double angle = p.twist * k / (p.plates - 1);
    m.append(plate, Transform(Eigen::Translation3d(x, 0, 0)) * Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()));
  }
  return m;
}

void validate(const BugTrapParams& p) {
  requirePositive(p.size, "bug_trap size");
  requirePositive(p.wall, "bug_trap wall");
  requirePositive(p.height, "bug_trap height");
  if (!(p.opening > 0 && p.opening < p.size - 2 * p.wall)) throw std::invalid_argument("bug_trap opening out of range");
  if (!(p.baffle >= 0.0) || !std::isfinite(p.baffle) || !std::isfinite(p.baffle_width))
    throw std::invalid_argument("bug_trap baffle must be >= 0");
  if (p.baffle > 0.0 && !(p.baffle_width > p.opening))
    throw std::invalid_argument("bug_trap baffle_width must exceed the opening");
  if (!(p.flare >= 0.0 && p.flare < 1.2)) throw std::invalid_argument("bug_trap flare must be in [0, 1.2) rad");
  if (p.flare > 0.0 && !(p.lip > 0 && p.lip < p.size - 2 * p.wall))
    throw std::invalid_argument("bug_trap lip out of range");
  if (p.flare > 0.0 && !(p.opening + 2 * p.lip * std::tan(p.flare) + 2 * p.wall < p.size - 2 * p.wall))
    throw std::invalid_argument("bug_trap flared exit is wider than the trap's front wall");
  if (p.baffle > 0.0 && !(p.baffle_width > p.opening + 2 * p.lip * std::tan(p.flare)))
    throw std::invalid_argument("bug_trap baffle_width must exceed the flared exit");
}

Mesh bugTrapMesh(const BugTrapParams& p) {
  validate(p);
  Mesh m;
  const double h = p.size / 2;
  const double mouth = p.opening + 2 * p.lip * std::tan(p.flare);  // the exit's width at the front wall
  const double seg = (p.size - mouth) / 2;                         // length of each wall piece beside the opening
  auto box = [&](double sx, double sy, double cx, double cy) {
    m.append(boxMesh({sx, sy, p.height}), Transform(Eigen::Translation3d(cx, cy, 0)));
  };
  box(p.size, p.wall, 0, h - p.wall / 2);          // top
  box(p.size, p.wall, 0, -h + p.wall / 2);         // bottom
  box(p.wall, p.size, -h + p.wall / 2, 0);         // back
  box(p.wall, seg, h - p.wall / 2, h - seg / 2);   // front, above the opening
  box(p.wall, seg, h - p.wall / 2, -h + seg / 2);  // front, below the opening
  // Lips pointing inwards from the opening's edges.
  if (p.flare == 0.0) {
    box(p.lip, p.wall, h - p.lip / 2, p.opening / 2 + p.wall / 2);
    box(p.lip, p.wall, h - p.lip / 2, -p.opening / 2 - p.wall / 2);
  } else {
    // Each lip a wall-thick strip from its inner end (the corridor `opening`
    // wide) out to the front wall, where the mouth is `mouth` wide.
    for (double side : {-1.0, 1.0}) {
      std::vector<Eigen::Vector2d> lip{{h - p.lip, side * p.opening / 2},
                                       {h, side * mouth / 2},
                                       {h, side * (mouth / 2 + p.wall)},
                                       {h - p.lip, side * (p.opening / 2 + p.wall)}};
      m.append(extrudePolygon(lip, p.height), Transform::Identity());
    }
  }
  if (p.lids)
    for (double side : {-1.0, 1.0})
      m.append(boxMesh({p.size, p.size, p.wall}),
               Transform(Eigen::Translation3d(0, 0, side * (p.height + p.wall) / 2)));
  if (p.baffle > 0.0) {
    const double tall = p.lids ? p.height + 2 * p.wall : p.height;
    m.append(boxMesh({p.wall, p.baffle_width, tall}), Transform(Eigen::Translation3d(h + p.baffle + p.wall / 2, 0, 0)));
  }
  return m;
}

namespace {
/// A door between rooms `a` and `b` (b north of a when `along_x`, else east
/// of it): the wall it is in, its centre along that wall and the wall's
/// position across it.
struct HouseDoor {
  int a, b;
  bool along_x;     // the wall runs along x
  double position;  // of the door's centre along the wall
  double across;    // of the wall: y for walls along x, x for the others
};

void checkHouse(const HouseParams& p) {
  if (p.rooms_x < 1 || p.rooms_y < 1) throw std::invalid_argument("house rooms_x and rooms_y must be at least 1");
  requireCountAtMost(p.rooms_x, kMaxHouseRooms, "house rooms_x");
  requireCountAtMost(p.rooms_y, kMaxHouseRooms, "house rooms_y");
  requirePositive(p.room, "house room");
  requirePositive(p.wall, "house wall");
  requirePositive(p.height, "house height");
  requirePositive(p.door_width, "house door_width");
  requirePositive(p.door_height, "house door_height");
  if (!(p.door_height < p.height)) throw std::invalid_argument("house door_height must be below the walls' height");
  // A door keeps 0.3 m of wall on each side and its room's furniture keeps
  // out of 0.8 m deep zones along the walls: a room needs space for both.
  if (!(p.door_width + 2 * p.wall + 0.6 <= p.room) || !(p.room > 2 * 0.8 + p.door_width))
    throw std::invalid_argument("house room is too small for its doors and furniture");
  if (p.furniture < 0) throw std::invalid_argument("house furniture must be >= 0");
  requireCountAtMost(p.furniture, 100, "house furniture");
  // At most eight wall boxes per room besides its furniture, 12 triangles a box.
  requireCountAtMost(static_cast<long>(p.rooms_x) * p.rooms_y * (p.furniture + 8),
                     static_cast<long>(kMaxMeshTriangles) / 12, "house rooms x (furniture + 8)");
}

/// The doors of the house: a random spanning tree of the room grid
/// (randomised Kruskal over the walls between rooms, union-find without
/// recursion), each tree edge a door at a random place along its wall.
std::vector<HouseDoor> houseDoorList(const HouseParams& p) {
  checkHouse(p);
  std::mt19937 rng(p.seed);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const int rooms = p.rooms_x * p.rooms_y;
  struct Wall {
    int a, b;
    bool along_x;
  };
  std::vector<Wall> walls;
  for (int j = 0; j < p.rooms_y; ++j)
    for (int i = 0; i < p.rooms_x; ++i) {
      if (i + 1 < p.rooms_x) walls.push_back({j * p.rooms_x + i, j * p.rooms_x + i + 1, false});
      if (j + 1 < p.rooms_y) walls.push_back({j * p.rooms_x + i, (j + 1) * p.rooms_x + i, true});
    }
  std::shuffle(walls.begin(), walls.end(), rng);
  std::vector<int> parent(static_cast<std::size_t>(rooms));
  for (int r = 0; r < rooms; ++r) parent[static_cast<std::size_t>(r)] = r;
  auto find = [&](int r) {
    while (parent[static_cast<std::size_t>(r)] != r)
      r = parent[static_cast<std::size_t>(r)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(r)])];
    return r;
  };
  const double margin = p.wall / 2 + 0.3 + p.door_width / 2;  // from a room's corner to a door's centre
  std::vector<HouseDoor> doors;
  for (const Wall& w : walls) {
    const int ra = find(w.a), rb = find(w.b);
    if (ra == rb) continue;
    parent[static_cast<std::size_t>(ra)] = rb;
    const int i = w.a % p.rooms_x, j = w.a / p.rooms_x;
    const double offset = uniform(margin, p.room - margin);
    if (w.along_x)
      doors.push_back({w.a, w.b, true, i * p.room + offset, (j + 1) * p.room});
    else
      doors.push_back({w.a, w.b, false, j * p.room + offset, (i + 1) * p.room});
  }
  return doors;
}
}  // namespace

std::vector<Eigen::Vector3d> houseDoors(const HouseParams& p) {
  std::vector<Eigen::Vector3d> centres;
  for (const HouseDoor& d : houseDoorList(p))
    centres.push_back(d.along_x ? Eigen::Vector3d(d.position, d.across, 0) : Eigen::Vector3d(d.across, d.position, 0));
  return centres;
}

void validate(const HouseParams& p) { checkHouse(p); }

Mesh houseMesh(const HouseParams& p) {
  const std::vector<HouseDoor> doors = houseDoorList(p);
  // Each room's doors by the side of the room they are in (0: south, 1:
  // north, 2: west, 3: east; at most one each): walls and furniture look up
  // only their own, so a large house costs time in proportion to its rooms.
  std::vector<std::array<const HouseDoor*, 4>> roomDoors(static_cast<std::size_t>(p.rooms_x * p.rooms_y),
                                                         {nullptr, nullptr, nullptr, nullptr});
  for (const HouseDoor& d : doors) {
    roomDoors[static_cast<std::size_t>(d.a)][d.along_x ? 1 : 3] = &d;
    roomDoors[static_cast<std::size_t>(d.b)][d.along_x ? 0 : 2] = &d;
  }
  auto doorOf = [&](int i, int j, int side) { return roomDoors[static_cast<std::size_t>(j * p.rooms_x + i)][side]; };
  std::mt19937 rng(p.seed + 1);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const double width = p.rooms_x * p.room, depth = p.rooms_y * p.room;
  Mesh m;
  // A box from `lo` to `hi`, skipped when empty (a door at a wall's end).
  auto box = [&](const Eigen::Vector3d& lo, const Eigen::Vector3d& hi) {
    const Eigen::Vector3d size = hi - lo;
    if (size.minCoeff() <= 1e-9) return;
    m.append(boxMesh(size), Transform(Eigen::Translation3d(0.5 * (lo + hi))));
  };
  const double t = p.wall / 2;
  box({-t, -t, -p.wall}, {width + t, depth + t, 0});  // floor
  // A wall along x at y = across from x = from to x = to (or along y), with
  // `gaps` (the doors' centres on it, ascending) cut out: each a gap under a lintel.
  auto wallWithDoors = [&](bool along_x, double across, double from, double to, const std::vector<double>& gaps) {
    auto piece = [&](double a, double b, double z0, double z1) {
      if (along_x)
        box({a, across - t, z0}, {b, across + t, z1});
      else
        box({across - t, a, z0}, {across + t, b, z1});
    };
    double start = from;
    for (const double g : gaps) {
      piece(start, g - p.door_width / 2, 0, p.height);
      piece(g - p.door_width / 2, g + p.door_width / 2, p.door_height, p.height);
      start = g + p.door_width / 2;
    }
    piece(start, to, 0, p.height);
  };
  // Walls along x at every row boundary (outer ones included), whole length;
  // walls along y between them, room by room so that they meet the others.
  for (int j = 0; j <= p.rooms_y; ++j) {
    std::vector<double> gaps;
    for (int i = 0; j < p.rooms_y && i < p.rooms_x; ++i)
      if (const HouseDoor* d = doorOf(i, j, 0)) gaps.push_back(d->position);
    wallWithDoors(true, j * p.room, -t, width + t, gaps);
  }
  for (int i = 0; i <= p.rooms_x; ++i)
    for (int j = 0; j < p.rooms_y; ++j) {
      std::vector<double> gaps;
      if (i < p.rooms_x)
        if (const HouseDoor* d = doorOf(i, j, 2)) gaps.push_back(d->position);
      wallWithDoors(false, i * p.room, j * p.room + t, (j + 1) * p.room - t, gaps);
    }
  // Furniture against the walls, out of the doorways (a door's width plus
  // 0.4 m on each side) and no deeper than 0.8 m, so each room's middle and
  // its ways between doors stay clear.
  for (int j = 0; j < p.rooms_y; ++j)
    for (int i = 0; i < p.rooms_x; ++i) {
      const Eigen::Vector2d lo(i * p.room + t, j * p.room + t), hi((i + 1) * p.room - t, (j + 1) * p.room - t);
      for (int k = 0; k < p.furniture; ++k) {
        for (int attempt = 0; attempt < 20; ++attempt) {
          const int side = static_cast<int>(uniform(0, 4)) % 4;  // 0: south, 1: north, 2: west, 3: east
          const double length = uniform(0.4, 1.4), deep = uniform(0.3, 0.8), tall = uniform(0.4, 2.0);
          const bool alongX = side < 2;
          const double extent = alongX ? hi.x() - lo.x() : hi.y() - lo.y();
          if (length >= extent) continue;
          const double from = (alongX ? lo.x() : lo.y()) + uniform(0, extent - length);
          const double wallAt = side == 0 ? lo.y() : side == 1 ? hi.y() : side == 2 ? lo.x() : hi.x();
          const HouseDoor* d = doorOf(i, j, side);
          if (d && d->position + p.door_width / 2 + 0.4 > from && d->position - p.door_width / 2 - 0.4 < from + length)
            continue;
          const double inward = (side == 0 || side == 2) ? deep : -deep;
          const double a = std::min(wallAt, wallAt + inward), b = std::max(wallAt, wallAt + inward);
          if (alongX)
            box({from, a, 0}, {from + length, b, tall});
          else
            box({a, from, 0}, {b, from + length, tall});
          break;
        }
      }
    }
  return m;
}

Mesh randomObstaclesMesh(const RandomBoxesParams& p) {
  Mesh m;
  for (const Mesh& piece : randomObstacleMeshes(p)) m.append(piece, Transform::Identity());
  return m;
}

void validate(const RandomBoxesParams& p) {
  if (p.count < 0) throw std::invalid_argument("random obstacles count must be >= 0");
  requireCountAtMost(p.count, kMaxRandomObstacles, "random obstacles count");
  if (!(p.min_size > 0 && p.min_size <= p.max_size))
    throw std::invalid_argument("random obstacles need 0 < min_size <= max_size");
}

std::vector<Mesh> randomObstacleMeshes(const RandomBoxesParams& p) {
  validate(p);
  std::mt19937 rng(p.seed);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  std::vector<Mesh> pieces;
  for (int i = 0; i < p.count; ++i) {
    const Eigen::Vector3d centre(
        uniform(p.region_min.x(), p.region_max.x()), uniform(p.region_min.y(), p.region_max.y()),
        p.planar ? (p.region_min.z() + p.region_max.z()) / 2 : uniform(p.region_min.z(), p.region_max.z()));
    const double zSize = p.planar ? (p.region_max.z() - p.region_min.z()) : uniform(p.min_size, p.max_size);
    if (p.polygons) {
      // Random convex polygon: sorted angles on an ellipse.
      const int corners = 3 + static_cast<int>(rng() % 5);
      std::vector<double> angles;
      for (int k = 0; k < corners; ++k) angles.push_back(uniform(0, 2 * kPi));
      std::sort(angles.begin(), angles.end());
      const double rx = uniform(p.min_size, p.max_size) / 2, ry = uniform(p.min_size, p.max_size) / 2;
      std::vector<Eigen::Vector2d> polygon;
      for (double a : angles) polygon.emplace_back(rx * std::cos(a), ry * std::sin(a));
      try {
        Mesh piece;
        piece.append(extrudePolygon(polygon, zSize), Transform(Eigen::Translation3d(centre)));
        pieces.push_back(std::move(piece));
      } catch (const std::invalid_argument&) {
        // Near-collinear angle draws give a sliver: skip it, the seed stays deterministic.
      }
    } else {
      const Eigen::Vector3d size(uniform(p.min_size, p.max_size), uniform(p.min_size, p.max_size), zSize);
      Mesh piece;
      piece.append(boxMesh(size), Transform(Eigen::Translation3d(centre)));
      pieces.push_back(std::move(piece));
    }
  }
  return pieces;
}

}  // namespace prmkit
