#include "environments/convex_hull.h"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <algorithm>
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
  hull->neighbours.resize(hull->vertices.size());
  auto link = [&](int i, int j) {
    auto& list = hull->neighbours[static_cast<std::size_t>(i)];
    if (std::find(list.begin(), list.end(), j) == list.end()) list.push_back(j);
  };
  facetT* facet;
  FORALLfacets {
    planes.emplace_back(facet->normal[0], facet->normal[1], facet->normal[2], facet->offset);
    std::vector<int> corners;
    vertexT** vertexp;
    FOREACHvertex_(facet->vertices) {
      const int id = qh_pointid(qh, vertex->point);
      if (id >= 0 && static_cast<std::size_t>(id) < mesh.vertices.size() && hullIndex[static_cast<std::size_t>(id)] >= 0)
        corners.push_back(hullIndex[static_cast<std::size_t>(id)]);
    }
    for (std::size_t i = 0; i < corners.size(); ++i)
      for (std::size_t j = 0; j < corners.size(); ++j)
        if (i != j) link(corners[i], corners[j]);
  }
  if (hull->vertices.size() < 4 || planes.empty()) return nullptr;

  Eigen::AlignedBox3d box;
  for (const auto& v : hull->vertices) box.extend(v);
  hull->half_extent = 0.5 * box.sizes().maxCoeff();
  hull->center = box.center();
  for (const auto& v : hull->vertices) hull->radius = std::max(hull->radius, v.norm());
  for (const auto& v : mesh.vertices) {
    double depth = std::numeric_limits<double>::infinity();
    for (const auto& plane : planes) depth = std::min(depth, -(plane.head<3>().dot(v) + plane[3]));
    hull->concavity = std::max(hull->concavity, depth);
  }
  return hull;
}

}  // namespace prmkit
