#pragma once
// prmkit's interface of a sampling strategy, one source of roadmap nodes:
// draw configurations until one is valid for the checker. The compiled-in
// strategies adapt OMPL's valid-state samplers (sampling/ompl_samplers.h,
// on a state space of prmkit's robot and checker); a strategy of its own
// (a plug-in, a test's) draws with the robot and asks the checker, with no
// OMPL in it (docs/adding-a-sampler.md).
#include "checkers/checker.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace prmkit {

class OmplSamplingSpace;

/// The distance from a configuration to the obstacles (m), for clearance-seeking samplers.
using ClearanceFunction = std::function<double(const Config&)>;

/// What a node sampler gives the strategies of its mix.
class SamplingContext {
 public:
  /// `clearance`: given when a strategy of the mix needs clearances (SamplerKind::needs_clearance).
  /// `queries`: where a strategy counts the geometric queries it makes itself (not through the checker).
  SamplingContext(Checker& checker, double sigma, std::uint32_t seed, std::atomic<std::uint64_t>& drawn,
                  ClearanceFunction clearance, QueryCounts& queries);
  ~SamplingContext();
  SamplingContext(const SamplingContext&) = delete;
  SamplingContext& operator=(const SamplingContext&) = delete;

  /// Every validity check goes through it, counted.
  Checker& checker() const { return checker_; }
  /// The width of the passages to be found, in C-space units (planner.sampler_sigma times the maximum extent).
  double sigma() const { return sigma_; }
  /// The planner's seed, for a strategy's own random numbers.
  std::uint32_t seed() const { return seed_; }
  /// Every configuration a strategy draws is counted here (a planner's sample limit counts draws).
  std::atomic<std::uint64_t>& drawn() const { return drawn_; }
  const ClearanceFunction& clearance() const { return clearance_; }
  /// The counts of the geometric queries a strategy makes itself (retraction's
  /// penetration contacts), which are not the checker's; the node sampler
  /// adds them to the run's work with the clearance queries.
  QueryCounts& queries() const { return queries_; }
  /// The OMPL space the mix's adapted OMPL samplers share, made on first use.
  OmplSamplingSpace& ompl();
  /// Restarts the shared OMPL space's streams, if one was made (the node sampler's restart).
  void restartOmplStreams(std::uint32_t stream);

 private:
  Checker& checker_;
  double sigma_;
  std::uint32_t seed_;
  std::atomic<std::uint64_t>& drawn_;
  ClearanceFunction clearance_;
  QueryCounts& queries_;
  std::unique_ptr<OmplSamplingSpace> ompl_;
};

class ConfigurationSampler {
 public:
  virtual ~ConfigurationSampler() = default;
  /// A valid configuration into `out` in at most `attempts` attempts; false
  /// when none was found. Every configuration drawn is counted in the
  /// context's drawn(), every check made with its checker().
  virtual bool sample(Config& out, unsigned int attempts) = 0;
  /// Every later draw from streams derived from `stream` alone, whatever was
  /// drawn before (a batch slot draws the same on any thread). Adapted OMPL
  /// samplers restart with their shared space (SamplingContext).
  virtual void restart(std::uint32_t stream) { static_cast<void>(stream); }
};

}  // namespace prmkit
