#pragma once
// The configurations an exact check measures along a path (SSL 2005's q_a,
// q_b and the split points between them), each with one distance bound per
// body pair: the path's nodes, named by their bytes so that their bounds come
// from the node-bound cache and go back to it, and the bisection's points,
// named by segment and parameter so that a second element splitting the same
// point finds the first one's bounds. Samples are reused from check to check,
// so that their vectors keep their storage.
#include "checkers/motion_models.h"
#include "checkers/node_bound_cache.h"

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace prmkit {

class BisectionSamples {
 public:
  struct Sample {
    Config q;
    std::vector<Transform> poses;          // empty until a distance needs them
    std::vector<Eigen::Vector3d> centres;  // links' enclosing sphere centres (world), set by the probes
    std::vector<DistanceBound> bounds;     // per pair
    std::vector<bool> from_cache;          // bound loaded from the node cache
    /// Pairs whose bound is known (computed since the sample was made, or
    /// loaded from the node cache): a reused sample resets only those (a
    /// bisection sample usually serves one pair of hundreds).
    std::vector<std::uint32_t> touched;
    SampleTwists twists;  // per segment through the sample, as the motion models ask for them
  };
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  /// Samples with `pairs` bounds each; the node cache keeps at most `cacheNodes` configurations.
  BisectionSamples(std::size_t pairs, std::size_t cacheNodes) : pairs_(pairs), nodeBounds_(cacheNodes) {}

  /// Forgets the samples of the check before (the node cache stays).
  void startCheck();
  /// The sample at path node q, with the bounds the node cache knows there.
  std::uint32_t node(const Config& q);
  /// The sample at parameter t of segment `segment` (at q), made if new.
  std::uint32_t split(std::uint32_t segment, double t, const Config& q);
  /// A fresh sample at q, with no name (no other check step will look it up).
  std::uint32_t fresh(const Config& q);
  Sample& operator[](std::uint32_t index) { return samples_[index]; }
  const Sample& operator[](std::uint32_t index) const { return samples_[index]; }

  /// Keeps the bounds measured at the path's nodes for later checks (only
  /// the pairs measured there: the probes leave most of a node's pairs unmeasured).
  void keepNodeBounds(const std::vector<std::uint32_t>& nodes);
  NodeBoundCache& nodeBounds() { return nodeBounds_; }
  const NodeBoundCache& nodeBounds() const { return nodeBounds_; }

 private:
  std::uint32_t named(const Config& q, bool node, std::string key);

  std::size_t pairs_;
  std::vector<Sample> samples_;  // the first count_ are this check's
  std::size_t count_ = 0;
  std::unordered_map<std::string, std::uint32_t> byKey_;
  NodeBoundCache nodeBounds_;
};

}  // namespace prmkit
