#include "shapes/mesh.h"

#include "base/termination.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <cctype>
#include <map>

#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <stdexcept>

namespace prmkit {

void Mesh::append(const Mesh& other, const Transform& pose) {
  const int offset = static_cast<int>(vertices.size());
  for (const auto& v : other.vertices) vertices.push_back(pose * v);
  for (const auto& t : other.triangles) triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
}

Mesh Mesh::transformed(const Transform& pose) const {
  Mesh out;
  out.append(*this, pose);
  return out;
}

Mesh Mesh::scaled(double factor) const {
  Mesh out = *this;
  for (auto& v : out.vertices) v *= factor;
  return out;
}

Mesh Mesh::scaledAbout(const Eigen::Vector3d& centre, double factor) const {
  Mesh out = *this;
  for (auto& v : out.vertices) v = centre + factor * (v - centre);
  return out;
}

Mesh Mesh::shrunkAboutCentre(double factor) const { return empty() ? *this : scaledAbout(bounds().center(), factor); }

Eigen::AlignedBox3d Mesh::bounds() const {
  Eigen::AlignedBox3d box;
  for (const auto& v : vertices) box.extend(v);
  return box;
}

double Mesh::radiusAboutOrigin() const {
  double r = 0.0;
  for (const auto& v : vertices) r = std::max(r, v.norm());
  return r;
}

void weldIdenticalVertices(Mesh& mesh) {
  const std::size_t n = mesh.vertices.size();
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) {
    const Eigen::Vector3d& v = mesh.vertices[static_cast<std::size_t>(i)];
    return std::array<double, 3>{v.x(), v.y(), v.z()};
  };
  // Ties broken by index, so that the first vertex of each group leads it.
  std::sort(order.begin(), order.end(), [&](int a, int b) { return std::pair(key(a), a) < std::pair(key(b), b); });
  std::vector<int> leader(n);
  for (std::size_t k = 0; k < n; ++k) {
    const int i = order[k];
    leader[static_cast<std::size_t>(i)] =
        k > 0 && key(order[k - 1]) == key(i) ? leader[static_cast<std::size_t>(order[k - 1])] : i;
  }
  std::vector<int> index(n, -1);
  std::vector<Eigen::Vector3d> kept;
  for (std::size_t i = 0; i < n; ++i)
    if (leader[i] == static_cast<int>(i)) {
      index[i] = static_cast<int>(kept.size());
      kept.push_back(mesh.vertices[i]);
    }
  for (auto& t : mesh.triangles)
    for (int& v : t) v = index[static_cast<std::size_t>(leader[static_cast<std::size_t>(v)])];
  mesh.vertices = std::move(kept);
}

SolidInfo solidInfo(const Mesh& mesh) {
  SolidInfo info;
  info.bounds = mesh.bounds();
  // Closed: every undirected edge appears exactly twice.
  std::map<std::pair<int, int>, int> edges;
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const int a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>((k + 1) % 3)];
      ++edges[{std::min(a, b), std::max(a, b)}];
    }
  info.closed = !edges.empty() && std::all_of(edges.begin(), edges.end(), [](const auto& e) { return e.second == 2; });
  // Components by union-find over the triangles' vertices.
  std::vector<int> parent(mesh.vertices.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int x) {
    while (parent[static_cast<std::size_t>(x)] != x)
      x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    return x;
  };
  for (const auto& t : mesh.triangles) {
    parent[static_cast<std::size_t>(find(t[1]))] = find(t[0]);
    parent[static_cast<std::size_t>(find(t[2]))] = find(t[0]);
  }
  std::vector<bool> seen(mesh.vertices.size(), false);
  for (const auto& t : mesh.triangles) {
    const int root = find(t[0]);
    if (seen[static_cast<std::size_t>(root)]) continue;
    seen[static_cast<std::size_t>(root)] = true;
    info.component_points.push_back(mesh.vertices[static_cast<std::size_t>(t[0])]);
  }
  return info;
}

