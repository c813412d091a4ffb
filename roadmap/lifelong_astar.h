#pragma once
// Lifelong Planning A* (Koenig, Likhachev & Furcy, "Lifelong Planning A*",
// Artificial Intelligence 155, 2004) on the roadmap's undirected graph, for
// lazy PRM's pattern: thousands of searches between the same start and goal,
// each after a few edges were removed (found colliding) or a batch of
// vertices and edges was added. A search repairs only the costs that depended
// on a changed edge, where A* from scratch re-expands the whole region before
// a narrow passage.
//
// OMPL's LPAstarOnGraph implements the same algorithm, with a heap-allocated
// node per vertex found through a hash map and a multiset erased by key (so
// two vertices with equal keys can drop each other). On a 18 000-vertex Panda
// roadmap it was 41% of lazy PRM's time; here the per-vertex state lives in
// arrays indexed by vertex and the queue is Boost's mutable 4-ary heap, whose
// handles let a vertex's key change in place.
#include "roadmap/roadmap.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <boost/heap/d_ary_heap.hpp>

#include <vector>

namespace prmkit {

class LifelongAStar {
 public:
  /// `heuristic(v)`: a consistent estimate of the cost from v to the goal
  /// (the C-space distance), asked once per vertex.
  LifelongAStar(const RoadmapGraph& graph, Vertex start, Vertex goal, std::function<double(Vertex)> heuristic);

  Vertex start() const { return start_; }
  Vertex goal() const { return goal_; }
  /// The edge (a, b) of this length is now in the graph.
  void edgeAdded(Vertex a, Vertex b, double length);
  /// The edge (a, b) has left the graph.
  void edgeRemoved(Vertex a, Vertex b);
  /// The shortest start-goal path over the graph's edges (start first), or
  /// none when the goal is unreachable.
  std::optional<std::vector<Vertex>> shortestPath();
  /// The vertices of finite cost from the start, ascending. After a search
  /// that found no path the queue is empty and every vertex consistent, so
  /// these are the vertices the start reaches: its component.
  std::vector<Vertex> reachedVertices() const;
  /// Vertices taken from the queue by the searches so far: their work, counted.
  std::uint64_t expansions() const { return expansions_; }

 private:
  struct Key {
    double first, second;
    bool operator<(const Key& other) const {
      return first != other.first ? first < other.first : second < other.second;
    }
    bool operator==(const Key& other) const = default;
  };
  struct QueueEntry {
    Key key;
    Vertex vertex;
  };
  struct Later {  // Boost's heaps keep the largest on top
    bool operator()(const QueueEntry& a, const QueueEntry& b) const { return b.key < a.key; }
  };
  using Queue = boost::heap::d_ary_heap<QueueEntry, boost::heap::arity<4>, boost::heap::mutable_<true>,
                                        boost::heap::compare<Later>>;
  struct State {
    double g;
    double rhs;
    double h = -1.0;  // heuristic, computed on first use
    Vertex parent;    // the predecessor rhs was taken from
    Key key{0.0, 0.0};
    bool queued = false;
    // Its parent lost its cost and its edges are not scanned yet (parentLost):
    // rhs is the best relaxation since, and every other edge gives at least
    // `floor`. A stale vertex is always queued.
    bool stale = false;
    double floor = 0.0;
    Queue::handle_type handle{};
  };

  /// One state per vertex of the graph (new vertices: unreached).
  void grow();
  State& state(Vertex v) { return states_[v]; }
  Key keyOf(Vertex v);
  /// Puts v into the queue (or takes it out) after its g or rhs changed.
  void update(Vertex v);
  /// A path to v through u costing `through`: v's rhs and parent if shorter.
  void relax(Vertex u, Vertex v, double through);
  /// rhs(v) = min over v's edges (w, v) of g(w) + length, and its parent.
  void chooseParent(Vertex v);
  /// v's parent lost its cost (raised, or the edge between them removed):
  /// v is made stale instead of scanning its edges.
  void parentLost(Vertex v);
  void computeShortestPath();

  const RoadmapGraph& graph_;
  Vertex start_, goal_;
  std::function<double(Vertex)> heuristic_;
  std::vector<State> states_;
  Queue queue_;
  std::uint64_t expansions_ = 0;
};

}  // namespace prmkit
