#include "planner/prm.h"

#include "base/wall_timer.h"
#include "parallel/edge_check_pool.h"
#include "roadmap/local_planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>

namespace prmkit {

Prm::Prm(const PlannerSettings& settings, const PlannerCapabilities& capabilities, Connection connection)
    : Planner(settings, capabilities, connection), own_(settings.section<PrmSettings>()) {
  validateFields(own_, fmt::format("planner.{}", PrmSettings::kSection));
}

namespace {
/// Vertices compared when one is chosen for expansion: the most poorly
/// connected of a few random ones, which costs O(1) where Kavraki et al.'s
/// weighted draw over all vertices costs O(n) per expansion.
constexpr int kExpansionCandidates = 8;

/// New vertices connected in one round: at least 1, about one per 32 vertices
/// of the roadmap, at most 32. A round's edges are checked together, so that
/// threads share a few hundred edges rather than one vertex's k; the rule
/// depends on the roadmap alone, never on the thread count. Once a round
/// joins start and goal, its later vertices are still connected, so a small
/// roadmap keeps small rounds.
std::size_t roundVertices(std::size_t roadmapVertices) { return std::clamp<std::size_t>(roadmapVertices / 32, 1, 32); }
}  // namespace

/// One search's working state: the roadmap's components, the connection
/// counts per vertex, the pool that checks a round's edges, and the steps.
struct Prm::Search {
  Prm& planner;
  Checker& checker;
  Roadmap& roadmap;
  PlanResult& result;
  RoadmapComponents components{2};
  // Connection attempts and failures per vertex: Kavraki et al. (1996,
  // section 2.3) expand the vertices with the highest failure ratio f / (n + 1).
  std::vector<std::uint32_t> attempts{0, 0}, failures{0, 0};
  // A round's edges are checked together, on every thread when there are
  // several, as one round of the checker's (Checker::startRounds), and added
  // in order, so the roadmap does not depend on the thread count.
  // skip_same_component decides edge by edge on components the previous
  // edges just changed, so it stays on one thread, without a pool.
  std::optional<EdgeCheckPool> pool;
  std::vector<std::pair<Vertex, Vertex>> queued;  // (new vertex, neighbour), in the order found
  std::vector<std::pair<const Config*, const Config*>> candidates;
  std::size_t expansionSource;
  // The next round's samples, drawn while a round's edges are checked (the
  // caller's share of the pool's work, on its own checker): the sampler's
  // stream is its own, so the samples and their order are those drawn
  // after the check; only a round that never comes (start and goal joined)
  // leaves drawn samples unused, on every thread count alike.
  std::deque<Planner::Sample> drawn;
  bool samplesLeft = true;

  Search(Prm& planner, Checker& checker, Roadmap& roadmap, PlanResult& result)
      : planner(planner),
        checker(checker),
        roadmap(roadmap),
        result(result),
        attempts(roadmap.vertexCount(), 0),
        failures(roadmap.vertexCount(), 0),
        expansionSource(planner.own_.expand > 0 ? nodeSource(result, "expansion") : kNoSource) {
    if (!planner.own_.skip_same_component)
      pool.emplace(checker, resolveThreads(planner.settings_.threads), planner.settings_.helpersAfter());
  }
  ~Search() {
    if (pool) planner.workerCheckStats_ += pool->workerStats();
    // A source's nodes are the vertices it added: samples drawn ahead for a
    // round that never came count as draws and checks only.
    for (const Planner::Sample& sample : drawn)
      if (sample.source < result.node_sources.size()) --result.node_sources[sample.source].nodes;
  }

  Vertex addVertex(const Config& q, std::size_t source) {
    const Vertex v = roadmap.addVertex(q, source);
    components.addVertex();
    attempts.push_back(0);
    failures.push_back(0);
    return v;
  }

  void addChecked(Vertex v, Vertex n, const EdgeResult& edge) {
    ++result.planner_stats.edges_attempted;
    ++attempts[v];
    ++attempts[n];
    if (const auto state = planner.acceptEdge(edge, result)) {
      roadmap.addEdge(n, v, *state);
      components.join(n, v);
    } else {
      ++result.planner_stats.edges_colliding;
      recordCollidingEdge(checker.robot(), roadmap.config(n), roadmap.config(v), edge, result);
      ++failures[v];
      ++failures[n];
    }
  }

  /// Queues the edges from v (just added) to its neighbours, for the round's check.
  void queueEdges(Vertex v) { queueRound({v}); }

  /// Edges of a roadmap this planner did not build (read from a file whose
  /// verdicts were not taken) are checked before anything else: every edge
  /// of a PRM roadmap has its verdict, and colliding ones are not kept.
  void checkUncheckedEdges() {
    planner.checkUncheckedEdges(checker, roadmap, result);
    components = RoadmapComponents(roadmap);
  }

