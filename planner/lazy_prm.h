#pragma once
#include "planner/batch_sampler.h"
#include "planner/planner.h"

#include <optional>

namespace prmkit {

/// Lazy PRM (Bohlin & Kavraki 2000): the roadmap is built without edge
/// checks; A* finds the shortest path, the checker checks its unchecked edges
/// with checkPath, colliding edges are deleted and the search repeats; the
/// roadmap grows by a batch of samples when start and goal are disconnected.
/// Edge verdicts are cached on the graph, so no edge is checked twice.
class LazyPrm final : public Planner {
 public:
  using Planner::Planner;
  /// lazy_prm, and lazy_prm_star (its neighbour count grows with the roadmap).
  static std::vector<PlannerKind> kinds();

 private:
  /// What one search keeps between its steps.
  struct SearchState {
    /// Components of the roadmap's edges (any state but Colliding, which
    /// are removed). After a removal they are rebuilt only when a search
    /// finds no path; until new edges join start and goal again, no search
    /// is run (each costs O(E log V)).
    RoadmapComponents components{2};
    /// Ends of edges found in collision, with the edge's length: node
    /// enhancement samples around them (Bohlin & Kavraki 2000, section 3.3),
    /// where the free space is narrow and the uniform batch rarely lands.
    std::vector<std::pair<Vertex, double>> enhancement_seeds;
    std::size_t enhancement_source = kNoSource;
    std::size_t dof = 0;
    CheckerPool* pool = nullptr;          // the search's threads
    std::optional<BatchSampler> sampler;  // on every thread of the pool
  };

  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, PlanResult& result) override;
  /// Searches, checks paths and grows the roadmap until a path stands or a limit is hit.
  std::optional<std::vector<Vertex>> searchGrowing(Checker& checker, Roadmap& roadmap, PlanResult& result,
                                                   SearchState& state);
  /// Unchecked edges from v to its neighbours it has no edge to yet.
  void connectUnchecked(Vertex v, Roadmap& roadmap, SearchState& state) const;
  /// The same for each of `added`, their neighbours found on every thread
  /// among all the roadmap's vertices, the edges added in order.
  void connectBatch(const std::vector<Vertex>& added, Roadmap& roadmap, SearchState& state) const;
  /// Checks the path's unchecked edges (settings' path_check), deleting the
  /// colliding ones; true when one collided.
  bool checkPathEdges(Checker& checker, Roadmap& roadmap, const std::vector<Vertex>& path, PlanResult& result,
                      SearchState& state);
  /// Adds one batch of vertices (samples of the mix and node enhancement),
  /// drawn on every thread, each with its unchecked edges; false when the
  /// sample limit was hit.
  bool growBatch(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state);
};

}  // namespace prmkit