namespace {
// Directions with no symmetry, so a ray rarely meets an edge exactly.
const Eigen::Vector3d kRayDirections[] = {Eigen::Vector3d(0.5773, 0.5891, 0.5654).normalized(),
                                          Eigen::Vector3d(-0.3127, 0.8492, 0.4253).normalized(),
                                          Eigen::Vector3d(0.7071, -0.2113, 0.6749).normalized()};

enum class RayHit { Miss, Cross, Ambiguous };

/// The ray from `point` along `d` against triangle (a, b, c) (Moller-Trumbore):
/// ambiguous through an edge, a vertex, or from the surface itself.
RayHit rayHit(const Eigen::Vector3d& point, const Eigen::Vector3d& d, const Eigen::Vector3d& a,
              const Eigen::Vector3d& b, const Eigen::Vector3d& c, double scale) {
  const Eigen::Vector3d e1 = b - a;
  const Eigen::Vector3d e2 = c - a;
  const Eigen::Vector3d p = d.cross(e2);
  const double det = e1.dot(p);
  if (std::abs(det) <= 1e-14 * e1.norm() * e2.norm()) return RayHit::Miss;  // parallel to the triangle's plane
  const Eigen::Vector3d s = point - a;
  const double u = s.dot(p) / det;
  const Eigen::Vector3d qv = s.cross(e1);
  const double v = d.dot(qv) / det;
  const double distance = e2.dot(qv) / det;
  constexpr double kEdge = 1e-9;
  if (u < -kEdge || v < -kEdge || u + v > 1 + kEdge || distance < -kEdge * scale) return RayHit::Miss;
  if (u < kEdge || v < kEdge || u + v > 1 - kEdge || std::abs(distance) <= kEdge * scale) return RayHit::Ambiguous;
  return RayHit::Cross;
}

/// Ray parity in three directions, the first that no triangle makes
/// ambiguous deciding; `crossings(d, ambiguous)` counts one ray's crossings.
template <class Crossings>
bool rayParity(Crossings&& crossings) {
  for (const Eigen::Vector3d& d : kRayDirections) {
    bool ambiguous = false;
    const int count = crossings(d, ambiguous);
    if (!ambiguous) return count % 2 == 1;
  }
  return false;  // every ray grazed: the point is on (or within rounding of) the surface, where surface tests decide
}
}  // namespace

bool containsPoint(const Mesh& mesh, const SolidInfo& solid, const Eigen::Vector3d& point) {
  if (!solid.closed || !solid.bounds.contains(point)) return false;
  const double scale = std::max(solid.bounds.diagonal().norm(), 1e-300);
  return rayParity([&](const Eigen::Vector3d& d, bool& ambiguous) {
    int crossings = 0;
    for (const auto& t : mesh.triangles) {
      const RayHit hit =
          rayHit(point, d, mesh.vertices[static_cast<std::size_t>(t[0])], mesh.vertices[static_cast<std::size_t>(t[1])],
                 mesh.vertices[static_cast<std::size_t>(t[2])], scale);
      if (hit == RayHit::Ambiguous) {
        ambiguous = true;
        break;
      }
      crossings += hit == RayHit::Cross;
    }
    return crossings;
  });
}

bool containsPoint(const BvhModel& bvh, const SolidInfo& solid, const Eigen::Vector3d& point) {
  if (!solid.closed || !solid.bounds.contains(point)) return false;
  const double scale = std::max(solid.bounds.diagonal().norm(), 1e-300);
  // The oriented boxes are grown by a rounding margin so that no triangle
  // the ray meets is skipped.
  const double margin = 1e-9 * scale;
  std::vector<int> stack;
  return rayParity([&](const Eigen::Vector3d& d, bool& ambiguous) {
    int crossings = 0;
    stack.assign(1, 0);
    while (!stack.empty() && !ambiguous) {
      const int index = stack.back();
      stack.pop_back();
      const auto& node = bvh.getBV(index);
      const auto& box = node.bv.obb;
      // Slab test of the half-line t >= 0 against the box, in its frame.
      const Eigen::Vector3d origin = box.axis.transpose() * (point - box.To);
      const Eigen::Vector3d direction = box.axis.transpose() * d;
      double enter = 0.0, leave = std::numeric_limits<double>::infinity();
      for (int k = 0; k < 3 && enter <= leave; ++k) {
        const double half = box.extent[k] + margin;
        if (std::abs(direction[k]) < 1e-300) {
          if (std::abs(origin[k]) > half) leave = -1.0;
          continue;
        }
        const double t1 = (-half - origin[k]) / direction[k], t2 = (half - origin[k]) / direction[k];
        enter = std::max(enter, std::min(t1, t2));
        leave = std::min(leave, std::max(t1, t2));
      }
      if (enter > leave) continue;
      if (node.isLeaf()) {
        const fcl::Triangle& t = bvh.tri_indices[node.primitiveId()];
        const RayHit hit = rayHit(point, d, bvh.vertices[t[0]], bvh.vertices[t[1]], bvh.vertices[t[2]], scale);
        ambiguous = hit == RayHit::Ambiguous;
        crossings += hit == RayHit::Cross;
        continue;
      }
      stack.push_back(node.first_child);
      stack.push_back(node.first_child + 1);
    }
    return crossings;
  });
}

