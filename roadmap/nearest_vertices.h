#pragma once
// The roadmap's nearest-neighbour queries, on a k-d tree (nanoflann's
// dynamic index: trees of 2^i points, rebuilt as points arrive) over a
// contiguous copy of coordinates. Where the robot's metric is the Euclidean
// norm of its coordinates (joint-space chains and arms) the tree answers
// directly. Where the robot has a Euclidean embedding that never
// overestimates its metric (SE(2), SE(3): Robot::embed), the tree prunes by
// the embedding and the metric decides, exactly, in one search per variant
// of the query: the bound the tree prunes with is the metric distance of the
// k-th nearest found so far (or the radius), since every vertex within it
// by the metric is within it in the embedding. The metric reads a copy of
// the configuration kept beside the embedding. Other robots use OMPL's GNAT
// with the robot's metric, which evaluated about a thousand distances per
// new vertex on 20 000-vertex roadmaps.
#include "robots/robot.h"

#include <ompl/datastructures/NearestNeighborsGNATNoThreadSafety.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace prmkit {

class NearestVertices {
 public:
  /// `config(v)`: vertex v's configuration, for GNAT's metric evaluations.
  NearestVertices(const Robot& robot, std::function<const Config&(std::size_t)> config);
  ~NearestVertices();
  NearestVertices(const NearestVertices&) = delete;
  NearestVertices& operator=(const NearestVertices&) = delete;

  /// Adds vertex v (the next index) at q.
  void add(std::size_t v, const Config& q);
  /// Queries may run on several threads at once (the k-d trees; OMPL's GNAT
  /// keeps its search state in the structure).
  bool concurrentQueries() const { return kdTree_ != nullptr; }
  /// The k vertices nearest to vertex v, v itself among them, nearest first.
  void nearestK(std::size_t v, std::size_t k, std::vector<std::size_t>& out) const;
  /// The vertices within `radius` of vertex v, v itself among them, nearest first.
  void nearestR(std::size_t v, double radius, std::vector<std::size_t>& out) const;
  /// The vertex nearest to configuration q (a tie as the structure meets it); at
  /// least one vertex must have been added. Not concurrent with other
  /// queries on GNAT (its metric reads q through the structure).
  std::size_t nearestTo(const Config& q) const;
  /// "k-d tree", "k-d tree on an embedding" or "GNAT".
  std::string structure() const;
  /// Bytes of the k-d tree's copy of the coordinates (and, on an embedding,
  /// of the configurations) (0 with GNAT).
  std::size_t coordinateBytes() const;
  /// Metric evaluations made by queries on an embedding so far.
  std::size_t metricEvaluations() const { return metricEvaluations_.load(); }

  /// The k-d tree (defined with its implementations in the .cpp).
  struct KdTree;

 private:
  /// The k nearest (or, with k = 0, all within radius) by the metric, on the
  /// embedding's k-d tree.
  void nearestEmbedded(const Config& q, std::size_t k, double radius, std::vector<std::size_t>& out) const;
  /// GNAT's element for nearestTo's query (its metric maps it to query_).
  static constexpr std::size_t kQueryElement = static_cast<std::size_t>(-1);
  const Config& element(std::size_t v) const { return v == kQueryElement ? *query_ : config_(v); }

  const Robot& robot_;
  std::function<const Config&(std::size_t)> config_;
  std::unique_ptr<KdTree> kdTree_;
  bool embedded_ = false;  // the tree holds Robot::embed coordinates, not the configurations
  std::vector<std::size_t> embeddingParts_;
  /// Robots without a k-d tree (made only for them: it seeds a random generator).
  std::unique_ptr<ompl::NearestNeighborsGNATNoThreadSafety<std::size_t>> gnat_;
  mutable std::atomic<std::size_t> metricEvaluations_{0};
  mutable const Config* query_ = nullptr;
};

}  // namespace prmkit
