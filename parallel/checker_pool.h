#pragma once
// Work spread over threads, each with its own checker: the caller's checker
// and clones of it (checkers keep per-call working state and caches, so one
// instance per thread). Items are handed out one at a time, as their costs
// differ by orders of magnitude; whoever uses the pool makes each item's
// result independent of which thread ran it.
#include "checkers/checker.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace prmkit {

class CheckerPool {
 public:
  /// `threads` in all, counting the caller's: threads - 1 workers on clones
  /// of `checker`; the caller works with `checker` itself (worker 0). With
  /// `helpersAfter`, the workers start only when grow() is called that long
  /// after the pool was made: a run of milliseconds pays for no thread, no
  /// clone and no hand-over, and a longer one gets every thread.
  CheckerPool(Checker& checker, std::size_t threads,
              std::chrono::steady_clock::duration helpersAfter = std::chrono::steady_clock::duration::zero());
  ~CheckerPool();
  CheckerPool(const CheckerPool&) = delete;
  CheckerPool& operator=(const CheckerPool&) = delete;

  /// The threads working now, counting the caller's (one until the workers start).
  std::size_t threads() const { return clones_.size() + 1; }
  /// Starts the workers once the pool has lived `helpersAfter`; true when it
  /// did now. Called by the owner where nothing runs on the pool and its own
  /// per-thread state can follow threads().
  bool grow();
  /// The checker of worker `worker` (0: the caller's).
  Checker& checker(std::size_t worker) { return worker == 0 ? checker_ : *clones_[worker - 1]; }

  /// Task signature: (worker, that worker's checker, item index).
  using Task = std::function<void(std::size_t, Checker&, std::size_t)>;
  /// Runs task for items 0 .. count - 1 on every thread and returns when all
  /// are done. `callerFirst`, when given, runs on the calling thread before
  /// it takes items, while the workers have started on them: work that needs
  /// the caller's own checker (drawing samples ahead). An exception thrown by
  /// either on any thread is rethrown here, after every thread has stopped
  /// taking items.
  void run(std::size_t count, const Task& task, const std::function<void()>& callerFirst = {});
  /// Starts task on items 0 .. count - 1 on the workers alone and returns at
  /// once: the caller goes on with its own checker meanwhile. Until
  /// finishBackground() returns, nothing else may run on the pool. With no
  /// workers (one thread) no item runs.
  void startBackground(std::size_t count, Task task);
  /// Waits for the background items: all of them (those no worker has
  /// started run on the caller, with its own checker), or with `cancel` only
  /// those under way (the others never run; the task records which did). An
  /// exception thrown by one is rethrown here. Nothing when none was started.
  void finishBackground(bool cancel);
  /// The work of the workers' clones so far (the caller's checker counts its own).
  CheckStats workerStats() const;

 private:
  void work(std::size_t worker);
  /// Runs items until none is left; the first exception is kept in failure_
  /// and makes every thread stop taking items.
  void drain(std::size_t worker);
  /// Keeps the current exception in failure_ (the first one) and stops every thread taking items.
  void fail();
  /// Opens a run on the current task_ and count_ and wakes the workers.
  void wakeWorkers();
  /// Closes the current run (no worker joins it any more) and waits until
  /// the workers that joined it are done: never for a thread that has not
  /// started (on a busy machine it may get no core for milliseconds).
  void awaitWorkers();

  /// Makes the clones and starts the workers.
  void startWorkers();

  Checker& checker_;
  std::size_t wanted_;  // threads asked for, counting the caller's
  std::chrono::steady_clock::time_point created_;
  std::chrono::steady_clock::duration helpersAfter_;
  std::vector<std::unique_ptr<Checker>> clones_;
  std::vector<std::jthread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  // Written under mutex_ (so that a sleeping thread cannot miss a change),
  // read without it by threads that spin before they sleep.
  std::atomic<std::uint64_t> generation_{0};  // bumped for each run
  bool open_ = false;                         // workers may still join the current run (under mutex_)
  std::atomic<std::size_t> active_{0};        // workers that joined the current run and are still on it
  std::atomic<bool> stopping_{false};
  const Task* task_ = nullptr;
  Task backgroundTask_;  // the task of startBackground, owned while it runs
  bool background_ = false;
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};
  std::exception_ptr failure_;  // guarded by mutex_
};

/// The thread count a setting of 0 means: every core the system reports (at least 1).
std::size_t resolveThreads(std::size_t requested);

}  // namespace prmkit