  /// Queues the edges from each of a round's new vertices (consecutive, in
  /// order) to its neighbours among the vertices before it, as if each had
  /// been connected when it was added: k for the roadmap of that size. The
  /// structure already holds the round's later vertices: a search asks for
  /// two more than k and drops them, and only when that leaves fewer than k
  /// asks again for as many more as there are later vertices. The searches
  /// are independent, so they run on every thread where the structure allows.
  void queueRound(const std::vector<Vertex>& round) {
    const std::size_t dof = checker.robot().dof();
    const double radius = planner.settings_.radius;
    std::vector<std::vector<Vertex>> found(round.size());
    auto find = [&](std::size_t, Checker&, std::size_t i) {
      const Vertex v = round[i];
      const std::size_t later = round.size() - 1 - i;
      const std::size_t k = planner.neighbourCount(v + 1, dof);
      auto before = [&](std::size_t asked) {
        found[i] = roadmap.neighbours(v, asked, radius);
        const bool complete = radius > 0 || found[i].size() < asked;  // every vertex within reach was returned
        std::erase_if(found[i], [v](Vertex n) { return n > v; });
        return complete || found[i].size() >= k;
      };
      if (!before(k + std::min<std::size_t>(later, 2))) before(k + later);
      if (radius <= 0 && found[i].size() > k) found[i].resize(k);
    };
    if (pool && roadmap.concurrentNeighbours() && round.size() > 1) {
      pool->run(round.size(), find);
    } else {
      for (std::size_t i = 0; i < round.size(); ++i) find(0, checker, i);
    }
    for (std::size_t i = 0; i < round.size(); ++i)
      for (const Vertex n : found[i]) queued.emplace_back(round[i], n);
  }

  /// The next valid sample: drawn ahead, or now.
  std::optional<Planner::Sample> nextSample() {
    if (drawn.empty()) drawAhead(1);
    if (drawn.empty()) return std::nullopt;
    Planner::Sample sample = std::move(drawn.front());
    drawn.pop_front();
    return sample;
  }
  /// Draws until `count` samples wait, or none is left.
  void drawAhead(std::size_t count) {
    while (samplesLeft && drawn.size() < count) {
      if (auto sample = planner.sampleValid(result)) {
        drawn.push_back(std::move(*sample));
      } else {
        samplesLeft = false;
      }
    }
  }

  /// Checks the queued edges and adds them in the order they were queued.
  void checkQueued() {
    if (queued.empty()) return;  // nothing to check, nothing to draw ahead for (a query whose ends are vertices)
    if (!pool) {
      for (const auto& [v, n] : queued)
        if (!components.connected(n, v)) addChecked(v, n, checker.checkEdge(roadmap.config(n), roadmap.config(v)));
    } else {
      // Pointers taken now: adding vertices may move the roadmap's configurations.
      candidates.clear();
      for (const auto& [v, n] : queued) candidates.emplace_back(&roadmap.config(n), &roadmap.config(v));
      // The next round's size is known now: the vertices are in, only edges are coming.
      const std::size_t nextRound = roundVertices(roadmap.vertexCount());
      const std::vector<EdgeResult> verdicts = pool->check(candidates, [&] { drawAhead(nextRound); });
      for (std::size_t i = 0; i < verdicts.size(); ++i) addChecked(queued[i].first, queued[i].second, verdicts[i]);
    }
    queued.clear();
  }

  double failureRatio(Vertex v) const { return failures[v] / (attempts[v] + 1.0); }

  /// The most poorly connected of a few random vertices.
  Vertex expansionStart() {
    auto randomVertex = [&] {
      return static_cast<Vertex>(planner.rng_.uniformInt(0, static_cast<int>(roadmap.vertexCount()) - 1));
    };
    Vertex from = randomVertex();
    for (int c = 1; c < kExpansionCandidates; ++c) {
      const Vertex candidate = randomVertex();
      if (failureRatio(candidate) > failureRatio(from)) from = candidate;
    }
    return from;
  }

