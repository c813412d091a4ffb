#pragma once
#include "planner/planner.h"

namespace prmkit {

/// Lazy PRM (Bohlin & Kavraki 2000): the roadmap is built without edge
/// checks; A* finds the shortest path, the checker checks its unchecked edges
/// with checkPath, colliding edges are deleted and the search repeats; the
/// roadmap grows by a batch of samples when start and goal are disconnected.
/// Edge verdicts are cached on the graph, so no edge is checked twice.
class LazyPrm final : public Planner {
 public:
  using Planner::Planner;

 private:
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, PlanResult& result) override;
};

}  // namespace prmkit
