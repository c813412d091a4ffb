#include "roadmap/roadmap.h"

#include "roadmap/lifelong_astar.h"

#include <boost/graph/astar_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/property_map/vector_property_map.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prmkit {

const char* edgeStateName(EdgeState state) {
  switch (state) {
    case EdgeState::Unchecked:
      return "unchecked";
    case EdgeState::Free:
      return "free";
    case EdgeState::Colliding:
      return "colliding";
    case EdgeState::Tentative:
      return "tentative";
    case EdgeState::Verified:
      return "verified";
  }
  return "unchecked";
}

Roadmap::Roadmap(const Robot& robot)
    : robot_(robot), nearest_(robot, [this](std::size_t v) -> const Config& { return graph_[v].q; }) {}

Roadmap::~Roadmap() = default;

Vertex Roadmap::addVertex(const Config& q, std::size_t source) {
  const Vertex v = boost::add_vertex(RoadmapVertex{q, source}, graph_);
  nearest_.add(v, q);
  ++version_;
  return v;
}

Edge Roadmap::addEdge(Vertex a, Vertex b, EdgeState state, std::optional<double> length) {
  auto [edge, exists] = boost::edge(a, b, graph_);
  if (!exists) {
    const double measured = length ? *length : robot_.distance(graph_[a].q, graph_[b].q);
    // The robot's bounds keep coordinates within kMaxCoordinate, so lengths are finite.
    if (!std::isfinite(measured)) throw std::logic_error("a roadmap edge of non-finite length");
    edge = boost::add_edge(a, b, RoadmapEdge{measured, state}, graph_).first;
    edgeLengthSum_ += measured;
    ++version_;
    if (incremental_) incremental_->edgeAdded(a, b, measured);
  }
  graph_[edge].state = state;
  return edge;
}

void Roadmap::removeEdge(Edge e) {
  const Vertex a = boost::source(e, graph_), b = boost::target(e, graph_);
  edgeLengthSum_ -= graph_[e].length;
  boost::remove_edge(e, graph_);
  if (boost::num_edges(graph_) == 0) edgeLengthSum_ = 0.0;  // no drift carried past an empty graph
  ++version_;
  if (incremental_) incremental_->edgeRemoved(a, b);
}

void Roadmap::excludeVertex(Vertex v) {
  while (boost::out_degree(v, graph_) > 0) removeEdge(*boost::out_edges(v, graph_).first);
  excluded_.insert(v);
}

std::vector<Vertex> Roadmap::neighbours(Vertex v, std::size_t k, double radius) const {
  std::vector<Vertex> found;
  if (radius > 0)
    nearest_.nearestR(v, radius, found);
  else
    nearest_.nearestK(v, k + 1, found);  // +1: v itself is in the structure
  std::erase(found, v);
  if (!excluded_.empty()) std::erase_if(found, [&](Vertex n) { return excluded_.count(n) > 0; });
  if (radius <= 0 && found.size() > k) found.resize(k);
  return found;
}

std::optional<Vertex> Roadmap::findVertex(const Config& q) const {
  for (Vertex v = 0; v < vertexCount(); ++v)
    if (graph_[v].q.size() == q.size() && graph_[v].q == q) return v;
  return std::nullopt;
}

double Roadmap::goalDistance(Vertex v, Vertex goal) const {
  if (goalOfCache_ != goal) goalDistance_.clear();
  goalOfCache_ = goal;
  if (goalDistance_.size() <= v) goalDistance_.resize(vertexCount(), -1.0);
  double& h = goalDistance_[v];
  if (h < 0) h = robot_.distance(graph_[v].q, graph_[goal].q);
  return h;
}

const std::vector<std::size_t>& Roadmap::componentLabels() const {
  if (labelsVersion_ != version_) {
    labels_.resize(vertexCount());
    if (!labels_.empty()) boost::connected_components(graph_, labels_.data());
    labelsVersion_ = version_;
  }
  return labels_;
}

