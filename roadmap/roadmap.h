#pragma once
// The roadmap: a Boost.Graph adjacency list with configurations on vertices
// and cached edge verdicts on edges, NearestVertices for nearest neighbours
// (a k-d tree or OMPL's GNAT, by the robot's metric), and
// Lifelong Planning A* (lifelong_astar.h; Boost's A* as the fallback) for queries.
#include "roadmap/nearest_vertices.h"
#include "robots/robot.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/pending/disjoint_sets.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>

namespace prmkit {

class LifelongAStar;

/// Tentative: the checker answered Unknown with enough confidence (budgeted);
/// such an edge is used, and checked exactly if it ends up on the path.
/// Verified: found free by the exact verifier of final paths.
enum class EdgeState { Unchecked, Free, Colliding, Tentative, Verified };
/// "unchecked", "free", "colliding", "tentative" or "verified", as outputs spell it.
const char* edgeStateName(EdgeState state);

/// A vertex not drawn by a node source (start, goal, OMPL's own samples).
inline constexpr std::size_t kNoSource = static_cast<std::size_t>(-1);

struct RoadmapVertex {
  Config q;
  std::size_t source = kNoSource;  // index in PlanResult::node_sources of what added it
};
struct RoadmapEdge {
  double length = 0.0;  // C-space distance, the A* weight
  EdgeState state = EdgeState::Unchecked;
};

using RoadmapGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, RoadmapVertex, RoadmapEdge>;
using Vertex = RoadmapGraph::vertex_descriptor;
using Edge = RoadmapGraph::edge_descriptor;

/// Bytes the roadmap's own containers hold, from their sizes and
/// capacities (allocator overhead and OMPL's nearest-neighbour tree not
/// included): per vertex its graph slot, its configuration's coordinates and
/// the per-vertex caches; per edge its list node and its two entries in the
/// ends' incidence lists.
struct RoadmapMemory {
  std::size_t vertex_bytes = 0;
  std::size_t edge_bytes = 0;
};

class Roadmap {
 public:
  explicit Roadmap(const Robot& robot);
  ~Roadmap();
  Roadmap(const Roadmap&) = delete;
  Roadmap& operator=(const Roadmap&) = delete;

  Vertex addVertex(const Config& q, std::size_t source = kNoSource);
  /// Adds an edge (or updates the state of an existing one); `length`, when
  /// known, is its C-space length (Robot::distance(config(a), config(b))).
  Edge addEdge(Vertex a, Vertex b, EdgeState state, std::optional<double> length = std::nullopt);
  void removeEdge(Edge e);
  /// Removes the vertex's edges and leaves it out of every later
  /// `neighbours` answer (a vertex an exact check found colliding; it keeps
  /// its index, so that no other vertex is renumbered).
  void excludeVertex(Vertex v);
  bool excluded(Vertex v) const { return excluded_.count(v) > 0; }
  /// The k nearest vertices to `v`, or all within `radius` when radius > 0; `v` itself excluded.
  std::vector<Vertex> neighbours(Vertex v, std::size_t k, double radius) const;
  /// Whether `neighbours` may be called on several threads at once (while nothing is added).
  bool concurrentNeighbours() const { return nearest_.concurrentQueries(); }
  /// Shortest path over the current edges (colliding edges must have been
  /// removed), start first. Repeated queries for the same start and goal
  /// repair the last search (Lifelong Planning A*) instead of starting over.
  /// The search grows from the start, or from the goal after
  /// searchFrom(goal): see there.
  std::optional<std::vector<Vertex>> shortestPath(Vertex start, Vertex goal);
  /// Which end the search grows from (its root). Removing an edge re-costs
  /// the vertices behind it as seen from the root: where start and goal lie
  /// in a small and a large region joined by a passage (a bug trap: the
  /// inside and the world), the removals at the passage are cheap only from
  /// the large region's end. Rooted in the small one, every edge removed at
  /// the passage cut off the large region and its repair re-expanded it (on
  /// the baffled bug trap, twice the searches' time). The next search starts
  /// over from the new root when it changed.
  void searchFrom(Vertex root) { searchRoot_ = root; }
  /// The end the last shortestPath grew from.
  Vertex searchRoot() const { return searchedFrom_; }
  /// After shortestPath found no path: the component of its root, ascending.
  const std::vector<Vertex>& searchedComponent() const { return searchedComponent_; }
  /// Boost's A* from scratch, the reference the incremental search is checked against.
  std::optional<std::vector<Vertex>> shortestPathFromScratch(Vertex start, Vertex goal) const;
  /// Searches whose incremental answer was not a path of the roadmap, or no
  /// path without the root's closed component to show for it, answered from
  /// the swept components and scratch instead (expected 0).
  std::size_t incrementalSearchFallbacks() const { return incrementalFallbacks_; }
  /// Vertices the incremental searches took from their queues, all of them
  /// so far: the searches' work, counted (lazy PRM weighs it against its checks').
  std::uint64_t searchExpansions() const;
  /// Connected component of every vertex (over all present edges), computed
  /// once per change of the graph: a search that finds no path and the
  /// planner that then grows the smaller end's component share one sweep.
  const std::vector<std::size_t>& componentLabels() const;
  /// A*'s heuristic: the C-space distance from `v` to `goal`, computed once
  /// per vertex and goal.
  double goalDistance(Vertex v, Vertex goal) const;