  /// Random-bounce walk (Kavraki et al. 1996, section 2.3): from a poorly
  /// connected vertex, move straight in random directions, each time until the
  /// robot would collide; every stop becomes a vertex joined to the previous
  /// one by the edge just checked, and the last is connected as a new sample.
  void expand() {
    NodeSourceStats& stats = result.node_sources[expansionSource];
    const std::uint64_t checksBefore = checker.stats().static_queries;
    Vertex from = expansionStart();
    const Robot& robot = checker.robot();
    const double step = planner.own_.expand_step * robot.maxExtent();
    const auto accepted = [this](const EdgeResult& edge) { return planner.usable(edge); };
    std::optional<Vertex> last;
    Config direction, target;
    for (std::size_t bounce = 0; bounce < planner.own_.expand_bounces; ++bounce) {
      if (planner.sampleLimitReached(result)) break;
      robot.sampleUniform(planner.rng_, direction);
      ++result.planner_stats.samples_drawn;
      ++stats.samples_drawn;
      const Config& at = roadmap.config(from);
      const double d = robot.distance(at, direction);
      if (d <= 0) continue;
      robot.interpolate(at, direction, std::min(1.0, step / d), target);
      ++result.planner_stats.edges_attempted;
      ValidPrefix reached{1.0, target, EdgeResult{}};
      double invalidFrom = 0.0;  // 0: the whole move is valid
      if (!checker.isValid(target)) {
        invalidFrom = 1.0;
        Planner::recordCollidingEdge(robot, at, target, EdgeResult{Verdict::Colliding, 100.0, 1.0}, result);
      } else if (reached.verdict = checker.checkEdge(at, target); !accepted(reached.verdict)) {
        invalidFrom = std::isnan(reached.verdict.witness_t) ? 1.0 : reached.verdict.witness_t;
        Planner::recordCollidingEdge(robot, at, target, reached.verdict, result);
      }
      if (invalidFrom > 0) {
        ++result.planner_stats.edges_colliding;
        reached = validPrefix(checker, at, target, invalidFrom, accepted);
        if (reached.t <= 0) continue;  // blocked at once: bounce in another direction
      }
      const Vertex v = addVertex(reached.end, expansionSource);
      roadmap.addEdge(from, v, *planner.acceptEdge(reached.verdict, result));
      components.join(from, v);
      ++stats.nodes;
      ++result.planner_stats.expansion_nodes;
      from = v;
      last = v;
    }
    stats.static_checks += checker.stats().static_queries - checksBefore;
    if (last) {
      queueEdges(*last);
      checkQueued();
    }
  }
};

std::optional<std::vector<Vertex>> Prm::search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                               PlanResult& result) {
  Search search(*this, checker, roadmap, result);
  search.checkUncheckedEdges();
  const auto [start, goal] = query;
  search.queueRound(endsToConnect());  // on a new roadmap the goal alone, which may see the start directly
  search.checkQueued();
  // Components only grow; after a tentative edge fails verification they may
  // claim a connection that is gone, so then every round tries a search.
  bool edgeRemoved = false;
  while (true) {
    if (search.components.connected(start, goal)) {
      ++result.planner_stats.graph_searches;
      std::optional<std::vector<Vertex>> path;
      {
        const WallTimer timer(result.search_time_s);
        path = roadmap.shortestPath(start, goal);
      }
      if (path) {
        if (confirmTentative(*path, roadmap, result)) return path;
        edgeRemoved = true;
        continue;
      }
      if (!edgeRemoved) return std::nullopt;  // cannot happen without removals
    }
    if (!search.samplesLeft && search.drawn.empty()) return std::nullopt;
    // A round: new vertices until the round is full or an expansion is drawn.
    bool expandNext = false;
    const std::size_t round = roundVertices(roadmap.vertexCount());
    std::vector<Vertex> added;
    while (added.size() < round) {
      if (search.expansionSource != kNoSource && rng_.uniform01() < own_.expand) {
        expandNext = true;
        break;
      }
      const auto sample = search.nextSample();
      if (!sample) break;
      added.push_back(search.addVertex(sample->q, sample->source));
    }
    search.queueRound(added);
    search.checkQueued();
    if (expandNext) {
      if (sampleLimitReached(result)) {
        search.samplesLeft = false;
        continue;
      }
      search.expand();
    }
  }
}

std::vector<PlannerKind> Prm::kinds() {
  PlannerCapabilities capabilities;
  capabilities.threads = true;
  PlannerCapabilities star = capabilities;
  capabilities.compared_by_default = true;
  capabilities.omplapp_names = {"prm"};
  star.omplapp_names = {"prmstar"};
  const RegisteredSettings section(std::string(PrmSettings::kSection), PrmSettings{});
  return {{"prm", "PRM (Kavraki et al. 1996): every edge checked as it is added", capabilities,
           [](const PlannerSettings& s, const PlannerCapabilities& c) {
             return std::make_unique<Prm>(s, c, Connection::Nearest);
           },
           section},
          {"prm_star", "PRM* (Karaman & Frazzoli 2011): prm with e(1 + 1/d) log n neighbours", star,
           [](const PlannerSettings& s, const PlannerCapabilities& c) {
             return std::make_unique<Prm>(s, c, Connection::Star);
           },
           section}};
}

}  // namespace prmkit
