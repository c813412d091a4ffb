#pragma once
// The sampling strategies a mix may name (`planner.sampler`): OMPL's
// valid-state samplers behind prmkit's interface (sampling/ompl_samplers.h),
// compiled in here, and the ones registered at run time (a plug-in, or a
// test's own sampler, written to prmkit's interface alone). Everything that names a
// strategy (the mix reader, the CLI, OMPL.app's `sampler` key, the node
// sampler) asks here (docs/adding-a-sampler.md).
#include "sampling/configuration_sampler.h"

#include <functional>
#include <memory>
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
  /// Makes the strategy for one node sampler: its checks through the
  /// context's checker, its draws counted in the context (omplSampler adapts
  /// one of OMPL's on the mix's shared OMPL space).
  std::function<std::unique_ptr<ConfigurationSampler>(SamplingContext& context)> make;
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
