#pragma once
// The sampling strategies a mix may name (`planner.sampler`): OMPL's
// valid-state samplers, compiled in here, and the ones registered at run
// time (a plug-in, or a test's own sampler). Everything that names a
// strategy (the mix reader, the CLI, OMPL.app's `sampler` key, the node
// sampler) asks here (docs/adding-a-sampler.md).
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/ValidStateSampler.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

/// A sampling strategy by name: what it is, what it needs, how to make it.
struct SamplerKind {
  std::string name;
  std::string description;
  /// Its validity checks ask the checker for clearances (OMPL's
  /// MaximizeClearanceValidStateSampler): the node sampler then provides them.
  bool needs_clearance = false;
  /// The name OMPL.app's `sampler` key gives it, if OMPL.app has it.
  std::string omplapp_name;
  /// An OMPL valid-state sampler on `si`, whose validity checker is prmkit's
  /// checker (every check counted); `sigma` is the width of the passages to
  /// be found, in C-space units (planner.sampler_sigma times the maximum extent).
  std::function<ompl::base::ValidStateSamplerPtr(const ompl::base::SpaceInformation* si, double sigma)> make;
};

/// Adds a strategy; throws std::invalid_argument when its name is taken or
/// it cannot be made. Register before reading problems. Not thread-safe.
void registerSampler(SamplerKind kind);
/// Every strategy: the compiled-in ones, then the registered ones in registration order.
const std::vector<SamplerKind>& samplerKinds();
/// The strategy called `name`; throws std::invalid_argument naming the known ones.
const SamplerKind& samplerKind(std::string_view name);
/// Every strategy's name, in samplerKinds() order.
std::vector<std::string> samplerNames();

}  // namespace prmkit
