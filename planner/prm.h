#pragma once
#include "planner/planner.h"

#include <array>
#include <string_view>

namespace prmkit {

inline constexpr std::size_t kMaxExpandBounces = 1000;

/// prm's own settings (`planner.prm`).
struct PrmSettings {
  static constexpr std::string_view kSection = "prm";
  /// Fraction of new nodes made by random-bounce expansion of poorly
  /// connected nodes (Kavraki et al. 1996, section 2.3) instead of sampling.
  double expand = 0.0;
  std::size_t expand_bounces = 3;    // straight moves of one expansion walk
  double expand_step = 0.05;         // longest move, as a fraction of the maximum extent
  bool skip_same_component = false;  // do not try edges inside one connected component

  template <class Fields>
  void fields(Fields& f) {
    f.number("expand", expand, {.min = 0.0, .max = 1.0});
    f.integer("expand_bounces", expand_bounces, {.min = 1.0, .max = kMaxExpandBounces});
    f.number("expand_step", expand_step, {.min = 0.0, .max = 1.0, .min_exclusive = true});
    f.boolean("skip_same_component", skip_same_component);
  }
};

/// PRM (Kavraki et al.): every new valid sample is connected to its
/// neighbours with checked edges; the query succeeds as soon as start and
/// goal share a connected component, and A* returns the path.
class Prm final : public Planner {
 public:
  Prm(const PlannerSettings& settings, const PlannerCapabilities& capabilities, Connection connection);
  /// prm, and prm_star (Karaman & Frazzoli's PRM*: the neighbour count grows with the roadmap).
  static std::vector<PlannerKind> kinds();

 private:
  struct Search;
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                            PlanResult& result) override;

  PrmSettings own_;
};

}  // namespace prmkit
