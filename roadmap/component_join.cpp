#include "roadmap/component_join.h"

#include "checkers/checker.h"

#include <cmath>
#include <limits>

namespace prmkit {

namespace {

/// Steps of one connect phase at most; each moves `range` closer, so only a
/// range far below the C-space's extent reaches this (the time limit is
/// checked between steps as well).
constexpr std::size_t kMaxConnectSteps = 10'000;

/// A tree's candidates: the whole component, or `most` of it at random (0: all).
std::vector<Vertex> candidates(Random& rng, std::vector<Vertex> members, std::size_t most) {
  if (most == 0 || members.size() <= most) return members;
  for (std::size_t i = 0; i < most; ++i) {
    const auto j = static_cast<std::size_t>(rng.uniformInt(static_cast<int>(i), static_cast<int>(members.size()) - 1));
    std::swap(members[i], members[j]);
  }
  members.resize(most);
  return members;
}

}  // namespace

/// One tree: its vertices, their nearest-vertex index and their domains.
struct ComponentJoin::Tree {
  Tree(const Roadmap& roadmap, std::vector<Vertex> vertices)
      : members(std::move(vertices)),
        domains(members.size(), std::numeric_limits<double>::infinity()),
        nearest(roadmap.robot(),
                [this, &roadmap](std::size_t i) -> const Config& { return roadmap.config(members[i]); }) {
    for (std::size_t i = 0; i < members.size(); ++i) nearest.add(i, roadmap.config(members[i]));
  }
  void add(Vertex v, const Config& q) {
    members.push_back(v);
    domains.push_back(std::numeric_limits<double>::infinity());
    nearest.add(members.size() - 1, q);
  }

  std::vector<Vertex> members;
  std::vector<double> domains;  // per member: its dynamic domain's radius (infinite: none)
  NearestVertices nearest;      // indices into members
};

ComponentJoin::ComponentJoin(ComponentJoinContext& context, const std::vector<Vertex>& first,
                             const std::vector<Vertex>& second, const ComponentJoinOptions& options)
    : c_(context), robot_(context.checker.robot()), options_(options) {
  // The candidates are drawn in this order, first's then second's.
  std::vector<Vertex> firstCandidates = candidates(c_.rng, first, options_.max_candidates);
  trees_[0] = std::make_unique<Tree>(c_.roadmap, std::move(firstCandidates));
  trees_[1] = std::make_unique<Tree>(c_.roadmap, candidates(c_.rng, second, options_.max_candidates));
}

ComponentJoin::~ComponentJoin() = default;

ComponentJoinResult ComponentJoin::grow(std::size_t steps) {
  ComponentJoinResult out;
  if (trees_[0]->members.empty() || trees_[1]->members.empty()) return out;
  Config target;
  for (std::size_t i = 0; i < steps && !out.met; ++i) {
    if (outOfTime() || !c_.drawSample()) break;
    robot_.sampleUniform(c_.rng, target);
    Tree& grown = *trees_[next_];
    Tree& other = *trees_[1 - next_];
    // Balanced: a tree at most half the other's size extends again.
    if (!options_.balanced || 2 * grown.members.size() > other.members.size()) next_ = 1 - next_;
    const std::size_t from = grown.nearest.nearestTo(target);
    if (options_.domain_radius > 0 &&
        robot_.distance(c_.roadmap.config(grown.members[from]), target) > grown.domains[from])
      continue;
    const auto [moved, v] = extend(grown, grown.members[from], target, std::nullopt, out);
    if (options_.domain_radius > 0) {
      // The domain's radius (Yershova et al.): set on the first block,
      // shrunk on later ones, grown on a move (a reference taken after
      // extend, which may have grown the tree's vectors).
      double& radius = grown.domains[from];
      if (moved == Move::Trapped)
        radius = std::isinf(radius) ? options_.domain_radius
                                    : std::max(radius * (1.0 - options_.domain_alpha), options_.range);
      else if (!std::isinf(radius))
        radius *= 1.0 + options_.domain_alpha;
    }
    if (moved == Move::Trapped) continue;
    connect(other, v, out);
  }
  return out;
}

std::pair<ComponentJoin::Move, Vertex> ComponentJoin::extend(Tree& tree, Vertex from, const Config& target,
                                                             std::optional<Vertex> targetVertex,
                                                             ComponentJoinResult& out) {
  // RRT-Connect's extend: one move of at most range from vertex `from`
  // towards `target`, taken whole or not at all (Trapped); its end joins
  // `tree`. Reaching `targetVertex` (the target's own vertex) adds the edge
  // to it instead of a copy of it. As Kuffner & LaValle's, a move is not
  // cut short at an obstacle: stopping at the longest valid prefix was
  // tried (docs/results.md) and cost ten checks a move for no more joins.
  // Copies into kept storage (no allocation a move): adding a vertex may
  // move the graph's storage.
  Config& at = from_;
  Config& q = step_;
  at = c_.roadmap.config(from);
  const double d = robot_.distance(at, target);
  if (d <= 0) return {Move::Trapped, from};
  const double t = std::min(1.0, options_.range / d);
  robot_.interpolate(at, target, t, q);
  ++out.edges_attempted;
  const EdgeResult verdict = c_.checker.checkMove(at, q);
  if (!c_.usable(verdict)) {
    ++out.edges_colliding;
    if (c_.collided) c_.collided(at, q, verdict);
    return {Move::Trapped, from};
  }
  const bool reached = t >= 1.0;
  Vertex v = 0;
  if (reached && targetVertex) {
    v = *targetVertex;
  } else {
    v = c_.roadmap.addVertex(q, options_.source);
    out.added.push_back(v);
    tree.add(v, q);
  }
  c_.roadmap.addEdge(from, v, c_.accept(verdict));
  out.edges.emplace_back(from, v);
  return {reached ? Move::Reached : Move::Advanced, v};
}

void ComponentJoin::connect(Tree& tree, Vertex goal, ComponentJoinResult& out) {
  // RRT-Connect's connect: straight moves of range from the tree's vertex
  // nearest to `goal` until it is reached or the way is blocked.
  Config& target = connectTarget_;
  target = c_.roadmap.config(goal);
  Vertex from = tree.members[tree.nearest.nearestTo(target)];
  for (std::size_t s = 0; s < kMaxConnectSteps && !outOfTime(); ++s) {
    const auto [moved, v] = extend(tree, from, target, goal, out);
    if (moved == Move::Reached) out.met = true;
    if (moved != Move::Advanced) return;
    from = v;
  }
}

bool ComponentJoin::outOfTime() {
  if (!timeUp_ && timeCalls_++ % kTimeStride == 0) timeUp_ = c_.outOfTime();
  return timeUp_;
}

ComponentJoinResult joinComponents(ComponentJoinContext& context, const std::vector<Vertex>& first,
                                   const std::vector<Vertex>& second, std::size_t steps, double range,
                                   std::size_t source) {
  return ComponentJoin(context, first, second, ComponentJoinOptions{.range = range, .source = source}).grow(steps);
}

}  // namespace prmkit
