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

/// Up to `steps` RRT-Connect iterations between the components `first` and
/// `second` (vertex lists, disjoint): draw a configuration, move one tree's
/// vertex nearest to it towards it by `range` (C-space distance) if that
/// move is free, then connect the other tree towards the new vertex in moves
/// of `range` until it is reached or a move is blocked; the trees swap roles
/// each iteration, `first` extends first. Stops when they meet. New
/// vertices carry node source `source`.
ComponentJoinResult joinComponents(ComponentJoinContext& context, const std::vector<Vertex>& first,
                                   const std::vector<Vertex>& second, std::size_t steps, double range,
                                   std::size_t source);

}  // namespace prmkit
