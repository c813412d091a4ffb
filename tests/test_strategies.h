#pragma once
// A planner and a sampler defined in the test folder alone and registered at
// start (tests/test_strategies.cpp), as a plug-in would register its own:
// the planning and sampling tests run them beside the compiled-in ones, the
// way the conformance suite runs the test folder's checker
// (docs/adding-a-planner.md, docs/adding-a-sampler.md).
#include "planner/planner.h"
#include "sampling/configuration_sampler.h"

#include <string_view>

namespace prmkit::test {

/// The test planner's own settings section (`planner.sequential_prm`).
struct SequentialPrmSettings {
  static constexpr std::string_view kSection = "sequential_prm";
  std::size_t search_every = 1;  // vertices added between two searches

  template <class Fields>
  void fields(Fields& f) {
    f.integer("search_every", search_every, {.min = 1.0, .max = 1e6, .unit = "vertices"});
  }
};

/// The simplest PRM: one valid sample at a time, its edges to its k nearest
/// vertices checked at once, a search after every `search_every` vertices.
class SequentialPrm final : public Planner {
 public:
  static constexpr std::string_view kName = "sequential_prm";
  SequentialPrm(const PlannerSettings& settings, const PlannerCapabilities& capabilities);

 private:
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                            PlanResult& result) override;
  SequentialPrmSettings own_;
};

/// A uniform sample, and when it is invalid one within `sigma` of it (along
/// the interpolation towards another uniform sample), until one is valid:
/// prmkit's sampler interface alone, no OMPL.
class NearPairSampler final : public ConfigurationSampler {
 public:
  static constexpr std::string_view kName = "near_pair";
  explicit NearPairSampler(SamplingContext& context);
  bool sample(Config& out, unsigned int attempts) override;
  void restart(std::uint32_t stream) override;

 private:
  /// One draw, counted; true when it is valid.
  bool drawValid(Config& q);
  SamplingContext& context_;
  Random random_;
  Config first_, towards_;
};

}  // namespace prmkit::test
