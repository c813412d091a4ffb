#include "planner/lazy_prm.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prmkit {

std::optional<std::vector<Vertex>> LazyPrm::search(Checker& checker, Roadmap& roadmap, PlanResult& result) {
  // Samples are drawn on every thread (BatchSampler); path checks, on this
  // thread's checker, see every verdict before them.
  CheckerPool pool(checker, resolveThreads(settings_.threads));
  SearchState state;
  state.dof = checker.robot().dof();
  const SamplerSettings sampling = samplerSettings();
  const std::size_t firstMixSource = nodeSource(result, sampling.mix.front().strategy);
  state.enhancement_source = settings_.enhance > 0 ? nodeSource(result, "enhancement") : kNoSource;
  state.sampler.emplace(pool, sampling, result.node_sources, firstMixSource, state.enhancement_source);
  auto path = searchGrowing(checker, roadmap, result, state);
  workerCheckStats_ += pool.workerStats();
  return path;
}

std::optional<std::vector<Vertex>> LazyPrm::searchGrowing(Checker& checker, Roadmap& roadmap, PlanResult& result,
                                                          SearchState& state) {
  connectUnchecked(1, roadmap, state);
  while (true) {
    std::optional<std::vector<Vertex>> path;
    if (!state.components.exact() || state.components.connected(0, 1)) {
      ++result.planner_stats.graph_searches;
      path = roadmap.shortestPath(0, 1);
      if (!path) state.components.rebuild(roadmap);
    }
    if (!path) {
      if (!growBatch(checker, roadmap, result, state)) return std::nullopt;
      continue;
    }
    if (!checkPathEdges(checker, roadmap, *path, result, state)) {
      if (confirmTentative(*path, roadmap, result)) return path;
      state.components.markInexact();  // a tentative edge failed and was removed: search again
    }
    if (outOfTime()) {
      result.status = PlanStatus::TimeLimit;
      return std::nullopt;
    }
  }
}

void LazyPrm::connectUnchecked(Vertex v, Roadmap& roadmap, SearchState& state) const {
  for (Vertex n : roadmap.neighbours(v, neighbourCount(roadmap.vertexCount(), state.dof), settings_.radius)) {
    const auto [existing, exists] = boost::edge(n, v, roadmap.graph());
    if (!exists) {
      roadmap.addEdge(n, v, EdgeState::Unchecked);
      state.components.join(n, v);
    }
  }
}

bool LazyPrm::checkPathEdges(Checker& checker, Roadmap& roadmap, const std::vector<Vertex>& path, PlanResult& result,
                             SearchState& state) {
  // The runs of consecutive unchecked edges are checked each as one path, so
  // a strategy with a multi-segment queue sees the whole run at once. A
  // check stops at its first collision and leaves the run's later edges
  // unchecked; whole_path goes over the path again until none is left.
  const bool stopAtCollision = settings_.path_check == PlannerSettings::PathCheck::FirstCollision;
  bool collided = false;
  auto edgeAt = [&](std::size_t j) -> std::optional<Edge> {
    const auto [e, exists] = boost::edge(path[j], path[j + 1], roadmap.graph());
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
    while (i + 1 < path.size() && !(collided && stopAtCollision)) {
      if (!unchecked(i)) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end + 1 < path.size() && unchecked(end)) ++end;
      std::vector<Config> run;
      for (std::size_t j = i; j <= end; ++j) run.push_back(roadmap.config(path[j]));
      result.planner_stats.edges_attempted += end - i;
      ++result.planner_stats.path_checks;
      const PathResult checked = checker.checkPath(run);
      for (std::size_t s = 0; s < checked.segments.size(); ++s) {
        if (!checked.segments[s]) continue;
        progress = true;
        const Edge e = *edgeAt(i + s);
        if (const auto state = acceptEdge(*checked.segments[s], result)) {
          roadmap.graph()[e].state = *state;
          continue;
        }
        ++result.planner_stats.edges_colliding;
        recordCollidingEdge(checker.robot(), run[s], run[s + 1], *checked.segments[s], result);
        const double length = roadmap.graph()[e].length;
        state.enhancement_seeds.emplace_back(boost::source(e, roadmap.graph()), length);
        state.enhancement_seeds.emplace_back(boost::target(e, roadmap.graph()), length);
        roadmap.removeEdge(e);
        state.components.markInexact();
        collided = true;
      }
      i = end;
    }
  }
  return collided;
}

