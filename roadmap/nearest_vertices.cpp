#include "roadmap/nearest_vertices.h"

// nanoflann 1.4.2 with a fixed dimension leaves its bounding box
// uninitialised in a branch GCC cannot rule out (it is filled before use).
// (GCC's warning alone: clang, which the fuzz build uses, has no such group.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <nanoflann.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

namespace prmkit {

namespace {
/// nanoflann reads points through a dataset adaptor: here rows of `stride`
/// coordinates in one vector, in vertex order, the tree's `dimension` first.
/// On an embedding each row continues with the configuration's coordinates,
/// which the metric reads next to the embedding the tree has just read.
struct Points {
  std::size_t dimension;
  std::size_t stride;
  std::vector<double> coordinates;
  std::size_t kdtree_get_point_count() const { return coordinates.size() / stride; }
  double kdtree_get_pt(std::size_t index, std::size_t coordinate) const {
    return coordinates[index * stride + coordinate];
  }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};
using KnnResult = nanoflann::KNNResultSet<double, std::uint32_t>;
using RadiusResult = nanoflann::RadiusResultSet<double, std::uint32_t>;

/// Searches the dynamic index's trees from the largest down (nanoflann's own
/// loop starts at the smallest): a k-nearest search then prunes the small
/// trees with the bound the largest gives, instead of filling its result
/// from a tree of a few points first.
template <class Index, class ResultSet>
void searchLargestFirst(const Index& index, ResultSet& result, const double* query) {
  const auto& trees = index.getAllIndices();
  for (auto tree = trees.rbegin(); tree != trees.rend(); ++tree) tree->findNeighbors(result, query, {});
}

/// One query on the embedding's k-d tree.
struct EmbeddedQuery {
  const Robot& robot;
  const double* configuration;  // the query's configSize() coordinates
  const double* variants;       // its embedding, one row of `dimension` per variant
  std::size_t variantCount;
  const std::vector<std::size_t>& parts;  // Robot::embeddingParts
  std::size_t dimension;
  const double* rows;  // the tree's rows: embedding, then configuration
  std::size_t stride;
};

/// A nanoflann result set that ranks the k-d tree's points by the robot's
/// metric while the tree prunes by the embedding. nanoflann skips a subtree
/// (and a leaf's point) whose squared embedding distance reaches worstDist();
/// the embedding never overestimates the metric (Robot::embed), so
/// worstDist() is the square of the metric distance that decides: the k-th
/// nearest so far, or the radius. The tree is searched once per query
/// variant; a point is taken only in the pass of the variant nearest to it in
/// the embedding, whose distance is the lower bound, so each point is taken
/// once and no pass prunes a point it has to take. Before the metric, the sum
/// of the parts' distances (a tighter lower bound, Robot::embeddingParts)
/// turns away most of the points the tree lets through.
class MetricResultSet {
 public:
  using DistanceType = double;
  using IndexType = std::uint32_t;
  /// `k` > 0: the k nearest; otherwise all within `radius`.
  MetricResultSet(std::size_t k, double radius, const EmbeddedQuery& query) : k_(k), radius_(radius), query_(query) {}

  void setPass(std::size_t variant) { pass_ = variant; }

  /// The bound nanoflann prunes with; the margin covers the rounding of the
  /// embedding's and the metric's distances (ties at the bound are kept).
  double worstDist() const {
    const double bound = metricBound();
    return bound == std::numeric_limits<double>::max() ? bound : bound * bound;
  }
  bool full() const { return k_ == 0 || ranked_.size() == k_; }

  bool addPoint(double squaredEmbeddingDistance, std::uint32_t index) {
    const double* row = query_.rows + std::size_t{index} * query_.stride;
    if (nearerVariant(row, squaredEmbeddingDistance) || partsDistance(row) > metricBound()) return true;
    ++evaluations_;
    const std::pair<double, std::uint32_t> entry{
        query_.robot.coordinateDistance(query_.configuration, row + query_.dimension), index};
    if (k_ == 0) {
      if (entry.first <= radius_) ranked_.push_back(entry);
      return true;
    }
    if (ranked_.size() == k_ && !(entry < ranked_.back())) return true;
    ranked_.insert(std::upper_bound(ranked_.begin(), ranked_.end(), entry), entry);
    if (ranked_.size() > k_) ranked_.pop_back();
    return true;
  }

  /// Nearest first (ties by index).
  const std::vector<std::pair<double, std::uint32_t>>& ranked() {
    if (k_ == 0) std::sort(ranked_.begin(), ranked_.end());
    return ranked_;
  }
  std::size_t evaluations() const { return evaluations_; }