bool oneInsideOther(const Mesh& meshA, const SolidInfo& solidA, const Transform& poseA, const Mesh& meshB,
                    const SolidInfo& solidB, const Transform& poseB) {
  auto inside = [](const SolidInfo& innerSolid, const Transform& innerPose, const Mesh& outer,
                   const SolidInfo& outerSolid, const Transform& outerPose) {
    if (!outerSolid.closed) return false;
    const Transform toOuter = outerPose.inverse() * innerPose;
    for (const Eigen::Vector3d& p : innerSolid.component_points)
      if (containsPoint(outer, outerSolid, toOuter * p)) return true;
    return false;
  };
  return inside(solidA, poseA, meshB, solidB, poseB) || inside(solidB, poseB, meshA, solidA, poseA);
}

namespace {
/// FCL reports a failed step (an allocation above all) by its return value
/// and leaves a model that crashes the first query: every step is checked.
void requireBvhStep(int code, const char* step, const Mesh& mesh) {
  if (code == fcl::BVH_OK) return;
  if (code == fcl::BVH_ERR_MODEL_OUT_OF_MEMORY)
    throw std::runtime_error(fmt::format("out of memory in FCL's {} for a mesh of {} triangles and {} vertices", step,
                                         mesh.triangles.size(), mesh.vertices.size()));
  throw std::invalid_argument(fmt::format("FCL's {} refused a mesh of {} triangles and {} vertices (error {})", step,
                                          mesh.triangles.size(), mesh.vertices.size(), code));
}
}  // namespace

