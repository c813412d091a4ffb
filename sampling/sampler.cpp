#include "sampling/sampler.h"

#include "sampling/sampler_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace prmkit {

namespace {

/// Attempts per call of a strategy: small enough that the planner's time and
/// sample limits are looked at often, large enough that the call is cheap
/// next to the checks it makes.
constexpr unsigned int kAttemptsPerCall = 20;

/// The relative error of clearance bounds: max_clearance compares the
/// clearances of samples far apart, medial_axis those of neighbours one step
/// apart along a line, whose differences are a few percent.
constexpr double kClearanceRelativeError = 0.02;

}  // namespace

bool isShiftingMix(std::string_view text) {
  return text == kShiftingMix ||
         (text.size() > kShiftingMix.size() && text.substr(0, kShiftingMix.size()) == kShiftingMix &&
          text[kShiftingMix.size()] == ':');
}

std::vector<SamplerShare> parseSamplerMix(std::string_view text) {
  // The bridge test and obstacle-based sampling are left out: on
  // maze_corridor the one drew 1 750 configurations per node (a planner's
  // sample limit counts draws), and the other's motion checks cost as much
  // as the rest of the plan (docs/results.md).
  if (isShiftingMix(text)) {
    std::vector<SamplerShare> mix{{"uniform", 1.0}};
    if (text == kShiftingMix) {
      for (const std::string_view name : kShiftingNarrowPassageSamplers) mix.push_back({std::string(name), 0.0});
      return mix;
    }
    // The shares are the shift's (equal), so the names come without weights.
    const std::string_view names = text.substr(kShiftingMix.size() + 1);
    // Names, not another shifting mix: the parse below recurses once, never more.
    if (names.find(':') != std::string_view::npos || isShiftingMix(names))
      throw std::invalid_argument(
          fmt::format("'{}': a shifting mix names its narrow-passage samplers, without weights or another mix (e.g. "
                      "'auto:gaussian,medial_axis')",
                      text));
    for (const SamplerShare& named : parseSamplerMix(names)) {
      if (named.strategy == "uniform")
        throw std::invalid_argument(
            fmt::format("'{}': a shifting mix names its narrow-passage samplers; 'uniform' is its first", text));
      mix.push_back({named.strategy, 0.0});
    }
    return mix;
  }
  std::vector<SamplerShare> mix;
  double total = 0.0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    SamplerShare share;
    const std::size_t colon = item.find(':');
    share.strategy = std::string(item.substr(0, colon));
    samplerKind(share.strategy);  // throws naming the known strategies
    if (std::any_of(mix.begin(), mix.end(), [&](const SamplerShare& s) { return s.strategy == share.strategy; }))
      throw std::invalid_argument(fmt::format("sampler '{}' appears twice in the mix", share.strategy));
    if (colon != std::string_view::npos) {
      const std::string_view weight = item.substr(colon + 1);
      const auto [end, error] = std::from_chars(weight.data(), weight.data() + weight.size(), share.weight);
      if (error != std::errc() || end != weight.data() + weight.size() || !(share.weight > 0) ||
          !std::isfinite(share.weight))
        throw std::invalid_argument(
            fmt::format("sampler '{}' has weight '{}', expected a positive number", share.strategy, weight));
    }
    total += share.weight;
    mix.push_back(share);
  }
  if (mix.empty())
    throw std::invalid_argument("the sampler is empty (expected e.g. 'uniform' or 'uniform:0.5,bridge:0.5')");
  for (SamplerShare& share : mix) share.weight /= total;
  return mix;
}

NodeSampler::NodeSampler(Checker& checker, const SamplerSettings& settings, std::vector<NodeSourceStats>& sources)
    : checker_(checker),
      sources_(sources),
      firstSource_(sources.size()),
      shifting_(settings.shifting),
      rng_(settings.seed * 2654435761u + 97u),
      clearance_(checker.robot(), checker.scene()) {
  const bool needsClearance = std::any_of(settings.mix.begin(), settings.mix.end(), [](const SamplerShare& s) {
    return samplerKind(s.strategy).needs_clearance;
  });
  ClearanceFunction clearance;
  if (needsClearance)
    clearance = [this](const Config& q) { return clearance_.clearance(q, kClearanceRelativeError, clearanceStats_); };
  context_ = std::make_unique<SamplingContext>(checker, settings.sigma * checker.robot().maxExtent(), settings.seed,
                                               drawn_, std::move(clearance), clearanceStats_);
  double cumulative = 0.0;
  for (const SamplerShare& share : settings.mix) {
    samplers_.push_back(samplerKind(share.strategy).make(*context_));
    cumulative += share.weight;
    cumulativeWeights_.push_back(cumulative);
    weighted_ += share.weight > 0.0;
  }
  // The mix's sources follow each other: where an earlier query on the same
  // roadmap left them (its vertices refer to them by index), else at the end.
  auto mixAt = [&](std::size_t first) {
    for (std::size_t i = 0; i < settings.mix.size(); ++i)
      if (sources_[first + i].source != settings.mix[i].strategy) return false;
    return true;
  };
  for (std::size_t first = 0; first + settings.mix.size() <= sources_.size(); ++first)
    if (mixAt(first)) {
      firstSource_ = first;
      break;
    }
  if (firstSource_ == sources_.size())
    for (const SamplerShare& share : settings.mix) sources_.push_back(NodeSourceStats{share.strategy});
}

