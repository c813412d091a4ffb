#pragma once
// Joining two components of a roadmap through a narrow passage with
// RRT-Connect (Kuffner & LaValle 2000), the two trees being the components
// themselves: samples spread over a roadmap rarely land in a passage, while
// a tree grown from the passage's mouth walks into it one checked step at a
// time. Every step's end becomes a roadmap vertex, joined to the vertex it
// grew from by the edge just checked.
#include "roadmap/roadmap.h"

#include "base/random.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace prmkit {

class Checker;
struct EdgeResult;

/// What one join needs from its planner: its checker, random stream and
/// limits, and what it does with edge verdicts (Planner::usable, acceptEdge).
struct ComponentJoinContext {
  Checker& checker;
  Roadmap& roadmap;
  Random& rng;
  std::function<bool(const EdgeResult&)> usable;
  std::function<EdgeState(const EdgeResult&)> accept;  // called on usable verdicts only
  /// Counts one drawn sample and returns true, or returns false when no
  /// more samples may be drawn.
  std::function<bool()> drawSample;
  std::function<bool()> outOfTime;
  /// Told of each move found colliding (for the picture): its ends and the
  /// verdict; a move whose end is invalid has its witness there (t = 1).
  std::function<void(const Config&, const Config&, const EdgeResult&)> collided = {};
};

/// What a join did. Its counters are those of the planner's stats.
struct ComponentJoinResult {
  std::vector<Vertex> added;                     // new vertices, in order
  std::vector<std::pair<Vertex, Vertex>> edges;  // new checked edges (each already in the roadmap)
  bool met = false;                              // the trees met: a checked path joins the components
  std::uint64_t edges_attempted = 0;             // straight moves checked
  std::uint64_t edges_colliding = 0;             // of those, found colliding (the move is not taken)
};

/// Nearest-vertex candidates a tree keeps of its component: all of a smaller
/// component, a random subset of a larger one (drawn once per join), so a
/// step costs at most this many distances however large the roadmap grows.
inline constexpr std::size_t kJoinCandidates = 2048;

/// How a join grows its trees beyond Kuffner & LaValle's RRT-Connect.
struct ComponentJoinOptions {
  double range = 0.0;              // longest straight move (C-space distance)
  std::size_t source = kNoSource;  // the node source of new vertices
  /// Nearest-vertex candidates a tree keeps of its component (0: all of it).
  std::size_t max_candidates = kJoinCandidates;
  /// The trees take turns, except that a tree at most half the size of the
  /// other extends again (VAMP's balance, Thomason et al. 2024).
  bool balanced = false;
  /// Dynamic-domain sampling (Yershova, Jaillet, Simeon & LaValle 2005): a
  /// vertex whose move towards a sample was blocked takes a domain of
  /// `domain_radius` (C-space distance) that shrinks on each later block, by
  /// `domain_alpha`, to no less than `range`, and grows on each move it
  /// makes; a sample whose nearest vertex lies outside that vertex's domain
  /// is passed over with no check (a sample drawn all the same). 0: off.
  double domain_radius = 0.0;
  double domain_alpha = 1e-4;
};

/// RRT-Connect between the components `first` and `second` (vertex lists,
/// disjoint), kept across calls of grow: each iteration draws a
/// configuration, moves one tree's vertex nearest to it towards it by
/// `range` if that move is free, then connects the other tree towards the
/// new vertex in moves of `range` until it is reached or a move is blocked;
/// the trees take turns, `first` extends first. Each tree's nearest
/// vertices come from its own NearestVertices, so a step costs a k-d tree
/// query however large the trees grow. The roadmap may gain vertices
/// between calls; the trees' members must stay in it.
class ComponentJoin {
 public:
  ComponentJoin(ComponentJoinContext& context, const std::vector<Vertex>& first, const std::vector<Vertex>& second,
                const ComponentJoinOptions& options);
  ~ComponentJoin();
  ComponentJoin(const ComponentJoin&) = delete;
  ComponentJoin& operator=(const ComponentJoin&) = delete;

  /// Up to `steps` more iterations; stops when the trees meet (and at the
  /// context's limits). The result holds this call's work.
  ComponentJoinResult grow(std::size_t steps);

 private:
  struct Tree;
  enum class Move { Trapped, Advanced, Reached };
  std::pair<Move, Vertex> extend(Tree& tree, Vertex from, const Config& target, std::optional<Vertex> targetVertex,
                                 ComponentJoinResult& out);
  void connect(Tree& tree, Vertex goal, ComponentJoinResult& out);
  /// The context's outOfTime, asked every kTimeStride calls (a clock read
  /// costs about as much as a short move's bookkeeping); true from then on.
  bool outOfTime();

  static constexpr std::size_t kTimeStride = 8;

  ComponentJoinContext& c_;
  const Robot& robot_;
  ComponentJoinOptions options_;
  std::unique_ptr<Tree> trees_[2];
  std::size_t next_ = 0;       // the tree that extends next
  std::size_t timeCalls_ = 0;  // outOfTime's calls
  bool timeUp_ = false;
  Config from_, step_, connectTarget_;  // extend's and connect's configurations, kept between moves
};

/// Up to `steps` iterations of a new ComponentJoin with kJoinCandidates
/// candidates a tree, taking turns, no dynamic domain.
ComponentJoinResult joinComponents(ComponentJoinContext& context, const std::vector<Vertex>& first,
                                   const std::vector<Vertex>& second, std::size_t steps, double range,
                                   std::size_t source);

}  // namespace prmkit
