#include "roadmap/lifelong_astar.h"

#include <algorithm>
#include <limits>

namespace prmkit {
namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr Vertex kNoVertex = static_cast<Vertex>(-1);
}  // namespace

LifelongAStar::LifelongAStar(const RoadmapGraph& graph, Vertex start, Vertex goal,
                             std::function<double(Vertex)> heuristic)
    : graph_(graph), start_(start), goal_(goal), heuristic_(std::move(heuristic)) {
  grow();
  state(start_).rhs = 0.0;
  update(start_);
}

void LifelongAStar::grow() {
  states_.resize(boost::num_vertices(graph_), State{kInfinity, kInfinity, -1.0, kNoVertex});
}

LifelongAStar::Key LifelongAStar::keyOf(Vertex v) {
  State& s = state(v);
  if (s.h < 0.0) s.h = heuristic_(v);
  // Koenig et al. 2004, Fig. 3, CalculateKey; for a stale vertex a lower
  // bound on it (its rhs is at least min(rhs, floor)).
  const double best = s.stale ? std::min({s.g, s.rhs, s.floor}) : std::min(s.g, s.rhs);
  return {best + s.h, best};
}

void LifelongAStar::update(Vertex v) {
  // UpdateVertex (Fig. 3) with the rhs already set by the caller.
  State& s = state(v);
  if (s.stale && s.rhs <= s.floor) s.stale = false;  // the best relaxation is below every other edge
  if (!s.stale && s.g == s.rhs) {
    if (s.queued) queue_.erase(s.handle);
    s.queued = false;
    return;
  }
  const Key key = keyOf(v);
  if (s.queued) {
    if (!(s.key == key)) queue_.update(s.handle, {key, v});
  } else {
    s.handle = queue_.push({key, v});
    s.queued = true;
  }
  s.key = key;
}

void LifelongAStar::relax(Vertex u, Vertex v, double through) {
  State& s = state(v);
  if (v == start_ || !(through < s.rhs)) return;  // the start's rhs stays 0
  s.rhs = through;
  s.parent = u;
  update(v);
}

void LifelongAStar::chooseParent(Vertex v) {
  State& s = state(v);
  s.rhs = kInfinity;
  s.parent = kNoVertex;
  s.stale = false;
  for (const auto& e : boost::make_iterator_range(boost::out_edges(v, graph_))) {
    const Vertex w = boost::target(e, graph_);
    const double through = state(w).g + graph_[e].length;
    if (through < s.rhs) {
      s.rhs = through;
      s.parent = w;
    }
  }
}

void LifelongAStar::parentLost(Vertex v) {
  // Before, rhs(v) was the least value over v's edges (or, stale, at least
  // min(rhs, floor)); an edge's value grows until its other end is lowered,
  // which relaxes the edge. So from now on rhs(v) is the least of the
  // relaxations to come and some value >= that floor: its key has a lower
  // bound without a scan over its edges, which waits until v is popped.
  // Most such vertices are frontier vertices the search never pops again
  // (on the Panda's lazy roadmaps, most of the scans made at every raise).
  State& s = state(v);
  s.floor = s.stale ? std::min(s.floor, s.rhs) : s.rhs;
  s.rhs = kInfinity;
  s.parent = kNoVertex;
  s.stale = true;
  update(v);
}

void LifelongAStar::edgeAdded(Vertex a, Vertex b, double length) {
  grow();
  for (const auto& [u, v] : {std::pair{a, b}, std::pair{b, a}}) {
    relax(u, v, state(u).g + length);
  }
}

void LifelongAStar::edgeRemoved(Vertex a, Vertex b) {
  grow();
  for (const auto& [u, v] : {std::pair{a, b}, std::pair{b, a}}) {
    if (v == start_ || state(v).parent != u) continue;
    parentLost(v);
  }
}

void LifelongAStar::computeShortestPath() {
  // ComputeShortestPath (Fig. 3), with rhs values kept up to date as edges
  // and costs change and recomputed from all edges only for vertices whose
  // parent lost its cost.
  while (!queue_.empty()) {
    const State& goal = state(goal_);
    if (!(queue_.top().key < keyOf(goal_)) && !goal.stale && goal.rhs == goal.g) break;
    const auto [key, u] = queue_.top();
    queue_.pop();
    ++expansions_;
    State& s = states_[u];
    s.queued = false;
    if (s.stale) {
      // Its key was a lower bound: the scan gives its rhs, and it goes back
      // into the queue unless it is consistent or its key is still the least.
      chooseParent(u);
      if (s.g == s.rhs) continue;
      if (key < keyOf(u)) {
        update(u);
        continue;
      }
    }
    if (s.g > s.rhs) {
      s.g = s.rhs;
      const double g = s.g;
      for (const auto& e : boost::make_iterator_range(boost::out_edges(u, graph_))) {
        const Vertex v = boost::target(e, graph_);
        relax(u, v, g + graph_[e].length);
      }
    } else {
      s.g = kInfinity;
      update(u);
      for (const auto& e : boost::make_iterator_range(boost::out_edges(u, graph_))) {
        const Vertex v = boost::target(e, graph_);
        if (v == start_ || state(v).parent != u) continue;
        parentLost(v);
      }
    }
  }
}

std::vector<Vertex> LifelongAStar::reachedVertices() const {
  std::vector<Vertex> reached;
  for (Vertex v = 0; v < states_.size(); ++v)
    if (states_[v].g < kInfinity) reached.push_back(v);
  return reached;
}

std::optional<std::vector<Vertex>> LifelongAStar::shortestPath() {
  grow();
  computeShortestPath();
  if (!(state(goal_).g < kInfinity)) return std::nullopt;
  std::vector<Vertex> path{goal_};
  // The parents lead back to the start; bounded in case they do not.
  while (path.back() != start_ && path.size() <= states_.size()) {
    const Vertex parent = states_[path.back()].parent;
    if (parent == kNoVertex) return std::nullopt;
    path.push_back(parent);
  }
  if (path.back() != start_) return std::nullopt;
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace prmkit
