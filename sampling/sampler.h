#pragma once
// Where roadmap nodes come from: the sampling strategies of a mix
// (sampling/configuration_sampler.h: OMPL's valid-state samplers adapted,
// or a strategy of its own) on prmkit's robot and checker, alone or mixed,
// each counting its own work.
#include "checkers/checker.h"
#include "geometry/clearance.h"
#include "sampling/configuration_sampler.h"
#include "sampling/sampler_registry.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

/// One strategy of a sampling mix and its share of the samples.
struct SamplerShare {
  std::string strategy;
  double weight = 1.0;
};

/// The mix a planner samples from when none is chosen: uniform samples, then,
/// for a free-flying body while start and goal stay apart in a growing
/// roadmap, more and more from the narrow-passage strategies
/// (SamplerSettings::shifting, Planner::narrowPassageShare); an arm's stays
/// uniform.
inline constexpr std::string_view kShiftingMix = "auto";
/// The narrow-passage strategies kShiftingMix shifts to, in equal shares;
/// "auto:gaussian,medial_axis" names others.
inline constexpr std::array<std::string_view, 3> kShiftingNarrowPassageSamplers{"gaussian", "medial_axis",
                                                                                "retraction"};
/// `text` is kShiftingMix, alone or with its narrow-passage strategies named ("auto:gaussian,medial_axis").
bool isShiftingMix(std::string_view text);

/// Reads "bridge" or "uniform:0.5,bridge:0.5" (weights are normalised to
/// sum to 1), or a shifting mix (isShiftingMix): uniform with weight 1,
/// then the narrow-passage strategies with weight 0. Throws
/// std::invalid_argument naming what was expected.
std::vector<SamplerShare> parseSamplerMix(std::string_view text);

/// What one source of roadmap nodes cost and gave: a sampling strategy, or
/// the planner's own node enhancement (lazy_prm) and expansion (prm).
struct NodeSourceStats {
  std::string source;
  std::uint64_t samples_drawn = 0;  // configurations drawn from the C-space
  std::uint64_t static_checks = 0;  // Checker::isValid calls it spent
  std::uint64_t nodes = 0;          // valid configurations it added to the roadmap
  std::uint64_t nodes_on_path = 0;  // of those, the ones on the returned path

  double staticChecksPerNode() const {
    return nodes > 0 ? static_cast<double>(static_checks) / static_cast<double>(nodes) : 0.0;
  }
};

struct SamplerSettings {
  std::vector<SamplerShare> mix{{"uniform", 1.0}};
  /// Standard deviation of the second sample of `gaussian` and `bridge`, as a
  /// fraction of the C-space's maximum extent: about the width of the
  /// passages to be found.
  double sigma = 0.02;
  std::uint32_t seed = 1;
  /// The mix is kShiftingMix's: the planner moves weight from its first
  /// strategy to the others (NodeSampler::shiftTowardsNarrowPassages).
  bool shifting = false;
};

class NodeSampler {
 public:
  /// `sources` receives one entry per strategy of the mix (in mix order).
  NodeSampler(Checker& checker, const SamplerSettings& settings, std::vector<NodeSourceStats>& sources);
  ~NodeSampler();
  NodeSampler(const NodeSampler&) = delete;
  NodeSampler& operator=(const NodeSampler&) = delete;

  /// One valid configuration from a strategy drawn by its weight, with the
  /// index of that strategy in `sources`; nothing once `stop` says so (it is
  /// asked before each call of a strategy, which makes up to 20
  /// attempts) or after `maxAttempts` attempts. Draws are added to `samplesDrawn`.
  std::optional<std::pair<Config, std::size_t>> sample(const std::function<bool()>& stop, std::uint64_t& samplesDrawn,
                                                       std::uint64_t maxAttempts = UINT64_MAX);
  /// One valid configuration at a C-space distance about |N(0, sigma)| from
  /// `center`, in a uniformly drawn direction (along the interpolation
  /// towards a uniform sample, so it works for every robot), in at most
  /// `maxDraws` draws; draws and checks are counted into `stats` and `samplesDrawn`.
  /// `stop` is asked before each draw.
  std::optional<Config> sampleNear(const Config& center, double sigma, const std::function<bool()>& stop,
                                   std::uint64_t maxDraws, NodeSourceStats& stats, std::uint64_t& samplesDrawn);
  /// Every later draw comes from streams derived from `stream` alone (the
  /// mix's choices, sampleNear's, and each strategy's), whatever was
  /// drawn before: a slot of a batch draws the same on any thread.
  void restart(std::uint32_t stream);
  /// A shifting mix draws `share` of its samples from the narrow-passage
  /// strategies (equally) and the rest uniformly; other mixes are left as
  /// they are. Draws make no random choice while one strategy has all the weight.
  void shiftTowardsNarrowPassages(double share);
  /// Index in the sources of the mix's first strategy; the others follow it.
  std::size_t firstSource() const { return firstSource_; }
  /// Work of the queries the strategies make themselves: clearances
  /// (max_clearance, medial_axis) and penetration contacts (retraction),
  /// which are not the checker's.
  const CheckStats& clearanceStats() const { return clearanceStats_; }

 private:
  Checker& checker_;
  std::vector<NodeSourceStats>& sources_;
  std::size_t firstSource_;  // index in sources_ of the mix's first strategy (the others follow it)
  bool shifting_;
  std::vector<double> cumulativeWeights_;
  std::size_t weighted_ = 0;  // strategies of positive weight
  std::atomic<std::uint64_t> drawn_{0};
  std::unique_ptr<SamplingContext> context_;
  std::vector<std::unique_ptr<ConfigurationSampler>> samplers_;
  Config sample_;
  /// rng_, restarted first if restart() asked for it.
  Random& rng();

  Random rng_;
  std::optional<std::uint32_t> pendingStream_;
  Config towards_, near_;
  ClearanceQuery clearance_;
  CheckStats clearanceStats_;
};

}  // namespace prmkit