bool LazyPrm::growBatch(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state) {
  // Start and goal are disconnected. Half of the enhancement grows the
  // smaller of their two components (Kavraki et al. 1996 expand the poorly
  // connected parts of a roadmap): a goal deep in a shelf or a cage has a
  // small component that uniform samples rarely reach.
  // Every batch ends with sweeps over the whole roadmap (the failed search,
  // the components, the enhancement's seeds), so batches grow with the
  // roadmap: O(V log V) bookkeeping in all instead of O(V^2 / batch).
  if (sampleLimitReached(result)) return false;
  const std::size_t batch = std::max(
      settings_.batch, static_cast<std::size_t>(settings_.batch_fraction * static_cast<double>(roadmap.vertexCount())));
  ++result.planner_stats.batches;
  const auto enhanced = static_cast<std::size_t>(std::lround(settings_.enhance * static_cast<double>(batch)));
  std::vector<Vertex> grow;
  double meanLength = 0.0;
  if (enhanced > 0) {
    const auto& g = roadmap.graph();
    // The components are exact here: the last search found no path.
    std::vector<Vertex> startComponent = state.components.componentOf(0);
    std::vector<Vertex> goalComponent = state.components.componentOf(1);
    grow = startComponent.size() <= goalComponent.size() ? std::move(startComponent) : std::move(goalComponent);
    for (auto [it, last] = boost::edges(g); it != last; ++it) meanLength += g[*it].length;
    meanLength = roadmap.edgeCount() > 0 ? meanLength / static_cast<double>(roadmap.edgeCount())
                                         : 0.05 * checker.robot().maxExtent();
  }
  // The batch's slots are laid out here, on this thread, from the planner's
  // stream: which seed each enhancement slot grows from and every slot's own
  // stream. The slots then draw on every thread (BatchSampler) and their
  // nodes join the roadmap in slot order, each with its edges to the nearest
  // vertices before it: the roadmap does not depend on the thread count.
  std::vector<BatchSampler::Request> requests(batch);
  for (std::size_t s = 0; s < batch; ++s) {
    BatchSampler::Request& request = requests[s];
    request.stream = static_cast<std::uint32_t>(rng_.uniformInt(0, std::numeric_limits<int>::max()));
    if (s >= enhanced) continue;
    if (s % 2 == 0 && !state.enhancement_seeds.empty()) {
      const auto& [seed, length] = state.enhancement_seeds[static_cast<std::size_t>(
          rng_.uniformInt(0, static_cast<int>(state.enhancement_seeds.size()) - 1))];
      request.center = &roadmap.config(seed);
      request.sigma = 0.5 * length;
    } else {
      const Vertex seed = grow[static_cast<std::size_t>(rng_.uniformInt(0, static_cast<int>(grow.size()) - 1))];
      request.center = &roadmap.config(seed);
      request.sigma = meanLength;
    }
  }
  const std::uint64_t drawnBefore = result.planner_stats.samples_drawn;
  const auto drawn = state.sampler->draw(requests, settings_.max_samples - drawnBefore,
                                         result.planner_stats.samples_drawn, [this] { return outOfTime(); });
  if (!drawn) {
    result.status = PlanStatus::TimeLimit;
    return false;
  }
  std::uint64_t found = 0;
  for (std::size_t s = 0; s < batch; ++s) {
    if (!(*drawn)[s].q) {
      ++result.planner_stats.slots_exhausted;
      continue;
    }
    ++found;
    result.planner_stats.enhancement_nodes += s < enhanced;
    const Vertex v = roadmap.addVertex(*(*drawn)[s].q, (*drawn)[s].source);
    state.components.addVertex();
    connectUnchecked(v, roadmap, state);
  }
  result.planner_stats.samples_invalid += result.planner_stats.samples_drawn - drawnBefore - found;
  return true;
}

}  // namespace prmkit
