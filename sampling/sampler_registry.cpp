#include "sampling/sampler_registry.h"

#include "base/registry.h"

#include "sampling/medial_axis_sampler.h"
#include "sampling/ompl_samplers.h"
#include "sampling/retraction_sampler.h"
#include "sampling/sampler.h"

#include <ompl/base/samplers/BridgeTestValidStateSampler.h>
#include <ompl/base/samplers/GaussianValidStateSampler.h>
#include <ompl/base/samplers/MaximizeClearanceValidStateSampler.h>
#include <ompl/base/samplers/ObstacleBasedValidStateSampler.h>
#include <ompl/base/samplers/UniformValidStateSampler.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace prmkit {

namespace ob = ompl::base;

namespace {
Registry<SamplerKind>& registry() {
  // The compiled-in strategies, one line each.
  static Registry<SamplerKind> strategies(
      "sampler",
      {{"uniform", "uniform samples, kept when valid", false, "uniform",
        omplSampler([](const ob::SpaceInformation* si, double) -> ob::ValidStateSamplerPtr {
          return std::make_shared<ob::UniformValidStateSampler>(si);
        })},
       {"gaussian", "Gaussian sampling (Boor et al. 1999): a valid sample whose Gaussian neighbour is not", false,
        "gaussian", omplSampler([](const ob::SpaceInformation* si, double sigma) -> ob::ValidStateSamplerPtr {
          auto sampler = std::make_shared<ob::GaussianValidStateSampler>(si);
          sampler->setStdDev(sigma);
          return sampler;
        })},
       {"bridge", "the bridge test (Hsu et al. 2003): the midpoint of two invalid samples", false, "",
        omplSampler([](const ob::SpaceInformation* si, double sigma) -> ob::ValidStateSamplerPtr {
          auto sampler = std::make_shared<ob::BridgeTestValidStateSampler>(si);
          sampler->setStdDev(sigma);
          return sampler;
        })},
       {"obstacle_based", "obstacle-based sampling (Amato et al. 1998): the last valid state towards an invalid one",
        false, "obstacle_based", omplSampler([](const ob::SpaceInformation* si, double) -> ob::ValidStateSamplerPtr {
          return std::make_shared<ob::ObstacleBasedValidStateSampler>(si);
        })},
       {"max_clearance", "OMPL's maximum-clearance sampling: the clearest of a few valid samples", true,
        "max_clearance", omplSampler([](const ob::SpaceInformation* si, double) -> ob::ValidStateSamplerPtr {
          return std::make_shared<ob::MaximizeClearanceValidStateSampler>(si);
        })},
       {"medial_axis",
        "medial-axis sampling (MAPRM, Wilmarth et al. 1999): samples retracted along the clearance's growth "
        "onto the middle of the free space",
        true, "", omplSampler([](const ob::SpaceInformation* si, double sigma) -> ob::ValidStateSamplerPtr {
          return std::make_shared<MedialAxisSampler>(si, sigma);
        })},
       {std::string(RetractionSampler::kName),
        "retraction (Zhang & Manocha 2008): colliding samples moved out along their penetration until free", false, "",
        [](SamplingContext& context) { return std::make_unique<RetractionSampler>(context); }}});
  return strategies;
}
}  // namespace

void registerSampler(SamplerKind kind) {
  registry().add(std::move(kind), [](const SamplerKind& k) {
    if (!k.make) throw std::invalid_argument(fmt::format("sampler '{}' needs a way to make it", k.name));
    // A name in a mix is followed by ':' and the mix's items by ','.
    if (k.name.find_first_of(":, ") != std::string::npos)
      throw std::invalid_argument(fmt::format("a sampler's name may not hold ':', ',' or ' ': '{}'", k.name));
    if (k.name == kShiftingMix)
      throw std::invalid_argument(fmt::format("'{}' names the shifting default mix, not a sampler", k.name));
  });
}

const std::vector<SamplerKind>& samplerKinds() { return registry().all(); }

const SamplerKind& samplerKind(std::string_view name) {
  return registry().get(name, ", or a mix such as 'uniform:0.5,bridge:0.5'");
}

std::vector<std::string> samplerNames() { return registry().names(); }

}  // namespace prmkit
