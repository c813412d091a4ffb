#include "planner/nearest_vertices.h"

#include <nanoflann.hpp>

#include <algorithm>
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

NearestVertices::NearestVertices(const Robot& robot, std::function<const Config&(std::size_t)> config) {
  if (robot.euclideanMetric()) {
    kdTree_ = std::make_unique<KdTree>(static_cast<std::size_t>(robot.dof()));
  } else {
    gnat_.setDistanceFunction([&robot, config = std::move(config)](const std::size_t& a, const std::size_t& b) {
      return robot.distance(config(a), config(b));
    });
  }
}

NearestVertices::~NearestVertices() = default;

void NearestVertices::add(std::size_t v, const Config& q) {
  if (!kdTree_) {
    gnat_.add(v);
    return;
  }
  auto& coordinates = kdTree_->points.coordinates;
  coordinates.insert(coordinates.end(), q.data(), q.data() + q.size());
  kdTree_->index.addPoints(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v));
}

void NearestVertices::nearestK(std::size_t v, std::size_t k, std::vector<std::size_t>& out) const {
  out.clear();
  if (!kdTree_) {
    gnat_.nearestK(v, k, out);
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
  std::vector<std::pair<std::uint32_t, double>> found;
  nanoflann::RadiusResultSet<double, std::uint32_t> result(radius * radius, found);
  kdTree_->index.findNeighbors(result, kdTree_->at(v), nanoflann::SearchParams());
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
  for (const auto& [index, squaredDistance] : found) out.push_back(index);
}

std::size_t NearestVertices::coordinateBytes() const {
  return kdTree_ ? kdTree_->points.coordinates.capacity() * sizeof(double) : 0;
}

}  // namespace prmkit