  RoadmapMemory memoryUse() const;

  /// The robot whose configurations the vertices are.
  const Robot& robot() const { return robot_; }
  /// The first vertex whose configuration is exactly `q`, if any (a sweep over the vertices).
  std::optional<Vertex> findVertex(const Config& q) const;
  const RoadmapGraph& graph() const { return graph_; }
  RoadmapGraph& graph() { return graph_; }
  const Config& config(Vertex v) const { return graph_[v].q; }
  std::size_t vertexCount() const { return boost::num_vertices(graph_); }
  std::size_t edgeCount() const { return boost::num_edges(graph_); }
  /// Mean C-space length of the present edges (0 without edges), kept as edges come and go.
  double meanEdgeLength() const { return edgeCount() > 0 ? edgeLengthSum_ / static_cast<double>(edgeCount()) : 0.0; }

 private:
  const Robot& robot_;
  RoadmapGraph graph_;
  /// A*'s heuristic per vertex for the goal of the last search: lazy PRM
  /// searches thousands of times towards the same goal, and the C-space
  /// distance (an acos on SE(3)) was a fifth of its time.
  mutable std::vector<double> goalDistance_;
  mutable Vertex goalOfCache_ = static_cast<Vertex>(-1);
  /// Bumped by every change of vertices or edges; the labels are valid while
  /// labelsVersion_ equals it.
  std::uint64_t version_ = 0;
  std::set<Vertex> excluded_;  // excludeVertex
  double edgeLengthSum_ = 0.0;
  mutable std::uint64_t labelsVersion_ = static_cast<std::uint64_t>(-1);
  mutable std::vector<std::size_t> labels_;
  NearestVertices nearest_;
  std::unique_ptr<LifelongAStar> incremental_;  // the search of the last start and goal
  std::vector<Vertex> searchedComponent_;
  Vertex searchRoot_ = static_cast<Vertex>(-1);  // asked for (searchFrom); else the start
  Vertex searchedFrom_ = static_cast<Vertex>(-1);
  std::size_t incrementalFallbacks_ = 0;
  std::uint64_t retiredExpansions_ = 0;  // of the searches replaced since
};

/// The connected components of a growing roadmap, as the planners keep them
/// while they add vertices and edges: union-find (Boost's disjoint_sets),
/// O(alpha(n)) per join. Its sets may join vertices the roadmap does not
/// connect, never the reverse, so different sets are a proof of no path.
/// Removing an edge may split a component, which union-find cannot undo:
/// whoever removes one marks the sets unproven, and rebuilds them after a
/// search that found no path.
class RoadmapComponents {
 public:
  /// Singletons for vertices 0 .. count - 1.
  explicit RoadmapComponents(std::size_t count = 0);
  /// The components of `roadmap`'s vertices and present edges (proven).
  explicit RoadmapComponents(const Roadmap& roadmap);
  /// A singleton for the next vertex.
  void addVertex();
  void join(Vertex a, Vertex b);
  /// Same set: maybe connected; different sets, when proven(): not connected.
  bool connected(Vertex a, Vertex b);
  /// The vertices in v's set (a sweep over every vertex).
  std::vector<Vertex> componentOf(Vertex v);
  bool proven() const { return proven_; }
  /// After rebuild: start or goal, whichever has the larger component (the
  /// other end's when its component is at least as large as the root's,
  /// the root's when they share one).
  Vertex largerEnd() const { return largerEnd_; }
  void markUnproven() { proven_ = false; }
  /// Proven again, after roadmap.shortestPath(start, goal) found no path:
  /// the component of the search's root (Roadmap::searchedComponent), the
  /// other end's when it is the smaller (a breadth-first search from it
  /// that stops once it is as large as the root's), and every other vertex
  /// in one set. The sweep over the whole roadmap the exact components
  /// would take was a tenth of lazy PRM's time on roadmaps of 10^4-10^5
  /// vertices; growing the smaller end's component needs only these.
  void rebuild(const Roadmap& roadmap, Vertex start, Vertex goal);

 private:
  boost::disjoint_sets<std::size_t*, std::size_t*> sets() { return {rank_.data(), parent_.data()}; }
  std::vector<std::size_t> rank_, parent_;
  bool proven_ = true;
  Vertex largerEnd_ = 0;
};

}  // namespace prmkit
