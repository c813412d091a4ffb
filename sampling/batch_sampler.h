#pragma once
// A batch of roadmap nodes drawn on every thread of a CheckerPool, with a
// result that does not depend on the thread count: each run of 8
// consecutive slots draws from its own random stream (NodeSampler::restart,
// the stream of the run's first slot), in order, on whichever thread takes
// it; every slot has a share of the sample budget fixed before the batch
// starts; the slots' nodes come back in slot order.
// A batch's runs of slots from the mix can be drawn ahead, on the other
// threads while the planner's own thread searches and checks paths: the
// next draw() takes a run drawn ahead only where its slots' streams, shares
// and mix are that draw's own, so it holds what drawing it then would have,
// and the thread count still changes nothing but the time.
#include "checkers/check_stats.h"
#include "parallel/checker_pool.h"
#include "sampling/sampler.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace prmkit {

class BatchSampler {
 public:
  /// One node a batch asks for: from the sampler mix, or near a configuration.
  struct Request {
    std::uint32_t stream = 0;        // used by the first slot of each run of 8
    const Config* center = nullptr;  // nullptr: from the mix
    double sigma = 0.0;              // near `center`: the scale of the C-space distance |N(0, sigma)|
  };
  /// What a slot found: a valid configuration and the index of its node source, or nothing.
  struct Drawn {
    std::optional<Config> q;
    std::size_t source = 0;
  };

  /// One NodeSampler per thread of `pool`, on that thread's checker. Their
  /// work is added to `sources` (the plan's node sources) after each batch:
  /// the mix's strategies at `firstMixSource` on, in mix order, the draws
  /// near a configuration at `nearSource`.
  BatchSampler(CheckerPool& pool, const SamplerSettings& settings, std::vector<NodeSourceStats>& sources,
               std::size_t firstMixSource, std::size_t nearSource);
  ~BatchSampler();
  BatchSampler(const BatchSampler&) = delete;
  BatchSampler& operator=(const BatchSampler&) = delete;

  /// The clearance queries of every thread's sampler (NodeSampler::clearanceStats).
  CheckStats clearanceStats() const;
  /// NodeSampler::shiftTowardsNarrowPassages on every thread's sampler
  /// (nothing when `share` is the last one given).
  void shiftTowardsNarrowPassages(double share);

  /// Starts drawing the runs of `requests` (a batch, as draw() will be given
  /// it, with the same `budget`) whose slots all lie at `firstFromMix` or
  /// later, where the slots draw from the mix, on the pool's other threads,
  /// and returns at once. Nothing is drawn ahead on one thread. `stop` as in draw().
  void drawAhead(const std::vector<Request>& requests, std::size_t firstFromMix, std::uint64_t budget,
                 std::function<bool()> stop);
  /// Waits until every run drawn ahead is done (draw() stops them instead).
  void finishDrawingAhead();
  /// Stops drawing ahead (a run under way stops at its next draw) and drops
  /// what was drawn: its work goes to discardedWork().
  void dropDrawnAhead();
  /// Runs drawn ahead and taken by draw() since construction.
  std::size_t runsTakenAhead() const { return runsTakenAhead_; }
  /// The checks and clearance queries of runs drawn ahead and never taken:
  /// work the pool's checkers and clearanceStats() count that no result
  /// used, and that one thread never does.
  const CheckStats& discardedWork() const { return discarded_; }
  /// The work (checks and clearance queries) of every run whose slots a
  /// draw() returned, wherever and whenever it was drawn: each run's work is
  /// its slots' alone, so this sum is the same for every thread count and
  /// timing, where the pool's per-thread counters are not.
  const CheckStats& batchWork() const { return batchWork_; }
  /// The checker work (clearance queries aside) of every run drawn on the
  /// pool's own thread (worker 0, the caller's checker), taken or not: what
  /// to take out of that checker's counters to leave the caller's own work.
  const CheckStats& callerDrawWork() const { return callerDrawWork_; }

  /// Draws every request, slot i with at most budget / n draws (one more for
  /// the first budget % n slots), so the batch draws at most `budget`; a slot
  /// that used its share without a valid configuration comes back empty.
  /// The draws of all slots are added to `samplesDrawn`. Nothing when `stop`
  /// (asked before each draw, on every thread) said so: the batch is then cut
  /// short wherever each thread was.
  std::optional<std::vector<Drawn>> draw(const std::vector<Request>& requests, std::uint64_t budget,
                                         std::uint64_t& samplesDrawn, const std::function<bool()>& stop);

 private:
  struct Worker;
  struct RunAhead;
  /// A batch's budget split over its slots: slot i draws at most limit(i).
  struct SlotShares {
    std::uint64_t share = 0, extra = 0;
    SlotShares(std::uint64_t budget, std::size_t slots);
    std::uint64_t limit(std::size_t slot) const { return share + (slot < extra ? 1 : 0); }
  };
  /// Draws slots [first, last) of `requests` on `worker` into out[0 .. last - first).
  void drawRun(Worker& worker, const std::vector<Request>& requests, std::size_t first, std::size_t last,
               const SlotShares& shares, const std::function<bool()>& stop, Drawn* out) const;
  /// The run drawn ahead that holds what drawing slots [first, last) of
  /// `requests` with `shares` would now, or null; it counts as taken.
  RunAhead* takeAhead(const std::vector<Request>& requests, std::size_t first, std::size_t last,
                      const SlotShares& shares);

  /// A Worker for each of the pool's threads that has none yet (the pool
  /// starts its workers part-way through a run).
  void addWorkers();

  CheckerPool& pool_;
  SamplerSettings settings_;
  std::vector<NodeSourceStats>& sources_;
  std::size_t firstMixSource_, nearSource_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::optional<double> narrowShare_;   // the last shiftTowardsNarrowPassages
  std::vector<Request> aheadRequests_;  // the batch drawn ahead
  std::vector<std::unique_ptr<RunAhead>> ahead_;
  std::function<bool()> aheadStop_;
  std::atomic<bool> aheadDropped_{false};  // dropDrawnAhead() came: runs under way stop
  std::size_t runsTakenAhead_ = 0;
  CheckStats discarded_;
  CheckStats batchWork_, callerDrawWork_;
};

}  // namespace prmkit
