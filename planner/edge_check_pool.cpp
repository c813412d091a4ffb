#include "planner/edge_check_pool.h"

#include <utility>

namespace prmkit {

std::size_t resolveThreads(std::size_t requested) {
  if (requested > 0) return requested;
  return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

EdgeCheckPool::EdgeCheckPool(Checker& checker, std::size_t threads) : checker_(checker) {
  // Every thread count, one included, checks in rounds: a batch's checks see
  // what the batches before learnt and nothing of each other's.
  checker_.startRounds();
  for (std::size_t i = 1; i < threads; ++i) clones_.push_back(checker.clone());
  for (std::size_t i = 0; i < clones_.size(); ++i) workers_.emplace_back([this, i] { work(i); });
}

EdgeCheckPool::~EdgeCheckPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  workers_.clear();  // joins
  checker_.stopRounds();
}

void EdgeCheckPool::drain(Checker& checker) {
  // Edges are taken one at a time: their costs differ by orders of magnitude.
  try {
    for (std::size_t i = next_.fetch_add(1); i < edges_->size(); i = next_.fetch_add(1))
      results_[i] = checker.checkEdge(*(*edges_)[i].first, *(*edges_)[i].second);
  } catch (...) {
    next_ = edges_->size();  // the others stop after their current edge
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
}

void EdgeCheckPool::work(std::size_t worker) {
  std::uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    drain(*clones_[worker]);
    {
      std::lock_guard lock(mutex_);
      --busy_;
    }
    finished_.notify_one();
  }
}

std::vector<EdgeResult> EdgeCheckPool::check(const std::vector<std::pair<const Config*, const Config*>>& edges) {
  results_.assign(edges.size(), EdgeResult{});
  edges_ = &edges;
  next_ = 0;
  // A step with one edge is not worth waking anyone.
  if (!workers_.empty() && edges.size() > 1) {
    {
      std::lock_guard lock(mutex_);
      busy_ = workers_.size();
      ++generation_;
    }
    wake_.notify_all();
    drain(checker_);
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return busy_ == 0; });
  } else {
    drain(checker_);
  }
  edges_ = nullptr;
  checker_.endRound();
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  return std::move(results_);
}

CheckStats EdgeCheckPool::workerStats() const {
  CheckStats sum;
  for (const auto& clone : clones_) sum += clone->stats();
  return sum;
}

}  // namespace prmkit
