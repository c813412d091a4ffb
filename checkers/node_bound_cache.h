#pragma once
// The pairs' distance bounds known at roadmap configurations, kept from one
// check to the next: a lazy planner's candidate paths share most nodes, and
// a node's bounds settle most of its pairs before any new distance query
// (SSL 2005 reuse distances at a segment's ends the same way within a check).
// In rounds (Checker::startRounds) the cache is shared by the clones made
// since, so that checks on threads learn from one another deterministically.
#include "geometry/bvh_distance.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prmkit {

class NodeBoundCache {
 public:
  /// (pair, bound) for the pairs measured at a node.
  using Bounds = std::vector<std::pair<std::uint32_t, DistanceBound>>;

  /// At most `capacity` nodes are kept; past it the cache starts again.
  explicit NodeBoundCache(std::size_t capacity) : capacity_(capacity) {}
  /// An empty cache of the same capacity that shares this one's rounds (a clone's).
  NodeBoundCache sharingRounds() const;

  /// The bounds known at the node whose bytes are `key` (in rounds: those
  /// settled by the rounds before), or none.
  const Bounds* find(const std::string& key) const;
  /// What one check measured at its nodes, one entry per node (empty bounds
  /// where none was measured). Outside rounds each node's entry replaces what
  /// was kept; in rounds it waits for endRound.
  void keep(std::vector<std::pair<std::string, Bounds>> nodes);

  void startRounds();
  /// Merges what the round's checks measured, keeping the better of two
  /// bounds of a node and pair (whatever order the checks ran in).
  void endRound();
  void stopRounds();

 private:
  using Nodes = std::unordered_map<std::string, Bounds>;
  /// The cache in rounds: checks read `settled` and add what they measured to `learnt`.
  struct Shared {
    Nodes settled;
    std::mutex mutex;
    std::vector<std::tuple<std::string, std::uint32_t, DistanceBound>> learnt;  // guarded by mutex
  };
  std::size_t capacity_;
  Nodes nodes_;
  std::shared_ptr<Shared> rounds_;
};

}  // namespace prmkit
