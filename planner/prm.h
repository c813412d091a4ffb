#pragma once
#include "planner/planner.h"

namespace prmkit {

/// PRM (Kavraki et al.): every new valid sample is connected to its
/// neighbours with checked edges; the query succeeds as soon as start and
/// goal share a connected component, and A* returns the path.
class Prm final : public Planner {
 public:
  using Planner::Planner;
  /// prm, and prm_star (Karaman & Frazzoli's PRM*: the neighbour count grows with the roadmap).
  static std::vector<PlannerKind> kinds();

 private:
  struct Search;
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, PlanResult& result) override;
};

}  // namespace prmkit
