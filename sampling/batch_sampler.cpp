#include "sampling/batch_sampler.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace prmkit {

namespace {
/// Consecutive slots that draw from one stream, on one thread, in order:
/// seeding a stream's Mersenne twisters and their first 624 words cost a few
/// microseconds, as much as a Panda configuration's check.
constexpr std::size_t kSlotsPerStream = 8;

void addWork(NodeSourceStats& into, NodeSourceStats& from) {
  into.samples_drawn += std::exchange(from.samples_drawn, 0);
  into.static_checks += std::exchange(from.static_checks, 0);
  into.nodes += std::exchange(from.nodes, 0);
}
}  // namespace

/// A thread's sampler and what it counted since the last batch ended.
struct BatchSampler::Worker {
  std::vector<NodeSourceStats> mixSources;  // the NodeSampler's own, one per strategy
  NodeSourceStats near;
  std::uint64_t samplesDrawn = 0;
  NodeSampler sampler;

  Worker(Checker& checker, const SamplerSettings& settings) : sampler(checker, settings, mixSources) {}
};

/// A run of slots drawn ahead, with the inputs its draws depended on and the work they counted.
struct BatchSampler::RunAhead {
  std::size_t first = 0, last = 0;  // its slots in the batch drawn ahead (aheadRequests_)
  SlotShares shares;
  std::optional<double> narrowShare;
  bool complete = false;  // drawn to the end: no stop came
  bool taken = false;
  std::vector<Drawn> drawn;
  std::vector<NodeSourceStats> mixSources;
  std::uint64_t samplesDrawn = 0;
  CheckStats work;         // the checker's and the clearance queries'
  CheckStats checkerWork;  // the checker's alone

  RunAhead(std::size_t first, std::size_t last, const SlotShares& shares) : first(first), last(last), shares(shares) {}
};

BatchSampler::SlotShares::SlotShares(std::uint64_t budget, std::size_t slots)
    : share(slots == 0 ? 0 : budget / slots), extra(slots == 0 ? 0 : budget % slots) {}

BatchSampler::BatchSampler(CheckerPool& pool, const SamplerSettings& settings, std::vector<NodeSourceStats>& sources,
                           std::size_t firstMixSource, std::size_t nearSource)
    : pool_(pool), settings_(settings), sources_(sources), firstMixSource_(firstMixSource), nearSource_(nearSource) {
  addWorkers();
}

void BatchSampler::addWorkers() {
  for (std::size_t w = workers_.size(); w < pool_.threads(); ++w) {
    workers_.push_back(std::make_unique<Worker>(pool_.checker(w), settings_));
    if (narrowShare_) workers_.back()->sampler.shiftTowardsNarrowPassages(*narrowShare_);
  }
}

BatchSampler::~BatchSampler() {
  aheadDropped_ = true;
  try {
    pool_.finishBackground(true);
  } catch (...) {  // a failure drawing ahead that no draw() took: nothing waits for its result
  }
}

CheckStats BatchSampler::clearanceStats() const {
  CheckStats sum;
  for (const auto& worker : workers_) sum += worker->sampler.clearanceStats();
  return sum;
}

void BatchSampler::shiftTowardsNarrowPassages(double share) {
  if (narrowShare_ == share) return;
  pool_.finishBackground(true);  // runs drawn ahead with the old share are not taken
  narrowShare_ = share;
  for (auto& worker : workers_) worker->sampler.shiftTowardsNarrowPassages(share);
}

void BatchSampler::drawRun(Worker& worker, const std::vector<Request>& requests, std::size_t first, std::size_t last,
                           const SlotShares& shares, const std::function<bool()>& stop, Drawn* out) const {
  worker.sampler.restart(requests[first].stream);
  for (std::size_t i = first; i < last; ++i) {
    const Request& request = requests[i];
    Drawn& drawn = out[i - first];
    if (request.center) {
      drawn.q = worker.sampler.sampleNear(*request.center, request.sigma, stop, shares.limit(i), worker.near,
                                          worker.samplesDrawn);
      drawn.source = nearSource_;
    } else if (auto q = worker.sampler.sample(stop, worker.samplesDrawn, shares.limit(i))) {
      drawn.q = std::move(q->first);
      drawn.source = firstMixSource_ + q->second;
    }
  }
}

