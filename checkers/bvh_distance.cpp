#include "checkers/bvh_distance.h"

#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>

#include <algorithm>
#include <limits>

namespace prmkit {

const BvhDistance::ModelInfo& BvhDistance::modelInfo(const BvhModel& model) {
  auto [entry, inserted] = models_.try_emplace(&model);
  if (inserted) {
    ModelInfo& info = entry->second;
    // Children come after their parent in FCL's node array, so walk it backwards.
    info.node_triangles.resize(static_cast<std::size_t>(model.getNumBVs()));
    for (int i = model.getNumBVs() - 1; i >= 0; --i) {
      const auto& node = model.getBV(i);
      info.node_triangles[static_cast<std::size_t>(i)] =
          node.isLeaf() ? node.primitiveId() : info.node_triangles[static_cast<std::size_t>(node.first_child)];
    }
    Eigen::AlignedBox3d box;
    for (int v = 0; v < model.num_vertices; ++v) box.extend(model.vertices[v]);
    info.center = box.center();
    info.radius = 0.0;
    for (int v = 0; v < model.num_vertices; ++v)
      info.radius = std::max(info.radius, (model.vertices[v] - info.center).norm());
  }
  return entry->second;
}

DistanceBound BvhDistance::lowerBound(const BvhModel& a, const Transform& poseA, const BvhModel& b,
                                      const Transform& poseB, double threshold, double relativeError,
                                      CheckStats& stats, const DistanceBound* hint) {
  ++stats.distance_queries;
  const ModelInfo& infoA = modelInfo(a);
  const ModelInfo& infoB = modelInfo(b);
  // Enclosing spheres first: far pairs end here without a frame change.
  ++stats.bv_tests;
  const double sphereBound = (poseA * infoA.center - poseB * infoB.center).norm() - infoA.radius - infoB.radius;
  if (sphereBound >= threshold) return DistanceBound{sphereBound, std::numeric_limits<double>::infinity()};

  // Everything else is measured in a's frame; b's nodes are mapped by (R, T).
  const Transform relative = poseA.inverse() * poseB;
  const Eigen::Matrix3d rotation = relative.linear();
  const Eigen::Vector3d translation = relative.translation();

  auto nodeDistance = [&](int i, int j) {
    ++stats.bv_tests;
    return fcl::distance(rotation, translation, a.getBV(i).bv, b.getBV(j).bv);
  };
  auto triangleDistance = [&](int triangleA, int triangleB) {
    ++stats.primitive_tests;
    const fcl::Triangle& s = a.tri_indices[triangleA];
    const fcl::Triangle& t = b.tri_indices[triangleB];
    fcl::Vector3d p, q;
    return fcl::detail::TriangleDistance<double>::triDistance(
        a.vertices[s[0]], a.vertices[s[1]], a.vertices[s[2]], b.vertices[t[0]], b.vertices[t[1]], b.vertices[t[2]],
        rotation, translation, p, q);
  };

  double best = std::numeric_limits<double>::infinity();  // smallest point-pair distance measured: an upper bound
  int closestA = -1, closestB = -1;
  auto offer = [&](double distance, int triangleA, int triangleB) {
    if (distance < best) {
      best = distance;
      closestA = triangleA;
      closestB = triangleB;
    }
  };
  auto nodePointDistance = [&](int i, int j) {
    const int triangleA = infoA.node_triangles[static_cast<std::size_t>(i)];
    const int triangleB = infoB.node_triangles[static_cast<std::size_t>(j)];
    const double distance =
        (rotation * b.vertices[b.tri_indices[triangleB][0]] + translation - a.vertices[a.tri_indices[triangleA][0]])
            .norm();
    offer(distance, triangleA, triangleB);
  };
  if (hint && hint->closest_a >= 0 && hint->closest_a < a.num_tris && hint->closest_b >= 0 &&
      hint->closest_b < b.num_tris)
    offer(triangleDistance(hint->closest_a, hint->closest_b), hint->closest_a, hint->closest_b);

  const auto closerFirst = [](const NodePair& x, const NodePair& y) { return x.bound > y.bound; };
  double pruned = std::numeric_limits<double>::infinity();  // smallest bound of a node pair not queued
  auto cutoff = [&] { return std::min(threshold, best / (1.0 + relativeError)); };

  heap_.clear();
  heap_.push_back({nodeDistance(0, 0), 0, 0});
  while (!heap_.empty()) {
    const NodePair top = heap_.front();
    if (top.bound >= cutoff()) break;
    std::pop_heap(heap_.begin(), heap_.end(), closerFirst);
    heap_.pop_back();
    const auto& nodeA = a.getBV(top.a);
    const auto& nodeB = b.getBV(top.b);
    nodePointDistance(top.a, top.b);
    if (top.bound >= cutoff()) {
      pruned = std::min(pruned, top.bound);
      continue;
    }
    if (nodeA.isLeaf() && nodeB.isLeaf()) {
      offer(triangleDistance(nodeA.primitiveId(), nodeB.primitiveId()), nodeA.primitiveId(), nodeB.primitiveId());
      if (best <= 0.0) {
        heap_.clear();
        break;
      }
      continue;
    }
    // Descend into the larger volume, as FCL's own traversals do.
    const bool splitA = !nodeA.isLeaf() && (nodeB.isLeaf() || nodeA.bv.size() > nodeB.bv.size());
    for (int child = 0; child < 2; ++child) {
      const int i = splitA ? nodeA.first_child + child : top.a;
      const int j = splitA ? top.b : nodeB.first_child + child;
      const double bound = nodeDistance(i, j);
      if (bound >= cutoff()) {
        pruned = std::min(pruned, bound);
      } else {
        heap_.push_back({bound, i, j});
        std::push_heap(heap_.begin(), heap_.end(), closerFirst);
      }
    }
  }
  double lower = std::min(best, pruned);
  if (!heap_.empty()) lower = std::min(lower, heap_.front().bound);
  if (lower < threshold) ++stats.exact_distance_queries;
  return DistanceBound{std::max(lower, 0.0), best, closestA, closestB};
}

}  // namespace prmkit