 private:
  double metricBound() const {
    if (k_ > 0 && ranked_.size() < k_) return std::numeric_limits<double>::max();
    return (k_ > 0 ? ranked_.back().first : radius_) * (1.0 + 1e-9) + 1e-12;
  }

  /// The sum of the parts' distances from this pass's query variant.
  double partsDistance(const double* row) const {
    const double* variant = query_.variants + pass_ * query_.dimension;
    double sum = 0.0;
    std::size_t i = 0;
    for (const std::size_t part : query_.parts) {
      double squared = 0.0;
      for (const std::size_t end = i + part; i < end; ++i) squared += (variant[i] - row[i]) * (variant[i] - row[i]);
      sum += std::sqrt(squared);
    }
    return sum;
  }

  /// Whether another query variant is nearer to the point in the embedding
  /// than this pass's, at `passSquared` (nanoflann's sum, in the same order),
  /// or as near and earlier: the point belongs to that variant's pass.
  bool nearerVariant(const double* row, double passSquared) const {
    for (std::size_t w = 0; w < query_.variantCount; ++w) {
      if (w == pass_) continue;
      const double* variant = query_.variants + w * query_.dimension;
      double squared = 0.0;
      for (std::size_t i = 0; i < query_.dimension; ++i) squared += (variant[i] - row[i]) * (variant[i] - row[i]);
      if (squared < passSquared || (w < pass_ && squared == passSquared)) return true;
    }
    return false;
  }

  std::size_t k_;
  double radius_;
  const EmbeddedQuery& query_;
  std::size_t pass_ = 0;
  std::size_t evaluations_ = 0;
  std::vector<std::pair<double, std::uint32_t>> ranked_;
};
}  // namespace

/// The k-d tree over the points, behind one interface for the dimensions
/// compiled in (KdTreeOf).
struct NearestVertices::KdTree {
  KdTree(std::size_t dimension, std::size_t stride) : points{dimension, stride, {}} {}
  virtual ~KdTree() = default;
  KdTree(const KdTree&) = delete;
  KdTree& operator=(const KdTree&) = delete;
  /// Indexes vertex v, whose row was just appended to `points`.
  virtual void indexPoint(std::uint32_t v) = 0;
  virtual void search(KnnResult& result, const double* query) const = 0;
  virtual void search(RadiusResult& result, const double* query) const = 0;
  virtual void search(MetricResultSet& result, const double* query) const = 0;
  const double* at(std::size_t v) const { return points.coordinates.data() + v * points.stride; }

  Points points;
};

namespace {
/// nanoflann's dynamic index with the dimension fixed at compile time where
/// it is one the robots use (SE(2)'s embedding 4, arms of 5 to 7 joints,
/// SE(3)'s embedding 7): its per-search distance vector is then an array
/// and its loops are unrolled, a third fewer instructions per Panda query
/// and a quarter fewer on SE(3) than with the dimension at run time
/// (bench/nearest_vertices.cpp under callgrind).
template <int Dimension>
class KdTreeOf final : public NearestVertices::KdTree {
 public:
  KdTreeOf(std::size_t dimension, std::size_t stride)
      : KdTree(dimension, stride),
        index_(static_cast<int>(dimension), points, nanoflann::KDTreeSingleIndexAdaptorParams(16),
               std::size_t{1} << 32) {}
  void indexPoint(std::uint32_t v) override { index_.addPoints(v, v); }
  void search(KnnResult& result, const double* query) const override { searchLargestFirst(index_, result, query); }
  void search(RadiusResult& result, const double* query) const override { searchLargestFirst(index_, result, query); }
  void search(MetricResultSet& result, const double* query) const override {
    searchLargestFirst(index_, result, query);
  }