void BatchSampler::drawAhead(const std::vector<Request>& requests, std::size_t firstFromMix, std::uint64_t budget,
                             std::function<bool()> stop) {
  dropDrawnAhead();
  if (pool_.grow()) addWorkers();
  if (pool_.threads() < 2) return;
  const SlotShares shares(budget, requests.size());
  const std::size_t firstRun = (firstFromMix + kSlotsPerStream - 1) / kSlotsPerStream * kSlotsPerStream;
  for (std::size_t first = firstRun; first < requests.size(); first += kSlotsPerStream) {
    auto run = std::make_unique<RunAhead>(first, std::min(first + kSlotsPerStream, requests.size()), shares);
    run->narrowShare = narrowShare_;
    ahead_.push_back(std::move(run));
  }
  aheadRequests_ = requests;
  aheadStop_ = std::move(stop);
  aheadDropped_ = false;
  pool_.startBackground(ahead_.size(), [this](std::size_t w, Checker& checker, std::size_t r) {
    RunAhead& run = *ahead_[r];
    Worker& worker = *workers_[w];
    // The worker's counters belong to draw(): the run keeps its own, for
    // the draw that takes it, and leaves the worker's as they were.
    std::vector<NodeSourceStats> before(worker.mixSources.size());
    before.swap(worker.mixSources);
    const std::uint64_t drawnBefore = std::exchange(worker.samplesDrawn, 0);
    const CheckStats checkerBefore = checker.stats();
    CheckStats workBefore = checkerBefore;
    workBefore += worker.sampler.clearanceStats();
    bool stopped = false;
    const std::function<bool()> stopping = [&] {
      return stopped || (stopped = aheadDropped_.load(std::memory_order_relaxed) || aheadStop_());
    };
    run.drawn.resize(run.last - run.first);
    drawRun(worker, aheadRequests_, run.first, run.last, run.shares, stopping, run.drawn.data());
    run.complete = !stopped;
    run.mixSources = worker.mixSources;
    worker.mixSources.swap(before);
    run.samplesDrawn = std::exchange(worker.samplesDrawn, drawnBefore);
    run.checkerWork = checker.stats() - checkerBefore;
    if (w == 0) callerDrawWork_ += run.checkerWork;  // finishBackground ran it on the caller
    run.work = checker.stats();
    run.work += worker.sampler.clearanceStats();
    run.work = run.work - workBefore;
  });
}

void BatchSampler::finishDrawingAhead() { pool_.finishBackground(false); }

void BatchSampler::dropDrawnAhead() {
  aheadDropped_ = true;  // a run under way stops at its next draw
  pool_.finishBackground(true);
  for (const auto& run : ahead_)
    if (!run->taken) discarded_ += run->work;
  ahead_.clear();
}

BatchSampler::RunAhead* BatchSampler::takeAhead(const std::vector<Request>& requests, std::size_t first,
                                                std::size_t last, const SlotShares& shares) {
  if (ahead_.empty() || first < ahead_.front()->first) return nullptr;
  const std::size_t index = (first - ahead_.front()->first) / kSlotsPerStream;
  if (index >= ahead_.size()) return nullptr;
  RunAhead& run = *ahead_[index];
  if (run.first != first || run.last != last || !run.complete || run.taken || run.narrowShare != narrowShare_)
    return nullptr;
  for (std::size_t i = first; i < last; ++i) {
    const Request& ahead = aheadRequests_[i];
    if (requests[i].center || ahead.center || requests[i].stream != ahead.stream ||
        shares.limit(i) != run.shares.limit(i))
      return nullptr;
  }
  run.taken = true;
  return &run;
}

std::optional<std::vector<BatchSampler::Drawn>> BatchSampler::draw(const std::vector<Request>& requests,
                                                                   std::uint64_t budget, std::uint64_t& samplesDrawn,
                                                                   const std::function<bool()>& stop) {
  pool_.finishBackground(true);
  if (pool_.grow()) addWorkers();
  std::vector<Drawn> drawn(requests.size());
  const SlotShares shares(budget, requests.size());
  std::atomic<bool> stopped{false};
  const std::function<bool()> stopping = [&] {
    if (stopped.load(std::memory_order_relaxed)) return true;
    if (!stop()) return false;
    stopped = true;
    return true;
  };
  std::vector<std::size_t> runs;  // the first slots of the runs to draw now
  for (std::size_t first = 0; first < requests.size(); first += kSlotsPerStream) {
    const std::size_t last = std::min(first + kSlotsPerStream, requests.size());
    RunAhead* ahead = takeAhead(requests, first, last, shares);
    if (!ahead) {
      runs.push_back(first);
      continue;
    }
    ++runsTakenAhead_;
    batchWork_ += ahead->work;
    std::move(ahead->drawn.begin(), ahead->drawn.end(), drawn.begin() + static_cast<std::ptrdiff_t>(first));
    for (std::size_t s = 0; s < ahead->mixSources.size(); ++s)
      addWork(sources_.at(firstMixSource_ + s), ahead->mixSources[s]);
    samplesDrawn += ahead->samplesDrawn;
  }
  dropDrawnAhead();
  std::vector<CheckStats> runWork(runs.size());
  pool_.run(runs.size(), [&](std::size_t w, Checker& checker, std::size_t r) {
    const std::size_t first = runs[r], last = std::min(first + kSlotsPerStream, requests.size());
    const CheckStats checkerBefore = checker.stats(), clearanceBefore = workers_[w]->sampler.clearanceStats();
    drawRun(*workers_[w], requests, first, last, shares, stopping, drawn.data() + first);
    const CheckStats checkerWork = checker.stats() - checkerBefore;
    if (w == 0) callerDrawWork_ += checkerWork;  // only the caller's thread is worker 0
    runWork[r] = checkerWork;
    runWork[r] += workers_[w]->sampler.clearanceStats() - clearanceBefore;
  });
  for (const CheckStats& work : runWork) batchWork_ += work;
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
