#pragma once
// Schwarzer, Saha & Latombe's certificate (IEEE T-RO 2005, Sec. 3), made
// once per self pair instead of once per motion. Two links of a chain whose
// relative pose follows at most two joints (a wrist and the hand above it)
// are close at almost every configuration: no sphere set separates them,
// and every motion of an exact check spends most of its distance queries on
// them. Their relative pose, and so whether they touch, depends on those
// joints alone: the table cuts the joints' box of limits into cells
// (quadtree, refined where a cell does not certify) and marks a cell free
// when the links' distance at its centre exceeds the most any point of one
// link moves relative to the other over the cell (the lever bound). Every
// configuration whose coordinates fall in marked cells is then free for the
// pair, whatever the other joints; a motion is free for the pair when the
// cells its projection crosses are all marked.
#include "geometry/query_counts.h"
#include "robots/kinematic_chain.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace prmkit {

/// The finest cells of the tables the checkers make: 1 / 2^8 of each joint's range.
inline constexpr int kSelfPairTableDepth = 8;

class SelfPairTable {
 public:
  /// The table of links i and k of `chain` (link indices), refined down to
  /// cells of 1 / 2^depth of each joint's range; empty when their relative
  /// pose follows more than two joints, a prismatic one, or a joint without
  /// limits, or when neither link's frame is above the other's. Counts its
  /// distance queries into `stats`.
  static std::optional<SelfPairTable> build(const KinematicChain& chain, std::size_t i, std::size_t k, int depth,
                                            QueryCounts& stats);
  /// The same, made once per process for each robot content (a benchmark
  /// loads the same robot once per problem; every checker of it shares the
  /// table): null where build gives none. Thread-safe.
  static std::shared_ptr<const SelfPairTable> shared(const KinematicChain& chain, std::size_t i, std::size_t k,
                                                     int depth);
  /// Distance queries made the table.
  std::uint64_t queries() const { return queries_; }
  /// The pair is free at q (certified by a marked cell).
  bool certifiesAt(const Config& q) const;
  /// The pair is free at every configuration of the straight motion a -> b.
  bool certifiesAlong(const Config& a, const Config& b) const;
  /// The share of the joints' box that is marked free.
  double certifiedShare() const;
  std::size_t coordinateCount() const { return dims_; }

 private:
  SelfPairTable() = default;
  /// Grid coordinates of q's projection (cell units), per table axis.
  std::array<double, 2> gridPoint(const Config& q) const;
  /// Every cell meeting the box [low, high] (cell units) is marked.
  bool boxMarked(const std::array<double, 2>& low, const std::array<double, 2>& high) const;

  std::size_t dims_ = 0;
  std::array<int, 2> coordinates_{-1, -1};
  std::array<double, 2> lower_{}, cellWidth_{};
  std::size_t cellsPerAxis_ = 1;
  std::vector<std::uint8_t> marked_;  // finest cells, the first axis fastest
  std::uint64_t queries_ = 0;
};

}  // namespace prmkit
