#include "planner/roadmap.h"

#include <boost/graph/astar_search.hpp>
#include <boost/property_map/vector_property_map.hpp>
#include <ompl/datastructures/LPAstarOnGraph.h>

#include <cmath>
#include <list>

namespace prmkit {

/// Lazy PRM searches thousands of times between the same start and goal,
/// each time after removing the one or two edges its last path failed on;
/// from scratch, every search re-expands the whole region before a narrow
/// passage (70% of lazy PRM's time on twisted_slot). Lifelong Planning A*
/// (Koenig, Likhachev & Furcy 2004) keeps the last search's costs and
/// repairs only those that depended on a changed edge.
struct Roadmap::Incremental {
  struct GoalDistance {
    const Roadmap* roadmap;
    Vertex goal;
    double operator()(std::size_t v) const { return roadmap->robot_.distance(roadmap->graph_[v].q, roadmap->graph_[goal].q); }
  };
  Incremental(Roadmap& roadmap, Vertex start, Vertex goal)
      : start(start), goal(goal), heuristic{&roadmap, goal}, search(start, goal, roadmap.graph_, heuristic) {}
  Vertex start, goal;
  GoalDistance heuristic;  // before `search`, which keeps a reference to it
  ompl::LPAstarOnGraph<RoadmapGraph, GoalDistance> search;
  std::vector<Vertex> lastPath;
};

Roadmap::Roadmap(const Robot& robot) : robot_(robot) {
  nearest_.setDistanceFunction([this](const Vertex& a, const Vertex& b) { return robot_.distance(graph_[a].q, graph_[b].q); });
}

Roadmap::~Roadmap() = default;

Vertex Roadmap::addVertex(const Config& q, std::size_t source) {
  const Vertex v = boost::add_vertex(RoadmapVertex{q, source}, graph_);
  nearest_.add(v);
  return v;
}

Edge Roadmap::addEdge(Vertex a, Vertex b, EdgeState state) {
  auto [edge, exists] = boost::edge(a, b, graph_);
  if (!exists) {
    const double length = robot_.distance(graph_[a].q, graph_[b].q);
    edge = boost::add_edge(a, b, {length, RoadmapEdge{length, state}}, graph_).first;
    if (incremental_) {
      incremental_->search.insertEdge(a, b, length);
      incremental_->search.insertEdge(b, a, length);
    }
  }
  graph_[edge].state = state;
  return edge;
}

void Roadmap::removeEdge(Edge e) {
  const Vertex a = boost::source(e, graph_), b = boost::target(e, graph_);
  boost::remove_edge(e, graph_);
  if (!incremental_) return;
  // Both directions of the undirected edge; the start's cost is fixed at 0.
  if (b != incremental_->start) incremental_->search.removeEdge(a, b);
  if (a != incremental_->start) incremental_->search.removeEdge(b, a);
}

std::vector<Vertex> Roadmap::neighbours(Vertex v, std::size_t k, double radius) const {
  std::vector<Vertex> found;
  if (radius > 0)
    nearest_.nearestR(v, radius, found);
  else
    nearest_.nearestK(v, k + 1, found);  // +1: v itself is in the structure
  std::erase(found, v);
  if (radius <= 0 && found.size() > k) found.resize(k);
  return found;
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

std::optional<std::vector<Vertex>> Roadmap::shortestPath(Vertex start, Vertex goal) {
  if (!incremental_ || incremental_->start != start || incremental_->goal != goal)
    incremental_ = std::make_unique<Incremental>(*this, start, goal);
  auto isRoadmapPath = [&](const std::vector<Vertex>& path) {
    if (path.empty() || path.front() != start || path.back() != goal || path.size() > vertexCount()) return false;
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
      if (!boost::edge(path[i], path[i + 1], graph_).second) return false;
    return true;
  };
  std::list<std::size_t> found;
  const double cost = incremental_->search.computeShortestPath(found);
  if (std::isfinite(cost)) {
    std::vector<Vertex> path(found.begin(), found.end());
    if (isRoadmapPath(path)) return incremental_->lastPath = std::move(path);
  } else if (std::isfinite(incremental_->search(goal)) && isRoadmapPath(incremental_->lastPath)) {
    // Nothing changed since the last answer: LPAstarOnGraph returns at once
    // on an empty queue, without the path, which still stands.
    return incremental_->lastPath;
  }
  // No path (or one that is not the roadmap's): Boost's A* has the last word.
  // OMPL's queue is a multiset erased by key, so two vertices with exactly
  // equal keys could drop each other; this is where that would show.
  auto path = shortestPathFromScratch(start, goal);
  if (path) {
    ++incrementalFallbacks_;
    incremental_.reset();
  }
  return path;
}

std::optional<std::vector<Vertex>> Roadmap::shortestPathFromScratch(Vertex start, Vertex goal) const {
  const std::size_t n = vertexCount();
  std::vector<Vertex> predecessor(n);
  std::vector<double> cost(n);
  if (goalOfCache_ != goal) goalDistance_.clear();
  goalOfCache_ = goal;
  goalDistance_.resize(n, -1.0);
  auto heuristic = [&](Vertex v) {
    double& h = goalDistance_[v];
    if (h < 0) h = robot_.distance(graph_[v].q, graph_[goal].q);
    return h;
  };
  try {
    boost::astar_search(graph_, start, heuristic,
                        boost::predecessor_map(boost::make_iterator_property_map(predecessor.begin(), boost::get(boost::vertex_index, graph_)))
                            .distance_map(boost::make_iterator_property_map(cost.begin(), boost::get(boost::vertex_index, graph_)))
                            .weight_map(boost::get(&RoadmapEdge::length, graph_))
                            .visitor(GoalVisitor(goal)));
  } catch (const GoalReached&) {
    std::vector<Vertex> path{goal};
    while (path.back() != start) path.push_back(predecessor[path.back()]);
    std::reverse(path.begin(), path.end());
    return path;
  }
  return std::nullopt;
}

}  // namespace prmkit
