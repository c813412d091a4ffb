#include "planner/nearest_vertices.h"

#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace prmkit {

/// nanoflann reads points through a dataset adaptor: here rows of `dof`
/// coordinates in one vector, in vertex order.
struct NearestVertices::KdTree {
  struct Points {
    std::size_t dof;
    std::vector<double> coordinates;
    std::size_t kdtree_get_point_count() const { return coordinates.size() / dof; }
    double kdtree_get_pt(std::size_t index, std::size_t dimension) const {
      return coordinates[index * dof + dimension];
    }
    template <class Box>
    bool kdtree_get_bbox(Box&) const {
      return false;
    }
  };
  using Metric = nanoflann::L2_Simple_Adaptor<double, Points>;
  // Up to 2^32 points (vertex indices are 32-bit in the index); one tree per bit.
  using Index = nanoflann::KDTreeSingleIndexDynamicAdaptor<Metric, Points, -1, std::uint32_t>;

  explicit KdTree(std::size_t dof)
      : points{dof, {}},
        index(static_cast<int>(dof), points, nanoflann::KDTreeSingleIndexAdaptorParams(16), std::size_t{1} << 32) {}

  const double* at(std::size_t v) const { return points.coordinates.data() + v * points.dof; }

  Points points;  // before `index`, which keeps a reference to it
  Index index;
};

NearestVertices::NearestVertices(const Robot& robot, std::function<const Config&(std::size_t)> config)
    : robot_(robot), config_(std::move(config)) {
  if (robot.euclideanMetric()) {
    kdTree_ = std::make_unique<KdTree>(static_cast<std::size_t>(robot.dof()));
  } else if (robot.embeddingDimension() > 0) {
    kdTree_ = std::make_unique<KdTree>(robot.embeddingDimension());
    embedded_ = true;
  } else {
    gnat_.setDistanceFunction(
        [this](const std::size_t& a, const std::size_t& b) { return robot_.distance(config_(a), config_(b)); });
  }
}

NearestVertices::~NearestVertices() = default;

std::string NearestVertices::structure() const {
  return !kdTree_ ? "GNAT" : embedded_ ? "k-d tree on an embedding" : "k-d tree";
}

void NearestVertices::add(std::size_t v, const Config& q) {
  if (!kdTree_) {
    gnat_.add(v);
    return;
  }
  auto& coordinates = kdTree_->points.coordinates;
  if (embedded_) {
    const std::size_t at = coordinates.size();
    coordinates.resize(at + kdTree_->points.dof);
    robot_.embed(q, 0, coordinates.data() + at);
  } else {
    coordinates.insert(coordinates.end(), q.data(), q.data() + q.size());
  }
  kdTree_->index.addPoints(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v));
}

void NearestVertices::nearestK(std::size_t v, std::size_t k, std::vector<std::size_t>& out) const {
  out.clear();
  if (!kdTree_) {
    gnat_.nearestK(v, k, out);
    return;
  }
  if (embedded_) {
    nearestEmbedded(v, k, 0.0, out);
    return;
  }
  std::vector<std::uint32_t> indices(k);
  std::vector<double> squaredDistances(k);
  nanoflann::KNNResultSet<double, std::uint32_t> result(k);
  result.init(indices.data(), squaredDistances.data());
  kdTree_->index.findNeighbors(result, kdTree_->at(v), nanoflann::SearchParams());
  out.assign(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(result.size()));
}

void NearestVertices::nearestR(std::size_t v, double radius, std::vector<std::size_t>& out) const {
  out.clear();
  if (!kdTree_) {
    gnat_.nearestR(v, radius, out);
    return;
  }
  if (embedded_) {
    nearestEmbedded(v, 0, radius, out);
    return;
  }
  std::vector<std::pair<std::uint32_t, double>> found;
  nanoflann::RadiusResultSet<double, std::uint32_t> result(radius * radius, found);
  kdTree_->index.findNeighbors(result, kdTree_->at(v), nanoflann::SearchParams());
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
  for (const auto& [index, squaredDistance] : found) out.push_back(index);
}

void NearestVertices::nearestEmbedded(std::size_t v, std::size_t k, double radius,
                                      std::vector<std::size_t>& out) const {
  const std::size_t dimension = kdTree_->points.dof;
  const std::size_t variants = robot_.embeddingVariants();
  const Config& q = config_(v);
  // Working state per call: queries may run on several threads.
  std::vector<double> query(dimension * variants);
  for (std::size_t w = 0; w < variants; ++w) robot_.embed(q, w, query.data() + w * dimension);
  std::vector<std::pair<double, std::size_t>> ranked;
  std::size_t evaluations = 0;
  auto rank = [&](std::uint32_t index) {
    ++evaluations;
    ranked.emplace_back(robot_.distance(q, config_(index)), index);
  };
  auto rankedOrder = [&] {
    std::sort(ranked.begin(), ranked.end());
    ranked.erase(
        std::unique(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second == b.second; }),
        ranked.end());
  };
  // Variants searched by radius (variant 0 may be settled by its k nearest alone).
  std::size_t firstRadiusVariant = 0;
  if (radius <= 0.0) {
    // Candidates: the 2k nearest to variant 0 by the embedding. A vertex
    // outside them is at least their farthest from variant 0 in the embedding,
    // so no farther by the metric: when that exceeds the k-th candidate's
    // metric distance, variant 0 needs no radius search.
    const std::size_t wanted = 2 * k;
    std::vector<std::uint32_t> indices(wanted);
    std::vector<double> squaredDistances(wanted);
    nanoflann::KNNResultSet<double, std::uint32_t> result(wanted);
    result.init(indices.data(), squaredDistances.data());
    kdTree_->index.findNeighbors(result, query.data(), nanoflann::SearchParams());
    for (std::size_t i = 0; i < result.size(); ++i) rank(indices[i]);
    rankedOrder();
    if (ranked.size() < k) {  // fewer vertices than k: all of them
      for (const auto& [distance, index] : ranked) out.push_back(index);
      metricEvaluations_ += evaluations;
      return;
    }
    radius = ranked[k - 1].first;
    const bool allVertices = result.size() < wanted;
    if (allVertices || radius < std::sqrt(squaredDistances[result.size() - 1]) * (1.0 - 1e-9)) firstRadiusVariant = 1;
  }
  // Every vertex within `radius` by the metric is within it in the embedding
  // for some variant (the margin covers the rounding of both); ties at the
  // radius are kept.
  const double searchRadius = radius * (1.0 + 1e-9) + 1e-12;
  std::vector<std::pair<std::uint32_t, double>> found;
  if (firstRadiusVariant == 0) ranked.clear();
  for (std::size_t w = firstRadiusVariant; w < variants; ++w) {
    found.clear();
    nanoflann::RadiusResultSet<double, std::uint32_t> result(searchRadius * searchRadius, found);
    kdTree_->index.findNeighbors(result, query.data() + w * dimension, nanoflann::SearchParams());
    for (const auto& [index, squaredDistance] : found) rank(index);
  }
  rankedOrder();
  for (const auto& [distance, index] : ranked) {
    if (k > 0 ? out.size() == k : distance > radius) break;
    out.push_back(index);
  }
  metricEvaluations_ += evaluations;
}

std::size_t NearestVertices::coordinateBytes() const {
  return kdTree_ ? kdTree_->points.coordinates.capacity() * sizeof(double) : 0;
}

}  // namespace prmkit
