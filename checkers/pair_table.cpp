#include "checkers/pair_table.h"

#include "geometry/bvh_distance.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

namespace prmkit {

namespace {

/// Distance queries one table may spend: a pair in contact over much of its
/// box would otherwise refine every cell to the finest; cells left when they
/// are spent stay unmarked (the exact checks decide there).
constexpr std::size_t kMostQueries = 40000;

/// The joints between two frames, `above` an ancestor of `below`: each as
/// its index, from `below` up.
std::optional<std::vector<int>> jointsBetween(const ChainDescription& d, int above, int below) {
  std::vector<int> joints;
  for (int f = below; f != above;) {
    if (f <= 0) return std::nullopt;  // reached the root: `above` is not an ancestor
    const int joint = d.frames[static_cast<std::size_t>(f)].joint;
    joints.push_back(joint);
    f = d.joints[static_cast<std::size_t>(joint)].parent_frame;
  }
  return joints;
}

/// One link inside the other, closed one (bodies are solids): with no
/// triangles meeting, one component point of the inner one is inside.
bool oneInside(const Link& a, const Transform& poseA, const Link& b, const Transform& poseB) {
  auto inside = [](const Link& inner, const Transform& innerPose, const Link& outer, const Transform& outerPose) {
    if (!outer.solid.closed) return false;
    const Transform toOuter = outerPose.inverse() * innerPose;
    for (const Eigen::Vector3d& p : inner.solid.component_points)
      if (containsPoint(*outer.bvh, outer.solid, toOuter * p)) return true;
    return false;
  };
  return inside(a, poseA, b, poseB) || inside(b, poseB, a, poseA);
}

}  // namespace

std::optional<SelfPairTable> SelfPairTable::build(const KinematicChain& chain, std::size_t i, std::size_t k, int depth,
                                                  QueryCounts& stats) {
  const ChainDescription& d = chain.description();
  if (i >= d.geometry.size() || k >= d.geometry.size() || depth < 0 || depth > 12) return std::nullopt;
  int above = d.geometry[i].first, below = d.geometry[k].first;
  auto joints = jointsBetween(d, above, below);
  if (!joints) {
    std::swap(above, below);
    joints = jointsBetween(d, above, below);
  }
  if (!joints) return std::nullopt;
  std::vector<int> coordinateOf;
  int next = 0;
  for (const Joint& joint : d.joints) coordinateOf.push_back(joint.type == JointType::Fixed ? -1 : next++);
  SelfPairTable table;
  // A point of the lower link moves, per radian of a revolute joint on the
  // way, at most its distance from that joint's axis: at most the joint
  // origins' offsets below the joint plus the link's reach from its frame.
  const Link& lowerLink = chain.links()[below == d.geometry[k].first ? k : i];
  std::array<double, 2> levers{};
  double reach = lowerLink.radius;
  for (const int j : *joints) {
    const Joint& joint = d.joints[static_cast<std::size_t>(j)];
    if (joint.type == JointType::Prismatic) return std::nullopt;
    if (joint.type == JointType::Revolute) {
      if (table.dims_ == 2) return std::nullopt;
      const int c = coordinateOf[static_cast<std::size_t>(j)];
      table.coordinates_[table.dims_] = c;
      levers[table.dims_] = reach;
      ++table.dims_;
    }
    reach += joint.origin.translation().norm();
  }
  const CoordinateBounds& bounds = chain.bounds();
  for (std::size_t axis = 0; axis < table.dims_; ++axis) {
    const auto c = static_cast<Eigen::Index>(table.coordinates_[axis]);
    if (c >= bounds.lower.size() || !(bounds.upper[c] > bounds.lower[c]) ||
        !std::isfinite(bounds.upper[c] - bounds.lower[c]))
      return std::nullopt;
  }
  const int levels = table.dims_ == 0 ? 0 : depth;
  table.cellsPerAxis_ = std::size_t{1} << levels;
  const std::size_t cells = table.dims_ == 2 ? table.cellsPerAxis_ * table.cellsPerAxis_ : table.cellsPerAxis_;
  table.marked_.assign(cells, 0);
  for (std::size_t axis = 0; axis < table.dims_; ++axis) {
    const auto c = static_cast<Eigen::Index>(table.coordinates_[axis]);
    table.lower_[axis] = bounds.lower[c];
    table.cellWidth_[axis] = (bounds.upper[c] - bounds.lower[c]) / static_cast<double>(table.cellsPerAxis_);
  }

  // The other joints at the middle of their range: the pair's relative pose does not follow them.
  Config q = 0.5 * (bounds.lower + bounds.upper);
  std::vector<Transform> poses;
  BvhDistance distance;
  const Link& a = chain.links()[i];
  const Link& b = chain.links()[k];
  struct Cell {
    int level;
    std::size_t x, y;  // at that level
  };
  std::vector<Cell> stack{{0, 0, 0}};
  std::size_t queries = 0;
  const std::uint64_t before = stats.distance_queries;
  while (!stack.empty() && queries < kMostQueries) {
    const Cell cell = stack.back();
    stack.pop_back();
    const std::size_t span = std::size_t{1} << (levels - cell.level);  // finest cells per axis
    const std::array<std::size_t, 2> index{cell.x, cell.y};
    double moved = 0.0;
    for (std::size_t axis = 0; axis < table.dims_; ++axis) {
      const double half = 0.5 * static_cast<double>(span) * table.cellWidth_[axis];
      q[table.coordinates_[axis]] =
          table.lower_[axis] + (static_cast<double>(index[axis] * span) * table.cellWidth_[axis] + half);
      moved += levers[axis] * half;
    }
    // Rounding of the poses and the lever sum: asked slightly above the bound.
    const double threshold = moved * (1 + 1e-9) + 1e-12 * (a.radius + b.radius + reach);
    chain.linkPoses(q, poses);
    ++queries;
    const DistanceBound bound =
        distance.lowerBound(PlacedBody{*a.bvh, &a.cover, poses[i]}, PlacedBody{*b.bvh, &b.cover, poses[k]}, threshold,
                            1.0, true, stats, nullptr, BvhDistance::AtConvexContact::Stop);
    if (!bound.convex_contact && bound.lower > threshold && !oneInside(a, poses[i], b, poses[k])) {
      for (std::size_t y = 0; y < (table.dims_ == 2 ? span : 1); ++y)
        for (std::size_t x = 0; x < span; ++x)
          table.marked_[(cell.y * span + y) * table.cellsPerAxis_ * (table.dims_ == 2) + cell.x * span + x] = 1;
      continue;
    }
    if (cell.level == levels) continue;
    for (std::size_t y = 0; y < (table.dims_ == 2 ? 2u : 1u); ++y)
      for (std::size_t x = 0; x < 2; ++x) stack.push_back({cell.level + 1, 2 * cell.x + x, 2 * cell.y + y});
  }
  table.queries_ = stats.distance_queries - before;
  return table;
}

std::shared_ptr<const SelfPairTable> SelfPairTable::shared(const KinematicChain& chain, std::size_t i, std::size_t k,
                                                           int depth) {
  // The key is everything a table follows, compared whole (no hash stands
  // in for it): the joints, the coordinate bounds and the two meshes.
  std::vector<double> key{static_cast<double>(i), static_cast<double>(k), static_cast<double>(depth)};
  const ChainDescription& d = chain.description();
  for (const Joint& joint : d.joints) {
    key.push_back(static_cast<double>(joint.type));
    key.push_back(joint.parent_frame);
    key.insert(key.end(), joint.origin.matrix().data(), joint.origin.matrix().data() + 16);
    key.insert(key.end(), joint.axis.data(), joint.axis.data() + 3);
  }
  for (const auto& [frame, mesh] : d.geometry) key.push_back(frame);
  const CoordinateBounds& bounds = chain.bounds();
  key.insert(key.end(), bounds.lower.data(), bounds.lower.data() + bounds.lower.size());
  key.insert(key.end(), bounds.upper.data(), bounds.upper.data() + bounds.upper.size());
  for (const std::size_t link : {i, k}) {
    if (link >= chain.links().size()) return nullptr;
    const Mesh& mesh = chain.links()[link].mesh;
    key.push_back(static_cast<double>(mesh.vertices.size()));
    for (const Eigen::Vector3d& v : mesh.vertices) key.insert(key.end(), v.data(), v.data() + 3);
    for (const auto& t : mesh.triangles) key.insert(key.end(), t.begin(), t.end());
  }
  static std::mutex mutex;
  static std::map<std::vector<double>, std::shared_ptr<const SelfPairTable>> tables;
  {
    const std::lock_guard lock(mutex);
    if (const auto found = tables.find(key); found != tables.end()) return found->second;
  }
  // Built outside the lock: two threads may both build it, and keep the first.
  QueryCounts counts;
  auto built = build(chain, i, k, depth, counts);
  std::shared_ptr<const SelfPairTable> table =
      built ? std::make_shared<const SelfPairTable>(std::move(*built)) : nullptr;
  const std::lock_guard lock(mutex);
  return tables.emplace(std::move(key), std::move(table)).first->second;
}

std::array<double, 2> SelfPairTable::gridPoint(const Config& q) const {
  std::array<double, 2> point{};
  for (std::size_t axis = 0; axis < dims_; ++axis)
    point[axis] = (q[coordinates_[axis]] - lower_[axis]) / cellWidth_[axis];
  return point;
}

bool SelfPairTable::boxMarked(const std::array<double, 2>& low, const std::array<double, 2>& high) const {
  // Widened by a rounding margin: a point on a cell's edge counts in both cells.
  constexpr double kMargin = 1e-6;
  const double cells = static_cast<double>(cellsPerAxis_);
  std::array<std::size_t, 2> first{}, last{};
  for (std::size_t axis = 0; axis < dims_; ++axis) {
    // Outside the box of limits (or not a number): not certified.
    if (!(low[axis] >= -kMargin && high[axis] <= cells + kMargin)) return false;
    first[axis] = static_cast<std::size_t>(std::clamp(std::floor(low[axis] - kMargin), 0.0, cells - 1));
    last[axis] = static_cast<std::size_t>(std::clamp(std::floor(high[axis] + kMargin), 0.0, cells - 1));
  }
  const std::size_t row = dims_ == 2 ? cellsPerAxis_ : 0;
  for (std::size_t y = first[1]; y <= last[1]; ++y)
    for (std::size_t x = first[0]; x <= last[0]; ++x)
      if (!marked_[y * row + x]) return false;
  return true;
}

bool SelfPairTable::certifiesAt(const Config& q) const {
  const std::array<double, 2> p = gridPoint(q);
  return boxMarked(p, p);
}

bool SelfPairTable::certifiesAlong(const Config& a, const Config& b) const {
  const std::array<double, 2> from = gridPoint(a), to = gridPoint(b);
  // Pieces at most one cell long on each axis: each lies in the (at most two
  // by two) cells its box meets.
  double longest = 0.0;
  for (std::size_t axis = 0; axis < dims_; ++axis) longest = std::max(longest, std::abs(to[axis] - from[axis]));
  if (!std::isfinite(longest)) return false;
  const auto pieces = static_cast<std::size_t>(std::max(1.0, std::ceil(longest)));
  std::array<double, 2> start = from;
  for (std::size_t piece = 1; piece <= pieces; ++piece) {
    std::array<double, 2> end{}, low{}, high{};
    const double t = static_cast<double>(piece) / static_cast<double>(pieces);
    for (std::size_t axis = 0; axis < 2; ++axis) {
      end[axis] = piece == pieces ? to[axis] : from[axis] + t * (to[axis] - from[axis]);
      low[axis] = std::min(start[axis], end[axis]);
      high[axis] = std::max(start[axis], end[axis]);
    }
    if (!boxMarked(low, high)) return false;
    start = end;
  }
  return true;
}

double SelfPairTable::certifiedShare() const {
  return static_cast<double>(std::count(marked_.begin(), marked_.end(), 1)) / static_cast<double>(marked_.size());
}

}  // namespace prmkit
