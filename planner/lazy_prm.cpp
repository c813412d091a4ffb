#include "planner/lazy_prm.h"

namespace prmkit {

std::optional<std::vector<Vertex>> LazyPrm::search(Checker& checker, Roadmap& roadmap, PlanResult& result) {
  const std::size_t dof = checker.robot().dof();
  auto connectUnchecked = [&](Vertex v) {
    for (Vertex n : roadmap.neighbours(v, neighbourCount(roadmap.vertexCount(), dof), settings_.radius)) {
      const auto [existing, exists] = boost::edge(n, v, roadmap.graph());
      if (!exists) roadmap.addEdge(n, v, EdgeState::Unchecked);
    }
  };
  connectUnchecked(1);
  while (true) {
    ++result.planner_stats.graph_searches;
    if (auto path = roadmap.shortestPath(0, 1)) {
      // Check the runs of consecutive unchecked edges, each as one path, so a
      // strategy with a multi-segment queue sees the whole run at once.
      bool collided = false;
      std::size_t i = 0;
      while (i + 1 < path->size() && !collided) {
        auto edgeAt = [&](std::size_t j) { return boost::edge((*path)[j], (*path)[j + 1], roadmap.graph()).first; };
        if (roadmap.graph()[edgeAt(i)].state != EdgeState::Unchecked) {
          ++i;
          continue;
        }
        std::size_t end = i;
        while (end + 1 < path->size() && roadmap.graph()[edgeAt(end)].state == EdgeState::Unchecked) ++end;
        std::vector<Config> run;
        for (std::size_t j = i; j <= end; ++j) run.push_back(roadmap.config((*path)[j]));
        result.planner_stats.edges_attempted += end - i;
        ++result.planner_stats.path_checks;
        const PathResult checked = checker.checkPath(run);
        for (std::size_t s = 0; s < checked.segments.size(); ++s) {
          if (!checked.segments[s]) continue;
          const Edge e = edgeAt(i + s);
          if (const auto state = acceptEdge(*checked.segments[s], result)) {
            roadmap.graph()[e].state = *state;
          } else {
            ++result.planner_stats.edges_colliding;
            roadmap.removeEdge(e);
            collided = true;
          }
        }
        i = end;
      }
      if (!collided) {
        if (confirmTentative(*path, roadmap, result)) return path;
        collided = true;  // a tentative edge failed: search again
      }
      if (outOfTime()) {
        result.status = "time limit";
        return std::nullopt;
      }
      continue;
    }
    for (std::size_t s = 0; s < settings_.batch; ++s) {
      const auto q = sampleValid(checker, result);
      if (!q) return std::nullopt;
      connectUnchecked(roadmap.addVertex(*q));
    }
  }
}

}  // namespace prmkit
