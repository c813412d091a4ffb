#pragma once
// Edge checks of one roadmap step spread over threads, each with its own
// checker clone (checkers keep per-call working state and caches, so one
// instance per thread).
#include "checkers/checker.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace prmkit {

class EdgeCheckPool {
 public:
  /// `threads` in all, counting the caller's: threads - 1 workers on clones
  /// of `checker`; the caller checks with `checker` itself.
  EdgeCheckPool(Checker& checker, std::size_t threads);
  ~EdgeCheckPool();
  EdgeCheckPool(const EdgeCheckPool&) = delete;
  EdgeCheckPool& operator=(const EdgeCheckPool&) = delete;

  std::size_t threads() const { return clones_.size() + 1; }
  /// Checks every edge (a, b) and returns the verdicts in the same order, as
  /// one round of the checker's (Checker::startRounds): what a check learns
  /// reaches the next call's checks, not this one's, so the verdicts do not
  /// depend on the thread count. Which thread checks which edge varies. Checks
  /// made with the checker outside this pool while it exists join the next round. An exception thrown by a check on
  /// any thread is rethrown here, after every thread has stopped.
  std::vector<EdgeResult> check(const std::vector<std::pair<const Config*, const Config*>>& edges);
  /// The work of the workers' clones so far (the caller's checker counts its own).
  CheckStats workerStats() const;

 private:
  void work(std::size_t worker);
  /// Checks edges until none is left; the first exception is kept in failure_
  /// and makes every thread stop taking edges.
  void drain(Checker& checker);

  Checker& checker_;
  std::vector<std::unique_ptr<Checker>> clones_;
  std::vector<std::jthread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::uint64_t generation_ = 0;  // bumped for each batch of edges
  std::size_t busy_ = 0;          // workers still on the current batch
  bool stopping_ = false;
  const std::vector<std::pair<const Config*, const Config*>>* edges_ = nullptr;
  std::vector<EdgeResult> results_;
  std::atomic<std::size_t> next_{0};
  std::exception_ptr failure_;  // guarded by mutex_
};

/// The thread count a setting of 0 means: every core the system reports (at least 1).
std::size_t resolveThreads(std::size_t requested);

}  // namespace prmkit
