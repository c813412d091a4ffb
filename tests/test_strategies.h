#pragma once
// A planner and a sampler defined in the test folder alone and registered at
// start (tests/test_strategies.cpp), as a plug-in would register its own:
// the planning and sampling tests run them beside the compiled-in ones, the
// way the conformance suite runs the test folder's checker
// (docs/adding-a-planner.md, docs/adding-a-sampler.md).
#include "planner/planner.h"

#include <ompl/base/StateSampler.h>
#include <ompl/base/ValidStateSampler.h>

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

/// A uniform sample, and when it is invalid one uniform sample within
/// `sigma` of it (OMPL's sampleUniformNear), until one is valid.
class NearPairSampler final : public ompl::base::ValidStateSampler {
 public:
  static constexpr std::string_view kName = "near_pair";
  NearPairSampler(const ompl::base::SpaceInformation* si, double sigma);
  ~NearPairSampler() override;
  NearPairSampler(const NearPairSampler&) = delete;
  NearPairSampler& operator=(const NearPairSampler&) = delete;
  bool sample(ompl::base::State* state) override;
  bool sampleNear(ompl::base::State* state, const ompl::base::State* near, double distance) override;

 private:
  ompl::base::StateSamplerPtr sampler_;
  ompl::base::State* first_;
  double sigma_;
};

}  // namespace prmkit::test
