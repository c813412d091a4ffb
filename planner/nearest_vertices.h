#pragma once
// The roadmap's nearest-neighbour queries. Where the robot's metric is the
// Euclidean norm of its coordinates (joint-space chains and arms), a k-d tree
// (nanoflann's dynamic index: trees of 2^i points, rebuilt as points arrive)
// over a contiguous copy of the coordinates; otherwise (the SE(2) and SE(3)
// metrics, which a k-d tree cannot prune on) OMPL's GNAT with the robot's
// metric. On a Panda roadmap GNAT evaluated about a thousand distances per
// new vertex at 20 000 vertices, each two pointer hops from the graph.
#include "robots/robot.h"

#include <ompl/datastructures/NearestNeighborsGNATNoThreadSafety.h>

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
  /// The k vertices nearest to vertex v, v itself among them, nearest first.
  void nearestK(std::size_t v, std::size_t k, std::vector<std::size_t>& out) const;
  /// The vertices within `radius` of vertex v, v itself among them, nearest first.
  void nearestR(std::size_t v, double radius, std::vector<std::size_t>& out) const;
  /// "k-d tree" or "GNAT".
  std::string structure() const { return kdTree_ ? "k-d tree" : "GNAT"; }
  /// Bytes of the k-d tree's copy of the coordinates (0 with GNAT).
  std::size_t coordinateBytes() const;

 private:
  struct KdTree;
  std::unique_ptr<KdTree> kdTree_;
  ompl::NearestNeighborsGNATNoThreadSafety<std::size_t> gnat_;
};

}  // namespace prmkit
