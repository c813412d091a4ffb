#pragma once
// OMPL's valid-state samplers (uniform, Gaussian, bridge test, obstacle-based,
// maximum clearance, and prmkit's medial-axis sampler written as one) behind
// prmkit's ConfigurationSampler: the OMPL adapters of sampling/. The strategies
// of one mix share one SpaceInformation, whose state space is prmkit's robot
// (its distance, interpolation and uniform sampler, each sampler on a random
// stream of its own) and whose validity checker and motion validator are
// prmkit's checker, so that every check an OMPL sampler makes is counted.
#include "sampling/configuration_sampler.h"

#include <ompl/base/SpaceInformation.h>
#include <ompl/base/ValidStateSampler.h>

#include <functional>
#include <memory>

namespace prmkit {

class OmplSamplingSpace {
 public:
  OmplSamplingSpace(Checker& checker, std::uint32_t seed, std::atomic<std::uint64_t>& drawn,
                    ClearanceFunction clearance);
  const ompl::base::SpaceInformation* si() const { return si_.get(); }
  /// Restarts every sampler of the space on streams derived from `stream` (RobotStateSpace::restartStreams).
  void restartStreams(std::uint32_t stream);
  /// prmkit's interface on one of this space's OMPL samplers.
  std::unique_ptr<ConfigurationSampler> adapt(ompl::base::ValidStateSamplerPtr sampler);

 private:
  ompl::base::SpaceInformationPtr si_;
};

/// Makes an OMPL valid-state sampler on a space, given the passage width sigma (C-space units).
using OmplSamplerFactory =
    std::function<ompl::base::ValidStateSamplerPtr(const ompl::base::SpaceInformation* si, double sigma)>;
/// A SamplerKind's `make` for an OMPL sampler: made on the context's shared OMPL space.
std::function<std::unique_ptr<ConfigurationSampler>(SamplingContext&)> omplSampler(OmplSamplerFactory factory);

}  // namespace prmkit
