#include "geometry/bvtt_traversal.h"

#include <fcl/narrowphase/detail/traversal/collision/intersect.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prmkit {

namespace {
// An answer that is not exact stays below 100 (Fig. 9 would allow 100 when
// every dangerous node was checked).
constexpr double kMaxInexactConfidence = 99.9;
}  // namespace

void robotMeshPairs(const Robot& robot, const Scene& scene, const std::vector<Transform>& poses,
                    std::vector<MeshPair>& out) {
  const auto& links = robot.links();
  out.clear();
  for (std::size_t i = 0; i < links.size(); ++i)
    for (const auto& obstacle : scene.obstacles())
      out.push_back({links[i].bvh.get(), poses[i], obstacle.bvh.get(), obstacle.pose});
  for (const auto& [i, k] : robot.selfCollisionPairs())
    out.push_back({links[static_cast<std::size_t>(i)].bvh.get(), poses[static_cast<std::size_t>(i)],
                   links[static_cast<std::size_t>(k)].bvh.get(), poses[static_cast<std::size_t>(k)]});
}

BvttTraversal::BvttTraversal(TraversalSettings settings)
    : settings_(settings), previousConfidence_(settings.initial_confidence) {
  validateFields(settings_, "traversal");
}

void BvttTraversal::forget() {
  previousDeepest_.clear();
  dangerous_.clear();
  previousCut_.clear();
  previousCutSize_ = 0;
  previousConfidence_ = settings_.initial_confidence;
}

std::uint64_t BvttTraversal::key(std::uint32_t pair, int a, int b) {
  // 16 bits of pair, 24 bits per node index: checked by check().
  return (static_cast<std::uint64_t>(pair) << 48) | (static_cast<std::uint64_t>(a) << 24) |
         static_cast<std::uint64_t>(b);
}

double BvttTraversal::priority(const Node& node, const MeshPair& pair, const Eigen::Matrix3d& rotation,
                               const Eigen::Vector3d& translation) const {
  switch (settings_.order) {
    case TraversalOrder::DepthFirst:
      return 0.0;
    case TraversalOrder::Coherence: {
      // Lin & Li Sec. V: branch first into the child whose subtree reached the
      // deepest cut in the previous run; unseen nodes keep recursion order.
      const auto found = previousDeepest_.find(key(node.pair, node.a, node.b));
      return found != previousDeepest_.end() ? found->second : node.depth;
    }
    case TraversalOrder::Overlap: {
      const auto& x = pair.a->getBV(node.a).bv.obb;
      const auto& y = pair.b->getBV(node.b).bv.obb;
      const double d = (x.To - (rotation * y.To + translation)).norm();
      return -d / (x.extent.norm() + y.extent.norm());  // largest relative overlap first
    }
  }
  return 0.0;
}

namespace {
/// The deepest depth reached below each visited node (children come after parents).
template <class Visits>
void propagateDeepest(Visits& visited) {
  for (std::size_t i = visited.size(); i-- > 0;)
    if (visited[i].parent >= 0) {
      int& deepest = visited[static_cast<std::size_t>(visited[i].parent)].deepest;
      deepest = std::max(deepest, visited[i].deepest);
    }
}

/// Lin & Li, Fig. 9: r = the fraction of the dangerous nodes (from the
/// previous cut) that this run checked and found free (no contact was found,
/// so every checked one stayed free); the confidence is r times the previous one.
template <class Visits>
double checkedShare(const Visits& visited, const std::unordered_set<std::uint64_t>& reference) {
  if (reference.empty()) return 0.0;
  std::unordered_set<std::uint64_t> checked;
  checked.reserve(visited.size());
  for (const auto& v : visited) checked.insert(v.key);
  std::size_t checkedReference = 0;
  for (std::uint64_t k : reference) checkedReference += checked.count(k);
  return static_cast<double>(checkedReference) / static_cast<double>(reference.size());
}
}  // namespace