RoadmapMemory Roadmap::memoryUse() const {
  RoadmapMemory use;
  auto& g = const_cast<RoadmapGraph&>(graph_);  // out_edge_list has no const overload
  use.vertex_bytes = nearest_.coordinateBytes() + g.m_vertices.capacity() * sizeof(RoadmapGraph::stored_vertex) +
                     goalDistance_.capacity() * sizeof(double) + labels_.capacity() * sizeof(std::size_t);
  using OutEdge = std::remove_reference_t<decltype(g.out_edge_list(0))>::value_type;
  using ListEdge = decltype(g.m_edges)::value_type;
  use.edge_bytes = edgeCount() * (sizeof(ListEdge) + 2 * sizeof(void*));  // a std::list node: two links and the edge
  for (Vertex v = 0; v < vertexCount(); ++v) {
    use.vertex_bytes += static_cast<std::size_t>(graph_[v].q.size()) * sizeof(double);
    use.edge_bytes += g.out_edge_list(v).capacity() * sizeof(OutEdge);
  }
  return use;
}

namespace {
struct GoalReached {};

class GoalVisitor : public boost::default_astar_visitor {
 public:
  explicit GoalVisitor(Vertex goal) : goal_(goal) {}
  void examine_vertex(Vertex v, const RoadmapGraph&) const {
    if (v == goal_) throw GoalReached{};
  }

 private:
  Vertex goal_;
};
}  // namespace

std::uint64_t Roadmap::searchExpansions() const {
  return retiredExpansions_ + (incremental_ ? incremental_->expansions() : 0);
}

std::optional<std::vector<Vertex>> Roadmap::shortestPath(Vertex start, Vertex goal) {
  // LifelongAStar runs from its root to its target, its heuristic the
  // distance to the target; from the goal the path comes out reversed.
  const Vertex root = searchRoot_ == goal ? goal : start;
  const Vertex target = root == goal ? start : goal;
  searchedFrom_ = root;
  if (!incremental_ || incremental_->start() != root || incremental_->goal() != target) {
    if (incremental_) retiredExpansions_ += incremental_->expansions();
    incremental_ = std::make_unique<LifelongAStar>(graph_, root, target,
                                                   [this, target](Vertex v) { return goalDistance(v, target); });
  }
  auto isRoadmapPath = [&](const std::vector<Vertex>& path) {
    if (path.empty() || path.front() != start || path.back() != goal || path.size() > vertexCount()) return false;
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
      if (!boost::edge(path[i], path[i + 1], graph_).second) return false;
    return true;
  };
  searchedComponent_.clear();
  auto path = incremental_->shortestPath();
  if (path && root == goal) std::reverse(path->begin(), path->end());
  if (path && isRoadmapPath(*path)) return path;
  // No path: the vertices the search reached must hold the root, not the
  // target, and every edge leaving them: then they are the root's component
  // and the target is outside it (lazy PRM ends every batch of a hard problem
  // here). Anything else (or a path that is not the roadmap's) would be a
  // defect of the incremental search, which the counter shows: the
  // components from one sweep over the edges, then Boost's A*, have the last word.
  if (!path) {
    std::vector<Vertex> reached = incremental_->reachedVertices();
    std::vector<char> inside(vertexCount(), 0);
    for (const Vertex v : reached) inside[v] = 1;
    bool closed = inside[root] && !inside[target];
    for (std::size_t i = 0; closed && i < reached.size(); ++i)
      for (const auto& e : boost::make_iterator_range(boost::out_edges(reached[i], graph_)))
        closed = closed && inside[boost::target(e, graph_)];
    if (closed) {
      searchedComponent_ = std::move(reached);
      return std::nullopt;
    }
  }
  const std::vector<std::size_t>& labels = componentLabels();
  if (labels[start] == labels[goal]) path = shortestPathFromScratch(start, goal);
  if (!path)
    for (Vertex v = 0; v < vertexCount(); ++v)
      if (labels[v] == labels[root]) searchedComponent_.push_back(v);
  ++incrementalFallbacks_;
  retiredExpansions_ += incremental_->expansions();
  incremental_.reset();
  return path;
}

