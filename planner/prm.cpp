#include "planner/prm.h"

#include <boost/pending/disjoint_sets.hpp>

namespace prmkit {

std::optional<std::vector<Vertex>> Prm::search(Checker& checker, Roadmap& roadmap, PlanResult& result) {
  std::vector<std::size_t> rank, parent;
  boost::disjoint_sets<std::size_t*, std::size_t*> components(nullptr, nullptr);
  // Component storage grows with the roadmap; rebuild the view after each resize.
  auto makeSet = [&](Vertex v) {
    rank.push_back(0);
    parent.push_back(v);
    components = boost::disjoint_sets<std::size_t*, std::size_t*>(rank.data(), parent.data());
  };
  makeSet(0);
  makeSet(1);
  const std::size_t dof = checker.robot().dof();
  auto connect = [&](Vertex v) {
    for (Vertex n : roadmap.neighbours(v, neighbourCount(roadmap.vertexCount(), dof), settings_.radius)) {
      if (settings_.skip_same_component && components.find_set(n) == components.find_set(v)) continue;
      ++result.planner_stats.edges_attempted;
      const EdgeResult edge = checker.checkEdge(roadmap.config(n), roadmap.config(v));
      if (const auto state = acceptEdge(edge, result)) {
        roadmap.addEdge(n, v, *state);
        components.union_set(n, v);
      } else {
        ++result.planner_stats.edges_colliding;
      }
    }
  };
  connect(1);  // the goal may see the start directly
  // Components only grow; after a tentative edge fails verification they may
  // claim a connection that is gone, so then every new vertex tries a search.
  bool edgeRemoved = false;
  while (true) {
    if (components.find_set(0) == components.find_set(1)) {
      ++result.planner_stats.graph_searches;
      if (auto path = roadmap.shortestPath(0, 1)) {
        if (confirmTentative(*path, roadmap, result)) return path;
        edgeRemoved = true;
        continue;
      }
      if (!edgeRemoved) return std::nullopt;  // cannot happen without removals
    }
    const auto q = sampleValid(checker, result);
    if (!q) return std::nullopt;
    const Vertex v = roadmap.addVertex(*q);
    makeSet(v);
    connect(v);
  }
}

}  // namespace prmkit
