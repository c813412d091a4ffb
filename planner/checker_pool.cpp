#include "planner/checker_pool.h"

#include <chrono>
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
}  // namespace

std::size_t resolveThreads(std::size_t requested) {
  if (requested > 0) return requested;
  return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

CheckerPool::CheckerPool(Checker& checker, std::size_t threads) : checker_(checker) {
  for (std::size_t i = 1; i < threads; ++i) clones_.push_back(checker.clone());
  for (std::size_t i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

CheckerPool::~CheckerPool() {
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
    if (stopping_) return;
    seen = generation_;
    drain(worker);
    if (busy_.fetch_sub(1) == 1) {
      // The caller may be between its check of busy_ and its wait: taking
      // the mutex orders this notification after that wait began.
      { std::lock_guard lock(mutex_); }
      finished_.notify_one();
    }
  }
}

void CheckerPool::run(std::size_t count, const Task& task, const std::function<void()>& callerFirst) {
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
    {
      std::lock_guard lock(mutex_);
      busy_ = workers_.size();
      ++generation_;
    }
    wake_.notify_all();
    callersOwn();
    drain(0);
    const auto done = [&] { return busy_ == 0; };
    if (!pollFor(done)) {
      std::unique_lock lock(mutex_);
      finished_.wait(lock, done);
    }
  } else {
    callersOwn();
    drain(0);
  }
  task_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

CheckStats CheckerPool::workerStats() const {
  CheckStats sum;
  for (const auto& clone : clones_) sum += clone->stats();
  return sum;
}

}  // namespace prmkit