TraversalResult BvttTraversal::check(std::span<const MeshPair> pairs, QueryCounts& stats,
                                     std::optional<std::uint64_t> budgetOverride) {
  const std::uint64_t budget = budgetOverride.value_or(settings_.budget_bv_tests);
  if (pairs.size() >= (1u << 16)) throw std::invalid_argument("a traversal checks fewer than 65536 mesh pairs");
  std::vector<Eigen::Matrix3d> rotations(pairs.size());
  std::vector<Eigen::Vector3d> translations(pairs.size());
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (pairs[p].a->getNumBVs() >= (1 << 24) || pairs[p].b->getNumBVs() >= (1 << 24))
      throw std::invalid_argument("a traversal checks meshes of fewer than 2^23 triangles");
    const Transform relative = pairs[p].pose_a.inverse() * pairs[p].pose_b;
    rotations[p] = relative.linear();
    translations[p] = relative.translation();
  }
  const auto later = [](const Node& x, const Node& y) {
    return x.priority < y.priority || (x.priority == y.priority && x.sequence < y.sequence);
  };
  std::uint64_t sequence = 0;
  auto push = [&](Node node) {
    node.sequence = sequence++;
    node.priority = priority(node, pairs[node.pair], rotations[node.pair], translations[node.pair]);
    heap_.push_back(node);
    std::push_heap(heap_.begin(), heap_.end(), later);
  };
  heap_.clear();
  visited_.clear();
  cut_.clear();
  // Roots pushed last pop first: pair 0 first in recursion order.
  for (std::size_t p = pairs.size(); p-- > 0;) push({0.0, 0, static_cast<std::uint32_t>(p), 0, 0, 1, -1});

  TraversalResult result;
  while (!heap_.empty()) {
    if (budget > 0 && result.bv_tests >= budget) break;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Node node = heap_.back();
    heap_.pop_back();
    const MeshPair& pair = pairs[node.pair];
    const auto& rotation = rotations[node.pair];
    const auto& translation = translations[node.pair];
    const auto& nodeA = pair.a->getBV(node.a);
    const auto& nodeB = pair.b->getBV(node.b);
    ++result.bv_tests;
    ++stats.bv_tests;
    if (node.depth == 1) ++stats.pair_tests;
    const auto visit = static_cast<std::int64_t>(visited_.size());
    const std::uint64_t nodeKey = key(node.pair, node.a, node.b);
    visited_.push_back({nodeKey, node.parent, node.depth, node.depth});
    if (!fcl::overlap(rotation, translation, nodeA.bv, nodeB.bv)) {
      cut_.emplace_back(nodeKey, node.depth);
      continue;
    }
    if (nodeA.isLeaf() && nodeB.isLeaf()) {
      ++stats.primitive_tests;
      const fcl::Triangle& s = pair.a->tri_indices[nodeA.primitiveId()];
      const fcl::Triangle& t = pair.b->tri_indices[nodeB.primitiveId()];
      const auto* u = pair.a->vertices;
      const auto* v = pair.b->vertices;
      if (fcl::detail::Intersect<double>::intersect_Triangle(u[s[0]], u[s[1]], u[s[2]], v[t[0]], v[t[1]], v[t[2]],
                                                             rotation, translation)) {
        result.colliding = true;
        break;
      }
      cut_.emplace_back(nodeKey, node.depth);
      continue;
    }
    // Split the larger volume, as FCL's traversals do; the first child is pushed last so it pops first.
    const bool splitA = !nodeA.isLeaf() && (nodeB.isLeaf() || nodeA.bv.size() > nodeB.bv.size());
    for (int child = 1; child >= 0; --child) {
      const int a = splitA ? nodeA.first_child + child : node.a;
      const int b = splitA ? node.b : nodeB.first_child + child;
      push({0.0, 0, node.pair, a, b, node.depth + 1, visit});
    }
  }
  result.complete = result.colliding || heap_.empty();
  propagateDeepest(visited_);
  result.confidence =
      result.complete
          ? 100.0
          : std::min(checkedShare(visited_, dangerous_.empty() ? previousCut_ : dangerous_) * previousConfidence_,
                     kMaxInexactConfidence);
  remember();
  previousConfidence_ = result.confidence;
  return result;
}

void BvttTraversal::remember() {
  previousDeepest_.clear();
  for (const Visit& v : visited_) previousDeepest_[v.key] = v.deepest;
  std::sort(cut_.begin(), cut_.end());
  previousCut_.clear();
  for (const auto& [k, depth] : cut_) previousCut_.insert(k);
  previousCutSize_ = cut_.size();
  dangerous_.clear();
  const std::size_t group = settings_.group_size;
  for (std::size_t begin = 0; begin < cut_.size(); begin += group) {
    const std::size_t end = std::min(begin + group, cut_.size());
    const double n = static_cast<double>(end - begin);
    double mean = 0.0;
    for (std::size_t i = begin; i < end; ++i) mean += cut_[i].second;
    mean /= n;
    double variance = 0.0;
    for (std::size_t i = begin; i < end; ++i) variance += (cut_[i].second - mean) * (cut_[i].second - mean);
    if (std::sqrt(variance / n) > settings_.depth_deviation_threshold)
      for (std::size_t i = begin; i < end; ++i) dangerous_.insert(cut_[i].first);
  }
}

}  // namespace prmkit
