#include "planner/roadmap.h"

#include <boost/graph/astar_search.hpp>
#include <boost/property_map/vector_property_map.hpp>

namespace prmkit {

Roadmap::Roadmap(const Robot& robot) : robot_(robot) {
  nearest_.setDistanceFunction([this](const Vertex& a, const Vertex& b) { return robot_.distance(graph_[a].q, graph_[b].q); });
}

Vertex Roadmap::addVertex(const Config& q, std::size_t source) {
  const Vertex v = boost::add_vertex(RoadmapVertex{q, source}, graph_);
  nearest_.add(v);
  return v;
}

Edge Roadmap::addEdge(Vertex a, Vertex b, EdgeState state) {
  auto [edge, exists] = boost::edge(a, b, graph_);
  if (!exists) edge = boost::add_edge(a, b, RoadmapEdge{robot_.distance(graph_[a].q, graph_[b].q), state}, graph_).first;
  graph_[edge].state = state;
  return edge;
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

std::optional<std::vector<Vertex>> Roadmap::shortestPath(Vertex start, Vertex goal) const {
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
