#include "sampling/sampler_registry.h"

#include "base/names.h"

#include "sampling/medial_axis_sampler.h"
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
std::vector<SamplerKind>& kinds() {
  static std::vector<SamplerKind> all{
      {"uniform", "uniform samples, kept when valid", false, "uniform",
       [](const ob::SpaceInformation* si, double) { return std::make_shared<ob::UniformValidStateSampler>(si); }},
      {"gaussian", "Gaussian sampling (Boor et al. 1999): a valid sample whose Gaussian neighbour is not", false,
       "gaussian",
       [](const ob::SpaceInformation* si, double sigma) {
         auto sampler = std::make_shared<ob::GaussianValidStateSampler>(si);
         sampler->setStdDev(sigma);
         return sampler;
       }},
      {"bridge", "the bridge test (Hsu et al. 2003): the midpoint of two invalid samples", false, "",
       [](const ob::SpaceInformation* si, double sigma) {
         auto sampler = std::make_shared<ob::BridgeTestValidStateSampler>(si);
         sampler->setStdDev(sigma);
         return sampler;
       }},
      {"obstacle_based", "obstacle-based sampling (Amato et al. 1998): the last valid state towards an invalid one",
       false, "obstacle_based",
       [](const ob::SpaceInformation* si, double) { return std::make_shared<ob::ObstacleBasedValidStateSampler>(si); }},
      {"max_clearance", "OMPL's maximum-clearance sampling: the clearest of a few valid samples", true, "max_clearance",
       [](const ob::SpaceInformation* si, double) {
         return std::make_shared<ob::MaximizeClearanceValidStateSampler>(si);
       }},
      {"medial_axis",
       "medial-axis sampling (MAPRM, Wilmarth et al. 1999): samples retracted along the clearance's growth "
       "onto the middle of the free space",
       true, "",
       [](const ob::SpaceInformation* si, double sigma) { return std::make_shared<MedialAxisSampler>(si, sigma); }}};
  return all;
}
}  // namespace

void registerSampler(SamplerKind kind) {
  if (kind.name.empty() || !kind.make) throw std::invalid_argument("a sampler needs a name and a way to make it");
  // A name in a mix is followed by ':' and the mix's items by ','.
  if (kind.name.find_first_of(":, ") != std::string::npos)
    throw std::invalid_argument(fmt::format("a sampler's name may not hold ':', ',' or ' ': '{}'", kind.name));
  if (kind.name == kShiftingMix)
    throw std::invalid_argument(fmt::format("'{}' names the shifting default mix, not a sampler", kind.name));
  if (std::any_of(kinds().begin(), kinds().end(), [&](const SamplerKind& k) { return k.name == kind.name; }))
    throw std::invalid_argument(fmt::format("a sampler named '{}' is already registered", kind.name));
  kinds().push_back(std::move(kind));
}

const std::vector<SamplerKind>& samplerKinds() { return kinds(); }

const SamplerKind& samplerKind(std::string_view name) {
  for (const SamplerKind& kind : kinds())
    if (kind.name == name) return kind;
  throw std::invalid_argument(
      unknownNameMessage("sampler", name, samplerNames(), ", or a mix such as 'uniform:0.5,bridge:0.5'"));
}

std::vector<std::string> samplerNames() {
  std::vector<std::string> names;
  for (const SamplerKind& kind : kinds()) names.push_back(kind.name);
  return names;
}

}  // namespace prmkit