std::shared_ptr<BvhModel> buildBvh(const Mesh& mesh) {
  checkSetupDeadline("building a BVH");
  // FCL counts in int.
  if (mesh.triangles.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
      mesh.vertices.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument(fmt::format("a mesh of {} triangles and {} vertices is too large for FCL",
                                            mesh.triangles.size(), mesh.vertices.size()));
  if (mesh.triangles.empty()) throw std::invalid_argument("a mesh with no triangles has no BVH");
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (!(mesh.vertices[v].cwiseAbs().maxCoeff() <= kMaxCoordinate))
      throw std::invalid_argument(
          fmt::format("vertex {} of a mesh is ({}, {}, {}); coordinates must be finite and within "
                      "{:g} m",
                      v, mesh.vertices[v].x(), mesh.vertices[v].y(), mesh.vertices[v].z(), kMaxCoordinate));
  // FCL reads the vertices the triangles name without a check.
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (const int index : mesh.triangles[t])
      if (index < 0 || static_cast<std::size_t>(index) >= mesh.vertices.size())
        throw std::invalid_argument(fmt::format("triangle {} of a mesh names vertex {}; the mesh has {} vertices", t,
                                                index, mesh.vertices.size()));
  auto model = std::make_shared<BvhModel>();
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
  requireBvhStep(model->beginModel(static_cast<int>(triangles.size()), static_cast<int>(mesh.vertices.size())),
                 "beginModel", mesh);
  requireBvhStep(model->addSubModel(mesh.vertices, triangles), "addSubModel", mesh);
  requireBvhStep(model->endModel(), "endModel", mesh);
  model->computeLocalAABB();
  return model;
}

Mesh boxMesh(const Eigen::Vector3d& size) {
  Mesh m;
  const Eigen::Vector3d h = size / 2.0;
  for (int i = 0; i < 8; ++i)
    m.vertices.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  // Two triangles per face, outward normals.
  m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

Mesh sphereMesh(double radius, int segments) {
  // A latitude/longitude polyhedron whose faces lie outside the sphere: each
  // vertex is scaled by 1/cos(half the angular step) in both directions.
  const int rings = std::max(4, segments / 2);
  const double pi = std::numbers::pi;
  const double scale = 1.0 / (std::cos(pi / rings) * std::cos(pi / segments));
  const double r = radius * scale;
  Mesh m;
  m.vertices.emplace_back(0, 0, r);
  for (int i = 1; i < rings; ++i) {
    const double phi = pi * i / rings;
    for (int j = 0; j < segments; ++j) {
      const double theta = 2 * pi * j / segments;
      m.vertices.emplace_back(r * std::sin(phi) * std::cos(theta), r * std::sin(phi) * std::sin(theta),
                              r * std::cos(phi));
    }
  }
  m.vertices.emplace_back(0, 0, -r);
  const int bottom = static_cast<int>(m.vertices.size()) - 1;
  auto at = [&](int ring, int j) { return 1 + (ring - 1) * segments + (j % segments); };
  for (int j = 0; j < segments; ++j) m.triangles.push_back({0, at(1, j), at(1, j + 1)});
  for (int i = 1; i < rings - 1; ++i)
    for (int j = 0; j < segments; ++j) {
      m.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  for (int j = 0; j < segments; ++j) m.triangles.push_back({bottom, at(rings - 1, j + 1), at(rings - 1, j)});
  return m;
}

Mesh cylinderMesh(double radius, double length, int segments) {
  std::vector<Eigen::Vector2d> polygon;
  const double r = radius / std::cos(std::numbers::pi / segments);
  for (int j = 0; j < segments; ++j) {
    const double theta = 2 * std::numbers::pi * j / segments;
    polygon.emplace_back(r * std::cos(theta), r * std::sin(theta));
  }
  return extrudePolygon(polygon, length);
}

namespace {

double signedArea(const std::vector<Eigen::Vector2d>& p) {
  double a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto& u = p[i];
    const auto& v = p[(i + 1) % p.size()];
    a += u.x() * v.y() - v.x() * u.y();
  }
  return a / 2;
}

double cross(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

// Ear clipping of a counter-clockwise simple polygon.
/// Refuses a polygon two of whose edges cross or touch away from their
/// shared corner: its extrusion would not bound a volume (triangles through
/// each other), so the solids' inside test would give nonsense.
void requireSimple(const std::vector<Eigen::Vector2d>& p) {
  const std::size_t n = p.size();
  auto orientation = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
    const double value = (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
    return (value > 0) - (value < 0);
  };
  auto onSegment = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& q) {
    return q.x() >= std::min(a.x(), b.x()) && q.x() <= std::max(a.x(), b.x()) && q.y() >= std::min(a.y(), b.y()) &&
           q.y() <= std::max(a.y(), b.y());
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d &a = p[i], &b = p[(i + 1) % n];
    if (a == b) throw std::invalid_argument(fmt::format("polygon vertices {} and {} coincide", i + 1, (i + 1) % n + 1));
    for (std::size_t j = i + 1; j < n; ++j) {
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      if (adjacent) continue;
      const Eigen::Vector2d &c = p[j], &d = p[(j + 1) % n];
      const int o1 = orientation(a, b, c), o2 = orientation(a, b, d), o3 = orientation(c, d, a),
                o4 = orientation(c, d, b);
      const bool cross = (o1 != o2 && o3 != o4) || (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
                         (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b));
      if (cross)
        throw std::invalid_argument(
            fmt::format("polygon edges {} and {} cross: the polygon must be simple", i + 1, j + 1));
    }
  }
}

std::vector<std::array<int, 3>> triangulate(const std::vector<Eigen::Vector2d>& p) {
  std::vector<int> remaining(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) remaining[i] = static_cast<int>(i);
  std::vector<std::array<int, 3>> out;
  while (remaining.size() > 3) {
    bool clipped = false;
    const std::size_t n = remaining.size();
    for (std::size_t i = 0; i < n; ++i) {
      const int a = remaining[(i + n - 1) % n], b = remaining[i], c = remaining[(i + 1) % n];
      if (cross(p[a], p[b], p[c]) <= 1e-15) continue;
      bool contains = false;
      for (int k : remaining) {
        if (k == a || k == b || k == c) continue;
        if (cross(p[a], p[b], p[k]) >= 0 && cross(p[b], p[c], p[k]) >= 0 && cross(p[c], p[a], p[k]) >= 0) {
          contains = true;
          break;
        }
      }
      if (contains) continue;
      out.push_back({a, b, c});
      remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
      break;
    }
    if (!clipped) throw std::invalid_argument("polygon is not simple (self-intersecting or degenerate)");
  }
  out.push_back({remaining[0], remaining[1], remaining[2]});
  return out;
}

}  // namespace

Mesh extrudePolygon(const std::vector<Eigen::Vector2d>& polygonIn, double height) {
  if (polygonIn.size() < 3) throw std::invalid_argument("a polygon needs at least 3 vertices");
  if (polygonIn.size() > kMaxPolygonPoints)
    throw std::invalid_argument(
        fmt::format("a polygon has at most {} vertices, got {}", kMaxPolygonPoints, polygonIn.size()));
  requireSimple(polygonIn);
  std::vector<Eigen::Vector2d> polygon = polygonIn;
  const double area = signedArea(polygon);
  if (std::abs(area) < 1e-12) throw std::invalid_argument("polygon has zero area");
  if (area < 0) std::reverse(polygon.begin(), polygon.end());
  if (!(height > 0)) throw std::invalid_argument("extrusion height must be positive");
  const int n = static_cast<int>(polygon.size());
  Mesh m;
  for (const auto& p : polygon) m.vertices.emplace_back(p.x(), p.y(), -height / 2);
  for (const auto& p : polygon) m.vertices.emplace_back(p.x(), p.y(), height / 2);
  for (const auto& t : triangulate(polygon)) {
    m.triangles.push_back({t[0] + n, t[1] + n, t[2] + n});
    m.triangles.push_back({t[0], t[2], t[1]});
  }
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    m.triangles.push_back({i, j, j + n});
    m.triangles.push_back({i, j + n, i + n});
  }
  return m;
}

Mesh extrudeRing(const std::vector<Eigen::Vector2d>& outer, const std::vector<Eigen::Vector2d>& inner, double height) {
  if (outer.size() != inner.size() || outer.size() < 3)
    throw std::invalid_argument("a ring needs outer and inner curves with the same number (>= 3) of points");
  const int n = static_cast<int>(outer.size());
  Mesh m;
  // Layout: outer bottom, outer top, inner bottom, inner top.
  for (const auto* curve : {&outer, &inner})
    for (double z : {-height / 2, height / 2})
      for (const auto& p : *curve) m.vertices.emplace_back(p.x(), p.y(), z);
  auto ob = [&](int i) { return i % n; };
  auto ot = [&](int i) { return n + i % n; };
  auto ib = [&](int i) { return 2 * n + i % n; };
  auto it = [&](int i) { return 3 * n + i % n; };
  for (int i = 0; i < n; ++i) {
    const int j = i + 1;
    m.triangles.push_back({ob(i), ob(j), ot(j)});  // outer wall
    m.triangles.push_back({ob(i), ot(j), ot(i)});
    m.triangles.push_back({ib(i), it(j), ib(j)});  // inner wall
    m.triangles.push_back({ib(i), it(i), it(j)});
    m.triangles.push_back({ot(i), ot(j), it(j)});  // top face
    m.triangles.push_back({ot(i), it(j), it(i)});
    m.triangles.push_back({ob(i), ib(j), ob(j)});  // bottom face
    m.triangles.push_back({ob(i), ib(i), ib(j)});
  }
  return m;
}

}  // namespace prmkit
