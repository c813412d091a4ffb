#pragma once
// prmkit's own RRT-Connect (Kuffner & LaValle 2000): two trees, from start
// and from goal, grown towards random configurations in checked straight
// moves until they meet; no roadmap is built beyond the trees. It is the
// planner of microsecond runs (VAMP's, Thomason et al. 2024): nothing but a
// tree step and a check per iteration, so that a fast checker (`spheres`)
// sets the pace. The trees live in the planner's roadmap graph (their
// vertices and checked edges), so the final-path verification of lazy
// certification removes what fails and the trees grow on.
#include "planner/planner.h"

#include <string_view>

namespace prmkit {

/// rrt_connect's own settings (`planner.rrt_connect`).
struct RrtConnectSettings {
  static constexpr std::string_view kSection = "rrt_connect";
  /// Longest straight move of a tree, as a fraction of the maximum extent
  /// (VAMP's Panda: 1 rad of its 13 rad extent).
  double range = 0.075;

  template <class Fields>
  void fields(Fields& f) {
    f.number("range", range, {.min = 0.0, .max = 1.0, .min_exclusive = true});
  }
};

class RrtConnect final : public Planner {
 public:
  RrtConnect(const PlannerSettings& settings, const PlannerCapabilities& capabilities);
  static std::vector<PlannerKind> kinds();

 private:
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                            PlanResult& result) override;

  RrtConnectSettings own_;
};

}  // namespace prmkit
