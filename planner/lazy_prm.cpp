#include "planner/lazy_prm.h"

#include <boost/pending/disjoint_sets.hpp>

#include <cmath>

namespace prmkit {

std::optional<std::vector<Vertex>> LazyPrm::search(Checker& checker, Roadmap& roadmap, PlanResult& result) {
  const std::size_t dof = checker.robot().dof();
  // Components of the roadmap's edges (any state but Colliding, which are
  // removed). Removing an edge may split a component, which union-find cannot
  // undo, so they are rebuilt after a search finds no path; until new edges
  // join start and goal again, no search is run (each costs O(E log V)).
  std::vector<std::size_t> rank{0, 0}, parent{0, 1};
  boost::disjoint_sets<std::size_t*, std::size_t*> components(rank.data(), parent.data());
  bool componentsExact = true;
  auto rebuildComponents = [&] {
    const std::vector<std::size_t>& label = roadmap.componentLabels();
    const std::size_t n = label.size();
    // Each vertex's parent is the first vertex of its component: a valid union-find forest.
    std::vector<std::size_t> first(n, n);
    for (std::size_t v = 0; v < n; ++v) {
      if (first[label[v]] == n) first[label[v]] = v;
      parent[v] = first[label[v]];
      rank[v] = parent[v] == v ? 1 : 0;
    }
    componentsExact = true;
  };
  auto connectUnchecked = [&](Vertex v) {
    for (Vertex n : roadmap.neighbours(v, neighbourCount(roadmap.vertexCount(), dof), settings_.radius)) {
      const auto [existing, exists] = boost::edge(n, v, roadmap.graph());
      if (!exists) {
        roadmap.addEdge(n, v, EdgeState::Unchecked);
        components.union_set(n, v);
      }
    }
  };
  auto addVertex = [&](const Sample& sample) {
    const Vertex v = roadmap.addVertex(sample.q, sample.source);
    rank.push_back(0);
    parent.push_back(v);
    components = boost::disjoint_sets<std::size_t*, std::size_t*>(rank.data(), parent.data());
    connectUnchecked(v);
  };
  connectUnchecked(1);
  // Ends of edges found in collision, with the edge's length: node
  // enhancement samples around them (Bohlin & Kavraki 2000, section 3.3),
  // where the free space is narrow and the uniform batch rarely lands.
  std::vector<std::pair<Vertex, double>> enhancementSeeds;
  const std::size_t enhancementSource = settings_.enhance > 0 ? nodeSource(result, "enhancement") : kNoSource;
  while (true) {
    std::optional<std::vector<Vertex>> path;
    if (!componentsExact || components.find_set(0) == components.find_set(1)) {
      ++result.planner_stats.graph_searches;
      path = roadmap.shortestPath(0, 1);
      if (!path) rebuildComponents();
    }
    if (path) {
      // Check the runs of consecutive unchecked edges, each as one path, so a
      // strategy with a multi-segment queue sees the whole run at once. A
      // check stops at its first collision and leaves the run's later edges
      // unchecked; whole_path goes over the path again until none is left.
      const bool stopAtCollision = settings_.path_check == PlannerSettings::PathCheck::FirstCollision;
      bool collided = false;
      auto edgeAt = [&](std::size_t j) -> std::optional<Edge> {
        const auto [e, exists] = boost::edge((*path)[j], (*path)[j + 1], roadmap.graph());
        return exists ? std::optional<Edge>(e) : std::nullopt;
      };
      auto unchecked = [&](std::size_t j) {
        const auto e = edgeAt(j);
        return e && roadmap.graph()[*e].state == EdgeState::Unchecked;
      };
      bool progress = true;
      while (progress && !(collided && stopAtCollision)) {
        progress = false;
        std::size_t i = 0;
        while (i + 1 < path->size() && !(collided && stopAtCollision)) {
          if (!unchecked(i)) {
            ++i;
            continue;
          }
          std::size_t end = i;
          while (end + 1 < path->size() && unchecked(end)) ++end;
          std::vector<Config> run;
          for (std::size_t j = i; j <= end; ++j) run.push_back(roadmap.config((*path)[j]));
          result.planner_stats.edges_attempted += end - i;
          ++result.planner_stats.path_checks;
          const PathResult checked = checker.checkPath(run);
          for (std::size_t s = 0; s < checked.segments.size(); ++s) {
            if (!checked.segments[s]) continue;
            progress = true;
            const Edge e = *edgeAt(i + s);
            if (const auto state = acceptEdge(*checked.segments[s], result)) {
              roadmap.graph()[e].state = *state;
            } else {
              ++result.planner_stats.edges_colliding;
              recordCollidingEdge(checker.robot(), run[s], run[s + 1], *checked.segments[s], result);
              const double length = roadmap.graph()[e].length;
              enhancementSeeds.emplace_back(boost::source(e, roadmap.graph()), length);
              enhancementSeeds.emplace_back(boost::target(e, roadmap.graph()), length);
              roadmap.removeEdge(e);
              componentsExact = false;
              collided = true;
            }
          }
          i = end;
        }
      }
      if (!collided) {
        if (confirmTentative(*path, roadmap, result)) return path;
        componentsExact = false;  // a tentative edge failed and was removed: search again
      }
      if (outOfTime()) {
        result.status = PlanStatus::TimeLimit;
        return std::nullopt;
      }
      continue;
    }
    // Start and goal are disconnected. Half of the enhancement grows the
    // smaller of their two components (Kavraki et al. 1996 expand the poorly
    // connected parts of a roadmap): a goal deep in a shelf or a cage has a
    // small component that uniform samples rarely reach.
    // Every batch ends with sweeps over the whole roadmap (the failed search,
    // the components, the enhancement's seeds), so batches grow with the
    // roadmap: O(V log V) bookkeeping in all instead of O(V^2 / batch).
    const std::size_t batch = std::max(
        settings_.batch, static_cast<std::size_t>(settings_.batch_fraction * static_cast<double>(roadmap.vertexCount())));
    ++result.planner_stats.batches;
    const auto enhanced = static_cast<std::size_t>(std::lround(settings_.enhance * static_cast<double>(batch)));
    std::vector<Vertex> grow;
    double meanLength = 0.0;
    if (enhanced > 0) {
      const auto& g = roadmap.graph();
      // The components are exact here: the last search found no path.
      std::vector<Vertex> endComponents[2];
      for (Vertex v = 0; v < roadmap.vertexCount(); ++v)
        for (std::size_t end = 0; end < 2; ++end)
          if (components.find_set(v) == components.find_set(end)) endComponents[end].push_back(v);
      grow = std::move(endComponents[endComponents[0].size() <= endComponents[1].size() ? 0 : 1]);
      for (auto [it, last] = boost::edges(g); it != last; ++it) meanLength += g[*it].length;
      meanLength = roadmap.edgeCount() > 0 ? meanLength / static_cast<double>(roadmap.edgeCount())
                                           : 0.05 * checker.robot().maxExtent();
    }
    for (std::size_t s = 0; s < batch; ++s) {
      std::optional<Sample> q;
      if (s < enhanced) {
        if (s % 2 == 0 && !enhancementSeeds.empty()) {
          const auto& [seed, length] = enhancementSeeds[static_cast<std::size_t>(
              rng_.uniformInt(0, static_cast<int>(enhancementSeeds.size()) - 1))];
          q = sampleValidNear(checker, roadmap.config(seed), 0.5 * length, enhancementSource, result);
        } else {
          const Vertex seed = grow[static_cast<std::size_t>(rng_.uniformInt(0, static_cast<int>(grow.size()) - 1))];
          q = sampleValidNear(checker, roadmap.config(seed), meanLength, enhancementSource, result);
        }
        result.planner_stats.enhancement_nodes += q.has_value();
      } else {
        q = sampleValid(result);
      }
      if (!q) return std::nullopt;
      addVertex(*q);
    }
  }
}

}  // namespace prmkit
