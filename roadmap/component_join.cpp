#include "roadmap/component_join.h"

#include "checkers/checker.h"

#include <limits>

namespace prmkit {

namespace {

/// Steps of one connect phase at most; each moves `range` closer, so only a
/// range far below the C-space's extent reaches this (the time limit is
/// checked between steps as well).
constexpr std::size_t kMaxConnectSteps = 10'000;

class Join {
 public:
  Join(ComponentJoinContext& context, double range, std::size_t source)
      : c_(context), robot_(context.checker.robot()), range_(range), source_(source) {}

  ComponentJoinResult run(const std::vector<Vertex>& first, const std::vector<Vertex>& second, std::size_t steps) {
    std::vector<Vertex> trees[2] = {candidates(first), candidates(second)};
    if (trees[0].empty() || trees[1].empty()) return std::move(out_);
    Config target;
    for (std::size_t i = 0; i < steps && !out_.met; ++i) {
      if (c_.outOfTime() || !c_.drawSample()) break;
      robot_.sampleUniform(c_.rng, target);
      std::vector<Vertex>& grown = trees[i % 2];
      std::vector<Vertex>& other = trees[1 - i % 2];
      const auto [moved, v] = extend(grown, nearest(grown, target), target, std::nullopt);
      if (moved == Move::Trapped) continue;
      connect(other, v);
    }
    return std::move(out_);
  }

 private:
  enum class Move { Trapped, Advanced, Reached };

  /// The tree's candidates: the whole component, or kJoinCandidates of it at random.
  std::vector<Vertex> candidates(std::vector<Vertex> members) {
    if (members.size() <= kJoinCandidates) return members;
    for (std::size_t i = 0; i < kJoinCandidates; ++i) {
      const auto j =
          static_cast<std::size_t>(c_.rng.uniformInt(static_cast<int>(i), static_cast<int>(members.size()) - 1));
      std::swap(members[i], members[j]);
    }
    members.resize(kJoinCandidates);
    return members;
  }

  Vertex nearest(const std::vector<Vertex>& tree, const Config& q) const {
    Vertex best = tree.front();
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const Vertex v : tree) {
      const double d = robot_.distance(c_.roadmap.config(v), q);
      if (d < bestDistance) {
        bestDistance = d;
        best = v;
      }
    }
    return best;
  }

  /// RRT-Connect's extend: one move of at most range_ from vertex `from`
  /// towards `target`, taken whole or not at all (Trapped); its end joins
  /// `tree`. Reaching `targetVertex` (the target's own vertex) adds the edge
  /// to it instead of a copy of it. As Kuffner & LaValle's, a move is not
  /// cut short at an obstacle: stopping at the longest valid prefix was
  /// tried (docs/results.md) and cost ten checks a move for no more joins.
  std::pair<Move, Vertex> extend(std::vector<Vertex>& tree, Vertex from, const Config& target,
                                 std::optional<Vertex> targetVertex) {
    const Config at = c_.roadmap.config(from);  // a copy: adding a vertex may move the graph's storage
    const double d = robot_.distance(at, target);
    if (d <= 0) return {Move::Trapped, from};
    const double t = std::min(1.0, range_ / d);
    Config q;
    robot_.interpolate(at, target, t, q);
    ++out_.edges_attempted;
    if (!c_.checker.isValid(q)) {
      ++out_.edges_colliding;
      if (c_.collided) c_.collided(at, q, EdgeResult{Verdict::Colliding, 100.0, 1.0});
      return {Move::Trapped, from};
    }
    const EdgeResult verdict = c_.checker.checkEdge(at, q);
    if (!c_.usable(verdict)) {
      ++out_.edges_colliding;
      if (c_.collided) c_.collided(at, q, verdict);
      return {Move::Trapped, from};
    }
    const bool reached = t >= 1.0;
    Vertex v = 0;
    if (reached && targetVertex) {
      v = *targetVertex;
    } else {
      v = c_.roadmap.addVertex(q, source_);
      out_.added.push_back(v);
      tree.push_back(v);
    }
    c_.roadmap.addEdge(from, v, c_.accept(verdict));
    out_.edges.emplace_back(from, v);
    return {reached ? Move::Reached : Move::Advanced, v};
  }

  /// RRT-Connect's connect: straight moves of range_ from the tree's vertex
  /// nearest to `goal` until it is reached or the way is blocked.
  void connect(std::vector<Vertex>& tree, Vertex goal) {
    const Config target = c_.roadmap.config(goal);
    Vertex from = nearest(tree, target);
    for (std::size_t s = 0; s < kMaxConnectSteps && !c_.outOfTime(); ++s) {
      const auto [moved, v] = extend(tree, from, target, goal);
      if (moved == Move::Reached) out_.met = true;
      if (moved != Move::Advanced) return;
      from = v;
    }
  }

  ComponentJoinContext& c_;
  const Robot& robot_;
  double range_;
  std::size_t source_;
  ComponentJoinResult out_;
};

}  // namespace

ComponentJoinResult joinComponents(ComponentJoinContext& context, const std::vector<Vertex>& first,
                                   const std::vector<Vertex>& second, std::size_t steps, double range,
                                   std::size_t source) {
  return Join(context, range, source).run(first, second, steps);
}

}  // namespace prmkit