NodeSampler::~NodeSampler() = default;

void NodeSampler::shiftTowardsNarrowPassages(double share) {
  if (!shifting_ || samplers_.size() < 2) return;
  share = std::clamp(share, 0.0, 1.0);
  const double narrow = share / static_cast<double>(samplers_.size() - 1);
  weighted_ = 0;
  for (std::size_t i = 0; i < samplers_.size(); ++i) {
    const double weight = i == 0 ? 1.0 - share : narrow;
    cumulativeWeights_[i] = (i > 0 ? cumulativeWeights_[i - 1] : 0.0) + weight;
    weighted_ += weight > 0.0;
  }
}

Random& NodeSampler::rng() {
  // Seeding a Mersenne twister costs about a microsecond: done when the
  // restarted stream is first drawn from (a mix of one strategy never
  // draws from it).
  if (pendingStream_) rng_.reseed(*std::exchange(pendingStream_, std::nullopt) * 2654435761u + 97u);
  return rng_;
}

void NodeSampler::restart(std::uint32_t stream) {
  pendingStream_ = stream;
  context_->restartOmplStreams(stream);
  for (const auto& sampler : samplers_) sampler->restart(stream);
}

std::optional<Config> NodeSampler::sampleNear(const Config& center, double sigma, const std::function<bool()>& stop,
                                              std::uint64_t maxDraws, NodeSourceStats& stats,
                                              std::uint64_t& samplesDrawn) {
  const Robot& robot = checker_.robot();
  const std::uint64_t checksBefore = checker_.stats().static_queries;
  std::optional<Config> found;
  for (std::uint64_t draws = 0; draws < maxDraws && !found && !stop(); ++draws) {
    robot.sampleUniform(rng(), towards_);
    const double d = robot.distance(center, towards_);
    const double r = std::abs(rng().gaussian(0.0, sigma));
    robot.interpolate(center, towards_, d > 0 ? std::min(1.0, r / d) : 0.0, near_);
    ++stats.samples_drawn;
    ++samplesDrawn;
    if (checker_.isValid(near_)) found = near_;
  }
  stats.static_checks += checker_.stats().static_queries - checksBefore;
  stats.nodes += found.has_value();
  return found;
}

std::optional<std::pair<Config, std::size_t>> NodeSampler::sample(const std::function<bool()>& stop,
                                                                  std::uint64_t& samplesDrawn,
                                                                  std::uint64_t maxAttempts) {
  for (std::uint64_t attempts = 0; attempts < maxAttempts && !stop();) {
    std::size_t index = 0;
    if (weighted_ > 1) {
      const double u = rng().uniform01() * cumulativeWeights_.back();
      index = static_cast<std::size_t>(std::min<std::ptrdiff_t>(
          std::upper_bound(cumulativeWeights_.begin(), cumulativeWeights_.end(), u) - cumulativeWeights_.begin(),
          static_cast<std::ptrdiff_t>(samplers_.size()) - 1));
    } else {
      while (index + 1 < samplers_.size() && !(cumulativeWeights_[index] > 0.0)) ++index;
    }
    const std::uint64_t drawnBefore = drawn_.load();
    const std::uint64_t checksBefore = checker_.stats().static_queries;
    const auto calls = static_cast<unsigned int>(std::min<std::uint64_t>(kAttemptsPerCall, maxAttempts - attempts));
    attempts += calls;
    const bool found = samplers_[index]->sample(sample_, calls);
    NodeSourceStats& source = sources_[firstSource_ + index];
    const std::uint64_t drawn = drawn_.load() - drawnBefore;
    source.samples_drawn += drawn;
    source.static_checks += checker_.stats().static_queries - checksBefore;
    samplesDrawn += drawn;
    if (found) {
      ++source.nodes;
      return std::make_pair(sample_, firstSource_ + index);
    }
  }
  return std::nullopt;
}

}  // namespace prmkit
