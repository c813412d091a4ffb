#pragma once
// A batch of roadmap nodes drawn on every thread of a CheckerPool, with a
// result that does not depend on the thread count: each run of 8
// consecutive slots draws from its own random stream (NodeSampler::restart,
// the stream of the run's first slot), in order, on whichever thread takes
// it; every slot has a share of the sample budget fixed before the batch
// starts; the slots' nodes come back in slot order.
#include "planner/checker_pool.h"
#include "planner/sampler.h"

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
  /// NodeSampler::shiftTowardsNarrowPassages on every thread's sampler.
  void shiftTowardsNarrowPassages(double share);

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
  CheckerPool& pool_;
  std::vector<NodeSourceStats>& sources_;
  std::size_t firstMixSource_, nearSource_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace prmkit
