#pragma once
// prmkit's own RRT-Connect (Kuffner & LaValle 2000): two trees, from start
// and from goal, grown towards random configurations in checked straight
// moves until they meet; no roadmap is built beyond the trees. As VAMP's:
// the straight move from start to goal is tried first, the smaller tree
// extends while it is at most half the other, and samples are drawn in
// dynamic domains (Yershova et al. 2005). It is the
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
  /// Dynamic-domain sampling's first radius (Yershova et al. 2005), as a
  /// fraction of the maximum extent (0: off); VAMP's Panda: 4 rad of 13.
  double domain_radius = 0.3;

  template <class Fields>
  void fields(Fields& f) {
    f.number("range", range, {.min = 0.0, .max = 1.0, .min_exclusive = true});
    f.number("domain_radius", domain_radius,
             {.min = 0.0, .max = 10.0, .unit = "fraction of the maximum extent; 0: off"});
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
