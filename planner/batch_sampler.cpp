#include "planner/batch_sampler.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace prmkit {

namespace {
/// Consecutive slots that draw from one stream, on one thread, in order:
/// seeding a stream's Mersenne twisters and their first 624 words cost a few
/// microseconds, as much as a Panda configuration's check.
constexpr std::size_t kSlotsPerStream = 8;
}  // namespace

/// A thread's sampler and what it counted since the last batch ended.
struct BatchSampler::Worker {
  std::vector<NodeSourceStats> mixSources;  // the NodeSampler's own, one per strategy
  NodeSourceStats near;
  std::uint64_t samplesDrawn = 0;
  NodeSampler sampler;

  Worker(Checker& checker, const SamplerSettings& settings) : sampler(checker, settings, mixSources) {}
};

BatchSampler::BatchSampler(CheckerPool& pool, const SamplerSettings& settings, std::vector<NodeSourceStats>& sources,
                           std::size_t firstMixSource, std::size_t nearSource)
    : pool_(pool), sources_(sources), firstMixSource_(firstMixSource), nearSource_(nearSource) {
  for (std::size_t w = 0; w < pool.threads(); ++w)
    workers_.push_back(std::make_unique<Worker>(pool.checker(w), settings));
}

BatchSampler::~BatchSampler() = default;

CheckStats BatchSampler::clearanceStats() const {
  CheckStats sum;
  for (const auto& worker : workers_) sum += worker->sampler.clearanceStats();
  return sum;
}

void BatchSampler::shiftTowardsNarrowPassages(double share) {
  for (auto& worker : workers_) worker->sampler.shiftTowardsNarrowPassages(share);
}

namespace {
void addWork(NodeSourceStats& into, NodeSourceStats& from) {
  into.samples_drawn += std::exchange(from.samples_drawn, 0);
  into.static_checks += std::exchange(from.static_checks, 0);
  into.nodes += std::exchange(from.nodes, 0);
}
}  // namespace

std::optional<std::vector<BatchSampler::Drawn>> BatchSampler::draw(const std::vector<Request>& requests,
                                                                   std::uint64_t budget, std::uint64_t& samplesDrawn,
                                                                   const std::function<bool()>& stop) {
  std::vector<Drawn> drawn(requests.size());
  const std::uint64_t share = requests.empty() ? 0 : budget / requests.size();
  const std::uint64_t extra = requests.empty() ? 0 : budget % requests.size();
  std::atomic<bool> stopped{false};
  const std::function<bool()> stopping = [&] {
    if (stopped.load(std::memory_order_relaxed)) return true;
    if (!stop()) return false;
    stopped = true;
    return true;
  };
  const std::size_t streams = (requests.size() + kSlotsPerStream - 1) / kSlotsPerStream;
  pool_.run(streams, [&](std::size_t w, Checker&, std::size_t stream) {
    Worker& worker = *workers_[w];
    const std::size_t first = stream * kSlotsPerStream, last = std::min(first + kSlotsPerStream, requests.size());
    worker.sampler.restart(requests[first].stream);
    for (std::size_t i = first; i < last; ++i) {
      const Request& request = requests[i];
      const std::uint64_t limit = share + (i < extra ? 1 : 0);
      if (request.center) {
        drawn[i].q = worker.sampler.sampleNear(*request.center, request.sigma, stopping, limit, worker.near,
                                               worker.samplesDrawn);
        drawn[i].source = nearSource_;
      } else if (auto q = worker.sampler.sample(stopping, worker.samplesDrawn, limit)) {
        drawn[i].q = std::move(q->first);
        drawn[i].source = firstMixSource_ + q->second;
      }
    }
  });
  // Sums, so the order the workers are added in does not matter.
  for (auto& worker : workers_) {
    for (std::size_t s = 0; s < worker->mixSources.size(); ++s)
      addWork(sources_.at(firstMixSource_ + s), worker->mixSources[s]);
    if (nearSource_ < sources_.size()) addWork(sources_[nearSource_], worker->near);
    samplesDrawn += std::exchange(worker->samplesDrawn, 0);
  }
  if (stopped) return std::nullopt;
  return drawn;
}

}  // namespace prmkit
