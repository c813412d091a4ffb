#pragma once
// Edge checks of one roadmap step spread over a CheckerPool's threads, as
// rounds of the checker's, so that verdicts do not depend on the thread count.
#include "parallel/checker_pool.h"

#include <vector>

namespace prmkit {

class EdgeCheckPool {
 public:
  /// `threads` in all, counting the caller's; the workers start at the
  /// first check `helpersAfter` after the pool was made (CheckerPool).
  EdgeCheckPool(Checker& checker, std::size_t threads,
                std::chrono::steady_clock::duration helpersAfter = std::chrono::steady_clock::duration::zero());
  ~EdgeCheckPool();
  EdgeCheckPool(const EdgeCheckPool&) = delete;
  EdgeCheckPool& operator=(const EdgeCheckPool&) = delete;

  std::size_t threads() const { return pool_.threads(); }
  /// Checks every edge (a, b) and returns the verdicts in the same order, as
  /// one round of the checker's (Checker::startRounds): what a check learns
  /// reaches the next call's checks, not this one's, so the verdicts do not
  /// depend on the thread count. Which thread checks which edge varies. Checks
  /// made with the checker outside this pool while it exists join the next round. An exception thrown by a check on
  /// any thread is rethrown here, after every thread has stopped.
  /// `callerFirst`: work of the caller's on its own checker meanwhile (CheckerPool::run).
  std::vector<EdgeResult> check(const std::vector<std::pair<const Config*, const Config*>>& edges,
                                const std::function<void()>& callerFirst = {});
  /// Other work of the same step on the same threads (CheckerPool::run),
  /// such as the new vertices' neighbour searches; no checks.
  void run(std::size_t count, const CheckerPool::Task& task) {
    pool_.grow();
    pool_.run(count, task);
  }
  /// The work of the workers' clones so far (the caller's checker counts its own).
  CheckStats workerStats() const { return pool_.workerStats(); }

 private:
  Checker& checker_;
  CheckerPool pool_;
};

}  // namespace prmkit
