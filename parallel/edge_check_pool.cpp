#include "parallel/edge_check_pool.h"

namespace prmkit {

namespace {
/// Every thread count, one included, checks in rounds: a batch's checks see
/// what the batches before learnt and nothing of each other's. Rounds start
/// before the clones are made, so that they share the round's node cache.
Checker& inRounds(Checker& checker) {
  checker.startRounds();
  return checker;
}
}  // namespace

EdgeCheckPool::EdgeCheckPool(Checker& checker, std::size_t threads, std::chrono::steady_clock::duration helpersAfter)
    : checker_(inRounds(checker)), pool_(checker, threads, helpersAfter) {}

EdgeCheckPool::~EdgeCheckPool() { checker_.stopRounds(); }

std::vector<EdgeResult> EdgeCheckPool::check(const std::vector<std::pair<const Config*, const Config*>>& edges,
                                             const std::function<void()>& callerFirst) {
  std::vector<EdgeResult> results(edges.size());
  pool_.grow();
  try {
    pool_.run(
        edges.size(),
        [&](std::size_t, Checker& checker, std::size_t i) {
          results[i] = checker.checkEdge(*edges[i].first, *edges[i].second);
        },
        callerFirst);
  } catch (...) {
    checker_.endRound();
    throw;
  }
  checker_.endRound();
  return results;
}

}  // namespace prmkit