 private:
  using Metric = nanoflann::L2_Simple_Adaptor<double, Points>;
  // Up to 2^32 points (vertex indices are 32-bit in the index); one tree per bit.
  nanoflann::KDTreeSingleIndexDynamicAdaptor<Metric, Points, Dimension, std::uint32_t> index_;
};

std::unique_ptr<NearestVertices::KdTree> makeKdTree(std::size_t dimension, std::size_t stride) {
  switch (dimension) {
    case 4:
      return std::make_unique<KdTreeOf<4>>(dimension, stride);
    case 5:
      return std::make_unique<KdTreeOf<5>>(dimension, stride);
    case 6:
      return std::make_unique<KdTreeOf<6>>(dimension, stride);
    case 7:
      return std::make_unique<KdTreeOf<7>>(dimension, stride);
    default:
      return std::make_unique<KdTreeOf<-1>>(dimension, stride);
  }
}
}  // namespace

NearestVertices::NearestVertices(const Robot& robot, std::function<const Config&(std::size_t)> config)
    : robot_(robot), config_(std::move(config)) {
  if (robot.euclideanMetric()) {
    kdTree_ = makeKdTree(robot.dof(), robot.dof());
  } else if (robot.embeddingDimension() > 0) {
    kdTree_ = makeKdTree(robot.embeddingDimension(), robot.embeddingDimension() + robot.configSize());
    embedded_ = true;
    embeddingParts_ = robot.embeddingParts();
  } else {
    gnat_ = std::make_unique<ompl::NearestNeighborsGNATNoThreadSafety<std::size_t>>();
    gnat_->setDistanceFunction(
        [this](const std::size_t& a, const std::size_t& b) { return robot_.distance(element(a), element(b)); });
  }
}

NearestVertices::~NearestVertices() = default;

std::string NearestVertices::structure() const {
  return !kdTree_ ? "GNAT" : embedded_ ? "k-d tree on an embedding" : "k-d tree";
}

void NearestVertices::add(std::size_t v, const Config& q) {
  if (!kdTree_) {
    gnat_->add(v);
    return;
  }
  auto& coordinates = kdTree_->points.coordinates;
  if (embedded_) {
    const std::size_t at = coordinates.size();
    coordinates.resize(at + kdTree_->points.stride);
    robot_.embed(q, 0, coordinates.data() + at);
    std::copy(q.data(), q.data() + q.size(), coordinates.data() + at + kdTree_->points.dimension);
  } else {
    coordinates.insert(coordinates.end(), q.data(), q.data() + q.size());
  }
  kdTree_->indexPoint(static_cast<std::uint32_t>(v));
}

void NearestVertices::nearestK(std::size_t v, std::size_t k, std::vector<std::size_t>& out) const {
  out.clear();
  if (!kdTree_) {
    gnat_->nearestK(v, k, out);
    return;
  }
  if (embedded_) {
    nearestEmbedded(config_(v), k, 0.0, out);
    return;
  }
  std::vector<std::uint32_t> indices(k);
  std::vector<double> squaredDistances(k);
  KnnResult result(k);
  result.init(indices.data(), squaredDistances.data());
  kdTree_->search(result, kdTree_->at(v));
  out.assign(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(result.size()));
}

void NearestVertices::nearestR(std::size_t v, double radius, std::vector<std::size_t>& out) const {
  out.clear();
  if (!kdTree_) {
    gnat_->nearestR(v, radius, out);
    return;
  }
  if (embedded_) {
    nearestEmbedded(config_(v), 0, radius, out);
    return;
  }
  std::vector<std::pair<std::uint32_t, double>> found;
  RadiusResult result(radius * radius, found);
  kdTree_->search(result, kdTree_->at(v));
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first < b.first;
  });
  for (const auto& [index, squaredDistance] : found) out.push_back(index);
}

std::size_t NearestVertices::nearestTo(const Config& q) const {
  if (!kdTree_) {
    query_ = &q;
    const std::size_t nearest = gnat_->nearest(kQueryElement);
    query_ = nullptr;
    return nearest;
  }
  std::vector<std::size_t> out;
  if (embedded_) {
    nearestEmbedded(q, 1, 0.0, out);
    return out.front();
  }
  std::uint32_t index = 0;
  double squaredDistance = 0.0;
  KnnResult result(1);
  result.init(&index, &squaredDistance);
  kdTree_->search(result, q.data());
  return index;
}

void NearestVertices::nearestEmbedded(const Config& q, std::size_t k, double radius,
                                      std::vector<std::size_t>& out) const {
  const std::size_t dimension = kdTree_->points.dimension;
  const std::size_t variants = robot_.embeddingVariants();
  // Working state per call: queries may run on several threads.
  std::vector<double> variantRows(dimension * variants);
  for (std::size_t w = 0; w < variants; ++w) robot_.embed(q, w, variantRows.data() + w * dimension);
  const EmbeddedQuery query{robot_,
                            q.data(),
                            variantRows.data(),
                            variants,
                            embeddingParts_,
                            dimension,
                            kdTree_->points.coordinates.data(),
                            kdTree_->points.stride};
  MetricResultSet result(k, radius, query);
  for (std::size_t w = 0; w < variants; ++w) {
    result.setPass(w);
    kdTree_->search(result, variantRows.data() + w * dimension);
  }
  for (const auto& [distance, index] : result.ranked()) out.push_back(index);
  metricEvaluations_ += result.evaluations();
}

std::size_t NearestVertices::coordinateBytes() const {
  return kdTree_ ? kdTree_->points.coordinates.capacity() * sizeof(double) : 0;
}

}  // namespace prmkit
