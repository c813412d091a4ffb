#include "parallel/checker_pool.h"

#include <algorithm>
#include <chrono>
#include <sched.h>
#include <stdexcept>
#include <vector>
#include <utility>

namespace prmkit {

namespace {
/// How long a thread that ran out of work polls before it sleeps. prm's
/// rounds on a small roadmap are a few edges of tens of microseconds each,
/// about what waking a sleeping thread takes; polling (yielding the core to
/// any other thread that wants it) lets the next round start at once.
constexpr std::chrono::microseconds kPollBeforeSleep{200};

/// True once `ready` holds, polled for at most kPollBeforeSleep.
template <class Ready>
bool pollFor(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kPollBeforeSleep;
  do {
    if (ready()) return true;
    std::this_thread::yield();
  } while (std::chrono::steady_clock::now() < until);
  return ready();
}

/// Moves the calling thread to the `offset`-th CPU after `callerCpu` among
/// those it may run on, then lets it run on all of them again. Linux starts a
/// new thread on its creator's CPU and moves it only when it balances load,
/// every few milliseconds; a worker that polls for work there meanwhile
/// shares that CPU with the caller, and a run of a few milliseconds gains
/// nothing from its second thread. Once moved, a thread stays where it is
/// unless the load calls for a move.
void startAwayFrom(int callerCpu, std::size_t offset) {
  cpu_set_t allowed;
  if (callerCpu < 0 || sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  const auto caller = std::find(cpus.begin(), cpus.end(), callerCpu);
  if (cpus.size() < 2 || caller == cpus.end()) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus[(static_cast<std::size_t>(caller - cpus.begin()) + offset) % cpus.size()], &one);
  if (sched_setaffinity(0, sizeof one, &one) == 0) sched_setaffinity(0, sizeof allowed, &allowed);
}
}  // namespace

std::size_t resolveThreads(std::size_t requested) {
  if (requested > 0) return requested;
  return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

CheckerPool::CheckerPool(Checker& checker, std::size_t threads, std::chrono::steady_clock::duration helpersAfter)
    : checker_(checker), wanted_(threads), created_(std::chrono::steady_clock::now()), helpersAfter_(helpersAfter) {
  if (helpersAfter <= std::chrono::steady_clock::duration::zero()) startWorkers();
}

void CheckerPool::startWorkers() {
  for (std::size_t i = 1; i < wanted_; ++i) clones_.push_back(checker_.clone());
  const int callerCpu = sched_getcpu();
  for (std::size_t i = 1; i < wanted_; ++i)
    workers_.emplace_back([this, i, callerCpu] {
      startAwayFrom(callerCpu, i);
      work(i);
    });
}

bool CheckerPool::grow() {
  if (!workers_.empty() || wanted_ <= 1 || background_) return false;
  if (std::chrono::steady_clock::now() - created_ < helpersAfter_) return false;
  startWorkers();
  return true;
}

CheckerPool::~CheckerPool() {
  next_ = count_;  // background items not yet under way never start
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  workers_.clear();  // joins
}

void CheckerPool::drain(std::size_t worker) {
  Checker& mine = checker(worker);
  try {
    for (std::size_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) (*task_)(worker, mine, i);
  } catch (...) {
    fail();
  }
}

void CheckerPool::fail() {
  next_ = count_;  // the others stop after their current item
  std::lock_guard lock(mutex_);
  if (!failure_) failure_ = std::current_exception();
}

void CheckerPool::work(std::size_t worker) {
  std::uint64_t seen = 0;
  const auto woken = [&] { return stopping_ || generation_ != seen; };
  while (true) {
    if (!pollFor(woken)) {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, woken);
    }
    {
      // A thread joins a run only while it is open: one that got no core
      // until the caller had taken every item and closed the run has nothing
      // of it to do, and the caller never waits for it.
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      seen = generation_;
      if (!open_) continue;
      ++active_;
    }
    drain(worker);
    if (active_.fetch_sub(1) == 1) {
      // The caller may be between its check of active_ and its wait: taking
      // the mutex orders this notification after that wait began.
      { std::lock_guard lock(mutex_); }
      finished_.notify_one();
    }
  }
}

void CheckerPool::wakeWorkers() {
  {
    std::lock_guard lock(mutex_);
    open_ = true;
    ++generation_;
  }
  wake_.notify_all();
}

void CheckerPool::awaitWorkers() {
  {
    std::lock_guard lock(mutex_);
    open_ = false;  // from here no thread joins: the caller waits only for those already on items
  }
  const auto done = [&] { return active_ == 0; };
  if (!pollFor(done)) {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, done);
  }
}

void CheckerPool::run(std::size_t count, const Task& task, const std::function<void()>& callerFirst) {
  if (background_) throw std::logic_error("CheckerPool::run while background items run");
  task_ = &task;
  count_ = count;
  next_ = 0;
  const auto callersOwn = [&] {
    if (!callerFirst) return;
    try {
      callerFirst();
    } catch (...) {
      fail();
    }
  };
  // One item is not worth waking anyone.
  if (!workers_.empty() && count > 1) {
    wakeWorkers();
    callersOwn();
    drain(0);
    awaitWorkers();
  } else {
    callersOwn();
    drain(0);
  }
  task_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void CheckerPool::startBackground(std::size_t count, Task task) {
  if (background_) throw std::logic_error("CheckerPool::startBackground while background items run");
  if (workers_.empty() || count == 0) return;
  backgroundTask_ = std::move(task);
  task_ = &backgroundTask_;
  count_ = count;
  next_ = 0;
  background_ = true;
  wakeWorkers();
}

void CheckerPool::finishBackground(bool cancel) {
  if (!background_) return;
  if (cancel)
    next_ = count_;  // the workers stop after their current item
  else
    drain(0);  // what no worker has started, the caller does itself
  awaitWorkers();
  background_ = false;
  task_ = nullptr;
  backgroundTask_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

CheckStats CheckerPool::workerStats() const {
  CheckStats sum;
  for (const auto& clone : clones_) sum += clone->stats();
  return sum;
}

}  // namespace prmkit