std::optional<std::vector<Vertex>> Roadmap::shortestPathFromScratch(Vertex start, Vertex goal) const {
  const std::size_t n = vertexCount();
  std::vector<Vertex> predecessor(n);
  std::vector<double> cost(n);
  auto heuristic = [&](Vertex v) { return goalDistance(v, goal); };
  try {
    boost::astar_search(
        graph_, start, heuristic,
        boost::predecessor_map(
            boost::make_iterator_property_map(predecessor.begin(), boost::get(boost::vertex_index, graph_)))
            .distance_map(boost::make_iterator_property_map(cost.begin(), boost::get(boost::vertex_index, graph_)))
            .weight_map(boost::get(&RoadmapEdge::length, graph_))
            .visitor(GoalVisitor(goal)));
  } catch (const GoalReached&) {
    std::vector<Vertex> path{goal};
    // Bounded like LifelongAStar's: a cycle of predecessors (costs that are
    // not finite) must not grow the path without end.
    while (path.back() != start && path.size() <= n) path.push_back(predecessor[path.back()]);
    if (path.back() != start) return std::nullopt;
    std::reverse(path.begin(), path.end());
    return path;
  }
  return std::nullopt;
}

RoadmapComponents::RoadmapComponents(std::size_t count) : rank_(count, 0), parent_(count) {
  for (std::size_t v = 0; v < count; ++v) parent_[v] = v;
}

RoadmapComponents::RoadmapComponents(const Roadmap& roadmap) : RoadmapComponents(roadmap.vertexCount()) {
  for (const Edge e : boost::make_iterator_range(boost::edges(roadmap.graph())))
    join(boost::source(e, roadmap.graph()), boost::target(e, roadmap.graph()));
}

void RoadmapComponents::addVertex() {
  rank_.push_back(0);
  parent_.push_back(parent_.size());
}

void RoadmapComponents::join(Vertex a, Vertex b) { sets().union_set(a, b); }

bool RoadmapComponents::connected(Vertex a, Vertex b) {
  auto s = sets();
  return s.find_set(a) == s.find_set(b);
}

std::vector<Vertex> RoadmapComponents::componentOf(Vertex v) {
  auto s = sets();
  const std::size_t root = s.find_set(v);
  std::vector<Vertex> members;
  for (Vertex u = 0; u < parent_.size(); ++u)
    if (s.find_set(u) == root) members.push_back(u);
  return members;
}

void RoadmapComponents::rebuild(const Roadmap& roadmap, Vertex start, Vertex goal) {
  const Vertex root = roadmap.searchRoot();
  const Vertex other = root == start ? goal : start;
  const std::vector<Vertex>& rootMembers = roadmap.searchedComponent();
  const std::size_t n = roadmap.vertexCount();
  if ((root != start && root != goal) || !std::binary_search(rootMembers.begin(), rootMembers.end(), root))
    throw std::logic_error("components rebuilt without a search that found no path");
  // 0: elsewhere, 1: the root's component, 2: the other end's (when smaller).
  std::vector<unsigned char> side(n, 0);
  for (const Vertex v : rootMembers) side[v] = 1;
  // The other end inside the root's component (no path found for some other
  // reason) leaves its side empty: start and goal then share a set.
  std::vector<Vertex> otherMembers;
  if (side[other] == 0) {
    otherMembers.push_back(other);
    side[other] = 2;
  }
  for (std::size_t i = 0; i < otherMembers.size() && otherMembers.size() < rootMembers.size(); ++i)
    for (const auto& e : boost::make_iterator_range(boost::out_edges(otherMembers[i], roadmap.graph()))) {
      const Vertex w = boost::target(e, roadmap.graph());
      if (side[w] == 0) {
        side[w] = 2;
        otherMembers.push_back(w);
      }
    }
  const bool otherSmaller = !otherMembers.empty() && otherMembers.size() < rootMembers.size();
  if (!otherSmaller)
    for (const Vertex v : otherMembers) side[v] = 0;
  largerEnd_ = otherSmaller || otherMembers.empty() ? root : other;
  rank_.assign(n, 0);
  parent_.resize(n);
  // Each vertex's parent is the first vertex of its set: a valid union-find forest.
  std::size_t first[3] = {n, n, n};
  for (std::size_t v = 0; v < n; ++v) {
    if (first[side[v]] == n) first[side[v]] = v;
    parent_[v] = first[side[v]];
    rank_[v] = parent_[v] == v ? 1 : 0;
  }
  proven_ = true;
}

}  // namespace prmkit
