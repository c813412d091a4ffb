#include "shapes/convex_hull.h"

#include "base/largest_of.h"
#include "base/termination.h"

#include <boost/pending/disjoint_sets.hpp>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>

namespace prmkit {

namespace {
/// qhull's state, freed on every path out.
class Qhull {
 public:
  Qhull() {
    // qhull reports errors (a flat point set) to a stream; they are expected here.
    sink_ = std::fopen("/dev/null", "w");
    qh_zero(&qh_, sink_);
  }
  ~Qhull() {
    qh_freeqhull(&qh_, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(&qh_, &curlong, &totlong);
    if (sink_) std::fclose(sink_);
  }
  Qhull(const Qhull&) = delete;
  Qhull& operator=(const Qhull&) = delete;
  qhT* get() { return &qh_; }
  FILE* sink() { return sink_; }

 private:
  qhT qh_;
  FILE* sink_ = nullptr;
};
}  // namespace

std::shared_ptr<const ConvexHull> convexHullOf(const Mesh& mesh) {
  checkSetupDeadline("computing a convex hull");
  if (mesh.vertices.size() < 4) return nullptr;
  std::vector<coordT> points;
  points.reserve(3 * mesh.vertices.size());
  for (const auto& v : mesh.vertices) points.insert(points.end(), {v.x(), v.y(), v.z()});
  Qhull qhull;
  qhT* qh = qhull.get();
  // Qt: triangulated facets; no joggling, so the hull's vertices are the mesh's own points.
  char options[] = "qhull Qt";
  if (qh_new_qhull(qh, 3, static_cast<int>(mesh.vertices.size()), points.data(), False, options, nullptr,
                   qhull.sink()) != 0)
    return nullptr;

  auto hull = std::make_shared<ConvexHull>();
  std::vector<int> hullIndex(mesh.vertices.size(), -1);
  vertexT* vertex;
  FORALLvertices {
    const int id = qh_pointid(qh, vertex->point);
    if (id < 0 || static_cast<std::size_t>(id) >= mesh.vertices.size()) continue;
    hullIndex[static_cast<std::size_t>(id)] = static_cast<int>(hull->vertices.size());
    hull->vertices.push_back(mesh.vertices[static_cast<std::size_t>(id)]);
  }
  std::vector<Eigen::Vector4d> planes;  // n.x + offset <= 0 inside, |n| = 1
  std::vector<std::vector<int>> neighbours(hull->vertices.size());
  auto link = [&](int i, int j) {
    auto& list = neighbours[static_cast<std::size_t>(i)];
    if (std::find(list.begin(), list.end(), j) == list.end()) list.push_back(j);
  };
  facetT* facet;
  FORALLfacets {
    planes.emplace_back(facet->normal[0], facet->normal[1], facet->normal[2], facet->offset);
    std::vector<int> corners;
    vertexT** vertexp;
    FOREACHvertex_(facet->vertices) {
      const int id = qh_pointid(qh, vertex->point);
      if (id >= 0 && static_cast<std::size_t>(id) < mesh.vertices.size() &&
          hullIndex[static_cast<std::size_t>(id)] >= 0)
        corners.push_back(hullIndex[static_cast<std::size_t>(id)]);
    }
    for (std::size_t i = 0; i < corners.size(); ++i)
      for (std::size_t j = 0; j < corners.size(); ++j)
        if (i != j) link(corners[i], corners[j]);
  }
  if (hull->vertices.size() < 4 || planes.empty()) return nullptr;
  hull->neighbour_start.push_back(0);
  for (const auto& list : neighbours) {
    hull->neighbour_list.insert(hull->neighbour_list.end(), list.begin(), list.end());
    hull->neighbour_start.push_back(static_cast<int>(hull->neighbour_list.size()));
  }

  Eigen::AlignedBox3d box;
  for (const auto& v : hull->vertices) box.extend(v);
  hull->half_extent = 0.5 * box.sizes().maxCoeff();
  hull->center = box.center();
  for (const auto& v : hull->vertices)
    hull->bounding_radius = std::max(hull->bounding_radius, (v - hull->center).norm());
  for (const auto& v : hull->vertices) hull->radius = std::max(hull->radius, v.norm());
  // Depth below the hull of vertices, edge midpoints and triangle centroids:
  // an extruded shape (a gear, a plate with a hole) has every vertex on a cap,
  // so only points inside its side walls show its dents.
  // The concavity is the largest over the points of the smallest depth over
  // the planes: a point stops at the first plane it lies within the deepest
  // depth so far of (it cannot raise the largest). It tries first the planes
  // that stopped or bounded the points before it (neighbours share them: a
  // ring of a tube has a few); without that a mesh of 10^6 triangles under a
  // hull of 10^4 facets took minutes in one step. The setup's deadline is
  // looked at every few thousand points.
  std::array<std::size_t, 16> recent{};
  std::size_t nextRecent = 0, measured = 0;
  auto remember = [&](std::size_t plane) {
    if (std::find(recent.begin(), recent.end(), plane) != recent.end()) return;
    recent[nextRecent] = plane;
    nextRecent = (nextRecent + 1) % recent.size();
  };
  auto measure = [&](const Eigen::Vector3d& p) {
    if (++measured % 4096 == 0) checkSetupDeadline("measuring a convex hull's concavity");
    auto depthBelow = [&](std::size_t i) { return -(planes[i].head<3>().dot(p) + planes[i][3]); };
    for (const std::size_t plane : recent)
      if (depthBelow(plane) <= hull->concavity) return;
    double depth = std::numeric_limits<double>::infinity();
    std::size_t deepest = 0;
    for (std::size_t i = 0; i < planes.size(); ++i) {
      const double d = depthBelow(i);
      if (d <= hull->concavity) {
        remember(i);
        return;
      }
      if (d < depth) depth = d, deepest = i;
    }
    remember(deepest);
    hull->concavity = depth;
  };
  for (const auto& v : mesh.vertices) measure(v);
  for (const auto& t : mesh.triangles) {
    const Eigen::Vector3d& a = mesh.vertices[static_cast<std::size_t>(t[0])];
    const Eigen::Vector3d& b = mesh.vertices[static_cast<std::size_t>(t[1])];
    const Eigen::Vector3d& c = mesh.vertices[static_cast<std::size_t>(t[2])];
    measure((a + b + c) / 3.0);
    measure(0.5 * (a + b));
    measure(0.5 * (b + c));
    measure(0.5 * (c + a));
  }
  return hull;
}

bool ConvexHull::nearlyConvex() const { return concavity <= kUsableConcavity * half_extent; }

namespace {
/// The triangles under a BVH node (no recursion: an explicit stack).
/// `mark` holds, per mesh vertex, its index in the piece of stamp `stamp`.
Mesh subtreeVertices(const Mesh& mesh, const BvhModel& bvh, int node, std::vector<std::pair<int, int>>& mark,
                     int stamp) {
  Mesh piece;
  std::vector<int> stack{node};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    const auto& bv = bvh.getBV(n);
    if (!bv.isLeaf()) {
      stack.push_back(bv.first_child);
      stack.push_back(bv.first_child + 1);
      continue;
    }
    const fcl::Triangle& t = bvh.tri_indices[bv.primitiveId()];
    std::array<int, 3> triangle{};
    for (int k = 0; k < 3; ++k) {
      const auto v = static_cast<std::size_t>(t[k]);
      if (mark[v].first != stamp) {
        mark[v] = {stamp, static_cast<int>(piece.vertices.size())};
        piece.vertices.push_back(mesh.vertices[v]);
      }
      triangle[static_cast<std::size_t>(k)] = mark[v].second;
    }
    piece.triangles.push_back(triangle);
  }
  return piece;
}

/// The vertices of each part of the mesh (triangles joined through shared
/// vertices), or nothing when there are more than `most` parts.
std::vector<Mesh> partVertices(const Mesh& mesh, std::size_t most) {
  const std::size_t count = mesh.vertices.size();
  boost::disjoint_sets_with_storage<> parts(count);
  for (const auto& t : mesh.triangles) {
    parts.union_set(static_cast<std::size_t>(t[0]), static_cast<std::size_t>(t[1]));
    parts.union_set(static_cast<std::size_t>(t[0]), static_cast<std::size_t>(t[2]));
  }
  std::vector<bool> used(count, false);
  for (const auto& t : mesh.triangles)
    for (const int v : t) used[static_cast<std::size_t>(v)] = true;
  std::vector<int> partOf(count, -1);  // indexed by representative
  std::vector<Mesh> result;
  for (std::size_t v = 0; v < count; ++v) {
    if (!used[v]) continue;
    const std::size_t root = parts.find_set(v);
    if (partOf[root] < 0) {
      if (result.size() == most) return {};
      partOf[root] = static_cast<int>(result.size());
      result.emplace_back();
    }
    result[static_cast<std::size_t>(partOf[root])].vertices.push_back(mesh.vertices[v]);
  }
  return result;
}

/// Orders many pieces by median splits of their centres along the widest
/// axis, at multiples of kPieceGroup, so that every run of kPieceGroup lies
/// close together, and groups the runs (ConvexCover::groups).
void groupPieces(ConvexCover& cover) {
  auto& pieces = cover.pieces;
  if (pieces.size() <= kPieceGroup) return;
  // A stack of ranges, not recursion: the part count comes from the input.
  std::vector<std::pair<std::size_t, std::size_t>> ranges{{0, pieces.size()}};
  while (!ranges.empty()) {
    const auto [begin, end] = ranges.back();
    ranges.pop_back();
    if (end - begin <= kPieceGroup) continue;
    Eigen::AlignedBox3d box;
    for (std::size_t i = begin; i < end; ++i) box.extend(pieces[i]->center);
    Eigen::Index axis = 0;
    box.sizes().maxCoeff(&axis);
    const std::size_t half = (end - begin) / 2;
    const std::size_t middle = begin + (half + kPieceGroup - 1) / kPieceGroup * kPieceGroup;
    const auto base = pieces.begin();
    std::nth_element(base + static_cast<std::ptrdiff_t>(begin), base + static_cast<std::ptrdiff_t>(middle),
                     base + static_cast<std::ptrdiff_t>(end),
                     [axis](const auto& a, const auto& b) { return a->center[axis] < b->center[axis]; });
    ranges.emplace_back(begin, middle);
    ranges.emplace_back(middle, end);
  }
  for (std::size_t first = 0; first < pieces.size(); first += kPieceGroup) {
    const std::size_t count = std::min(kPieceGroup, pieces.size() - first);
    Eigen::AlignedBox3d box;
    for (std::size_t i = first; i < first + count; ++i) box.extend(pieces[i]->center);
    const Eigen::Vector3d center = box.center();
    double radius = 0.0;
    for (std::size_t i = first; i < first + count; ++i)
      radius = std::max(radius, (pieces[i]->center - center).norm() + pieces[i]->bounding_radius);
    // A rounding margin, as the pieces' own radii keep: the sphere must contain theirs.
    cover.groups.push_back({first, count, center, radius * (1.0 + 1e-12) + 1e-12 * center.norm()});
  }
}
}  // namespace

ConvexCover convexCoverOf(const Mesh& mesh, const BvhModel& bvh) {
  ConvexCover cover;
  auto root = convexHullOf(mesh);
  if (!root) return cover;
  cover.hull = root;
  if (!root->nearlyConvex()) {
    // A mesh of several separate parts (the walls of a trap, the boards of a
    // shelf) is covered by the parts' hulls when each is nearly convex:
    // subtrees of its BVH would mix parts, and their hulls would span the
    // free space between them, where the robot moves.
    std::vector<std::shared_ptr<const ConvexHull>> hulls;
    for (const Mesh& part : partVertices(mesh, kMaxConvexParts)) {
      auto hull = convexHullOf(part);
      if (!hull || !hull->nearlyConvex()) {
        hulls.clear();
        break;
      }
      hulls.push_back(std::move(hull));
    }
    if (hulls.size() >= 2) {
      cover.pieces = std::move(hulls);
      groupPieces(cover);
      return cover;
    }
  }
  struct Piece {
    int node;
    std::shared_ptr<const ConvexHull> hull;
    bool splittable = true;
  };
  std::vector<Piece> pieces{{0, std::move(root), true}};
  std::vector<std::pair<int, int>> mark(mesh.vertices.size(), {-1, -1});
  int stamp = 0;
  while (pieces.size() < kMaxConvexPieces) {
    // The most concave piece that can still be split.
    int worst = -1;
    double worstRatio = kUsableConcavity;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const ConvexHull& h = *pieces[i].hull;
      const double ratio = h.concavity / std::max(h.half_extent, 1e-300);
      if (ratio > worstRatio && pieces[i].splittable && !bvh.getBV(pieces[i].node).isLeaf()) {
        worstRatio = ratio;
        worst = static_cast<int>(i);
      }
    }
    if (worst < 0) break;
    const int first = bvh.getBV(pieces[static_cast<std::size_t>(worst)].node).first_child;
    auto left = convexHullOf(subtreeVertices(mesh, bvh, first, mark, stamp++));
    auto right = convexHullOf(subtreeVertices(mesh, bvh, first + 1, mark, stamp++));
    if (!left || !right) {
      // A flat subtree has no 3D hull: keep the parent whole.
      pieces[static_cast<std::size_t>(worst)].splittable = false;
      continue;
    }
    pieces[static_cast<std::size_t>(worst)] = {first, std::move(left), true};
    pieces.push_back({first + 1, std::move(right), true});
  }
  for (auto& piece : pieces) cover.pieces.push_back(std::move(piece.hull));
  return cover;
}

bool provenOutside(const ConvexHull& hull, const Eigen::Vector3d& point) {
  const Eigen::Vector3d u = point - hull.center;
  const double length = u.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return false;
  const double margin = 64.0 * std::numeric_limits<double>::epsilon() * (hull.radius + point.norm()) * length;
  // Beyond the enclosing sphere: every vertex projects to at most
  // <u, c> + |u| r along u, so the scan below would prove it too.
  if (length > hull.bounding_radius * (1.0 + 1e-9) + margin / length) return true;
  const double reach = largestOf(hull.vertices, -std::numeric_limits<double>::infinity(),
                                 [&u](const Eigen::Vector3d& v) { return u.dot(v); });
  return u.dot(point) > reach + margin;
}

}  // namespace prmkit
