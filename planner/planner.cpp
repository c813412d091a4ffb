#include "planner/planner.h"

#include "roadmap/local_planner.h"

#include <ostream>

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numbers>
#include <stdexcept>

namespace prmkit {

std::string_view toString(PlanStatus status) {
  switch (status) {
    case PlanStatus::Solved:
      return "solved";
    case PlanStatus::TimeLimit:
      return "time limit";
    case PlanStatus::SampleLimit:
      return "sample limit";
    case PlanStatus::InvalidStart:
      return "invalid start";
    case PlanStatus::InvalidGoal:
      return "invalid goal";
    case PlanStatus::Failed:
      return "failed";
    case PlanStatus::Cancelled:
      return "cancelled";
  }
  return "failed";
}

std::ostream& operator<<(std::ostream& out, PlanStatus status) { return out << toString(status); }

Planner::Planner(PlannerSettings settings, PlannerCapabilities capabilities, Connection connection)
    : settings_(std::move(settings)),
      capabilities_(std::move(capabilities)),
      connection_(connection),
      rng_(settings_.seed) {
  validateFields(settings_, "planner");
  if (!(settings_.time_limit_s > 0)) throw std::invalid_argument("planner time limit must be positive");
  if (settings_.max_samples == 0) throw std::invalid_argument("planner max_samples must be positive");
  parseSamplerMix(settings_.sampler);  // throws on a bad mix before any planning
}

bool Planner::usable(const EdgeResult& edge) const { return usableEdge(edge, settings_.min_confidence); }

std::optional<EdgeState> Planner::acceptEdge(const EdgeResult& edge, PlanResult& result) const {
  if (!usable(edge)) return std::nullopt;
  if (edge.verdict == Verdict::Free) return EdgeState::Free;
  ++result.planner_stats.tentative_edges;
  return EdgeState::Tentative;
}

void Planner::recordCollidingEdge(const Robot& robot, const Config& a, const Config& b, const EdgeResult& edge,
                                  PlanResult& result) {
  if (edge.verdict != Verdict::Colliding || result.colliding_edges.size() >= kPictureCollidingEdges) return;
  PlanResult::CollidingEdge colliding{a, b, {}};
  if (std::isfinite(edge.witness_t)) robot.interpolate(a, b, std::clamp(edge.witness_t, 0.0, 1.0), colliding.witness);
  result.colliding_edges.push_back(std::move(colliding));
}

std::optional<EdgeState> Planner::checkCounted(Checker& checker, const Config& a, const Config& b,
                                               PlanResult& result) const {
  ++result.planner_stats.edges_attempted;
  const EdgeResult edge = checker.checkEdge(a, b);
  const auto accepted = acceptEdge(edge, result);
  if (!accepted) {
    ++result.planner_stats.edges_colliding;
    recordCollidingEdge(checker.robot(), a, b, edge, result);
  }
  return accepted;
}

std::pair<std::size_t, bool> Planner::checkUncheckedEdges(Checker& checker, Roadmap& roadmap,
                                                          PlanResult& result) const {
  std::vector<Edge> unchecked;
  for (const Edge e : boost::make_iterator_range(boost::edges(roadmap.graph())))
    if (roadmap.graph()[e].state == EdgeState::Unchecked) unchecked.push_back(e);
  bool removed = false;
  for (const Edge e : unchecked) {
    const Vertex a = boost::source(e, roadmap.graph()), b = boost::target(e, roadmap.graph());
    if (const auto accepted = checkCounted(checker, roadmap.config(a), roadmap.config(b), result)) {
      roadmap.graph()[e].state = *accepted;
      continue;
    }
    roadmap.removeEdge(e);
    removed = true;
  }
  return {unchecked.size(), removed};
}

ComponentJoinContext Planner::joinContext(Checker& checker, Roadmap& roadmap, Random& rng, PlanResult& result,
                                          std::size_t source) {
  return ComponentJoinContext{.checker = checker,
                              .roadmap = roadmap,
                              .rng = rng,
                              .usable = [this](const EdgeResult& edge) { return usable(edge); },
                              .accept = [this, &result](const EdgeResult& edge) { return *acceptEdge(edge, result); },
                              // The sample limit alone: the join asks outOfTime itself, every
                              // few draws (a clock read at every draw weighed on microsecond runs).
                              .drawSample =
                                  [this, &result, source] {
                                    if (result.planner_stats.samples_drawn >= settings_.max_samples) {
                                      result.status = PlanStatus::SampleLimit;
                                      return false;
                                    }
                                    ++result.planner_stats.samples_drawn;
                                    ++result.node_sources.at(source).samples_drawn;
                                    return true;
                                  },
                              .outOfTime = [this] { return outOfTime(); },
                              .collided =
                                  [&checker, &result](const Config& a, const Config& b, const EdgeResult& edge) {
                                    recordCollidingEdge(checker.robot(), a, b, edge, result);
                                  }};
}

bool Planner::confirmTentative(const std::vector<Vertex>& path, Roadmap& roadmap, PlanResult& result) {
  if (!verifyFinalPath_) return true;
  if (!verifier_) throw std::logic_error("verifying final paths needs an exact verifier");
  // A checker whose static verdicts are approximate has its path's vertices
  // checked too; one that collides leaves the roadmap's graph (its edges go).
  // A verifier whose free edges prove their ends free checks them only where
  // an edge fails (the edge then fails for its end, which must go).
  const bool verticesByEdges = verifier_->freeEdgesCoverEnds();
  const auto vertexFree = [&](Vertex v) {
    if (verifiedVertices_.count(v)) return true;
    if (!verifier_->isValid(roadmap.config(v))) return false;
    verifiedVertices_.insert(v);
    return true;
  };
  const auto dropVertex = [&](Vertex v) {
    ++result.planner_stats.verification_failures;
    roadmap.excludeVertex(v);
  };
  if (verifyVertices_ && !verticesByEdges)
    for (std::size_t i = 1; i + 1 < path.size(); ++i)
      if (!vertexFree(path[i])) {
        dropVertex(path[i]);
        return false;
      }
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const auto [edge, exists] = boost::edge(path[i], path[i + 1], roadmap.graph());
    if (!exists || roadmap.graph()[edge].state == EdgeState::Verified) continue;
    if (verifier_->checkEdge(roadmap.config(path[i]), roadmap.config(path[i + 1])).verdict == Verdict::Free) {
      roadmap.graph()[edge].state = EdgeState::Verified;
      continue;
    }
    if (verifyVertices_ && verticesByEdges) {
      // The query's own ends were checked by the planning checker alone: one
      // the verifier finds colliding ends the run (no path can stand).
      for (const std::size_t end : {i, i + 1}) {
        if (vertexFree(path[end])) continue;
        if (end == 0 || end + 1 == path.size()) {
          invalidQueryEndStatus_ = end == 0 ? PlanStatus::InvalidStart : PlanStatus::InvalidGoal;
          invalidQueryEnd_.store(true, std::memory_order_relaxed);
          break;
        }
        dropVertex(path[end]);
        return false;
      }
    }
    // (An edge from a colliding query end goes too, so that a search that
    // goes on until it stops does not find it again.)
    ++result.planner_stats.verification_failures;
    roadmap.removeEdge(edge);
    return false;
  }
  return true;
}

std::optional<std::vector<Vertex>> Planner::shortestConfirmedPath(Checker& checker, Roadmap& roadmap,
                                                                  const RoadmapQuery& query, PlanResult& result) {
  bool shortcut = verifyFinalPath_;
  for (;;) {
    ++result.planner_stats.graph_searches;
    auto path = roadmap.shortestPath(query.start, query.goal);
    if (!path) return std::nullopt;
    if (shortcut) {
      shortcut = false;  // the first path's alone: later ones are made of its shortcuts and edges
      std::size_t added = 0;
      for (std::size_t i = 0; i + 2 < path->size() && !outOfTime();) {
        std::size_t reach = i + 1;
        for (std::size_t ahead = 2;; ahead *= 2) {
          const std::size_t j = std::min(i + ahead, path->size() - 1);
          const Vertex a = (*path)[i], b = (*path)[j];
          if (!boost::edge(a, b, roadmap.graph()).second) {
            const auto accepted = checkCounted(checker, roadmap.config(a), roadmap.config(b), result);
            if (!accepted) break;
            roadmap.addEdge(a, b, *accepted);
            ++added;
          }
          reach = j;
          if (j == path->size() - 1) break;
        }
        i = reach;
      }
      result.planner_stats.shortcuts_applied += added;
      if (added > 0) continue;
    }
    if (confirmTentative(*path, roadmap, result)) return path;
    if (invalidQueryEnd_.load(std::memory_order_relaxed)) return std::nullopt;
  }
}

bool Planner::star() const { return connection_ == Connection::Star; }

bool Planner::outOfTime() const {
  return invalidQueryEnd_.load(std::memory_order_relaxed) || stopRequested_.load(std::memory_order_relaxed) ||
         termination_.expired() || (alsoStop_ && alsoStop_());
}

std::uint64_t raceWork(const CheckStats& stats) {
  return stats.bv_tests + stats.primitive_tests + stats.gjk_iterations + stats.pair_tests + stats.static_queries +
         stats.edges_checked;
}

void Planner::setTimeLimit(double seconds) {
  if (!(seconds > 0) || std::isnan(seconds)) throw std::invalid_argument("planner time limit must be positive");
  settings_.time_limit_s = seconds;
}

std::uint32_t Planner::querySeed() const {
  // The first query draws what a planner that answers one query draws; each
  // later one its own streams (the same samples again would add the same
  // vertices). Knuth's multiplicative hash spreads the query numbers.
  return queries_ == 0 ? settings_.seed : settings_.seed ^ static_cast<std::uint32_t>(queries_ * 2654435761u);
}

void Planner::adoptRoadmap(std::unique_ptr<Roadmap> roadmap, std::vector<std::string> sourceNames) {
  if (!keepsRoadmap())
    throw std::logic_error(fmt::format("planner {} does not plan on a given roadmap", settings_.type));
  roadmap_ = std::move(roadmap);
  sourceNames_ = std::move(sourceNames);
  // A roadmap of earlier work: its queries' seeds must differ from the first.
  queries_ = std::max<std::size_t>(queries_, 1);
}

void Planner::clear() {
  roadmap_.reset();
  sourceNames_.clear();
  queries_ = 0;
}

RoadmapQuery Planner::addQuery(const Config& start, const Config& goal) {
  Roadmap& roadmap = *roadmap_;
  endsToConnect_.clear();
  const bool empty = roadmap.vertexCount() == 0;
  RoadmapQuery query;
  const auto end = [&](const Config& q, bool connect) {
    if (const auto existing = roadmap.findVertex(q)) return *existing;
    const Vertex v = roadmap.addVertex(q);
    if (connect) endsToConnect_.push_back(v);
    return v;
  };
  query.start = end(start, !empty);
  query.goal = end(goal, true);
  return query;
}

std::size_t Planner::neighbourCount(std::size_t n, std::size_t dof) const {
  if (!star()) return settings_.k;
  // PRM* (Karaman & Frazzoli): k = e (1 + 1/d) log n.
  const double k = std::numbers::e * (1.0 + 1.0 / static_cast<double>(dof)) *
                   std::log(static_cast<double>(std::max<std::size_t>(n, 2)));
  return static_cast<std::size_t>(std::ceil(k));
}

bool Planner::sampleLimitReached(PlanResult& result) const {
  if (result.planner_stats.samples_drawn >= settings_.max_samples) {
    result.status = PlanStatus::SampleLimit;
    return true;
  }
  if (outOfTime()) {
    result.status = PlanStatus::TimeLimit;
    return true;
  }
  return false;
}

std::size_t Planner::nodeSource(PlanResult& result, std::string_view name) {
  for (std::size_t i = 0; i < result.node_sources.size(); ++i)
    if (result.node_sources[i].source == name) return i;
  result.node_sources.push_back(NodeSourceStats{std::string(name)});
  return result.node_sources.size() - 1;
}

double Planner::narrowPassageShare(std::size_t vertices) {
  // A bug trap's inside and outside each take uniform samples in proportion
  // to their volume and stay apart however many they get: past a few
  // hundred vertices, the way between them is a passage uniform samples
  // rarely hit. Problems whose ends join before sample as `uniform` does.
  constexpr std::size_t kUniformVertices = 300, kVerticesPerStep = 100;
  constexpr double kShiftPerStep = 0.25, kMostShifted = 0.75;
  if (vertices < kUniformVertices) return 0.0;
  const auto steps = static_cast<double>((vertices - kUniformVertices) / kVerticesPerStep + 1);
  return std::min(kMostShifted, kShiftPerStep * steps);
}

std::optional<Planner::Sample> Planner::sampleValid(PlanResult& result) {
  // Every sample of a one-by-one planner is drawn while start and goal are
  // apart (it stops once they join), and the share depends on the count
  // drawn alone, never on when a sample was drawn ahead.
  sampler_->shiftTowardsNarrowPassages(narrowPassageShare(samplesTaken_ + 2));
  const std::uint64_t drawnBefore = result.planner_stats.samples_drawn;
  auto sample = sampler_->sample([&] { return sampleLimitReached(result); }, result.planner_stats.samples_drawn);
  result.planner_stats.samples_invalid += result.planner_stats.samples_drawn - drawnBefore - (sample ? 1 : 0);
  if (!sample) return std::nullopt;
  ++samplesTaken_;
  return Sample{std::move(sample->first), sample->second};
}

SamplerSettings Planner::samplerSettings(const Robot& robot) const {
  // The default mix shifts for free-flying bodies only, whose puzzles it was
  // made for (4-10x faster than uniform on the shipped traps and slots). On
  // an arm its gaussian pairs and medial-axis retractions cost more than
  // they find: on MotionBenchMaker's Panda cage (100 requests, lazy_prm +
  // adaptive) the median run took 0.43 s shifted against 0.11 s uniform.
  const bool shifting = isShiftingMix(settings_.sampler) && robot.boundsArePositions();
  return SamplerSettings{parseSamplerMix(settings_.sampler), settings_.sampler_sigma, querySeed(), shifting};
}

void Planner::shortcut(Checker& checker, std::vector<Config>& path, PlanResult& result) {
  for (std::size_t attempt = 0; attempt < settings_.shortcut_attempts && path.size() > 2 && !outOfTime(); ++attempt) {
    const int n = static_cast<int>(path.size());
    const int i = rng_.uniformInt(0, n - 3);
    const int j = rng_.uniformInt(i + 2, n - 1);
    if (checker.checkEdge(path[i], path[j]).verdict != Verdict::Free) continue;
    path.erase(path.begin() + i + 1, path.begin() + j);
    ++result.planner_stats.shortcuts_applied;
  }
}

PlanResult Planner::solve(Checker& checker, const Config& start, const Config& goal, Checker* verifier,
                          std::optional<Termination> termination) {
  started_ = std::chrono::steady_clock::now();
  termination_ = termination ? *termination : Termination::after(settings_.time_limit_s, started_);
  verifier_ = verifier;
  verifyFinalPath_ =
      capabilities_.verifies_final_path && settings_.verify_final_path.value_or(checker.asksFinalPathVerification());
  verifyVertices_ = verifyFinalPath_ && !checker.staticChecksExact();
  verifiedVertices_.clear();
  invalidQueryEnd_.store(false, std::memory_order_relaxed);
  if (!keepsRoadmap()) clear();
  if (roadmap_ && &roadmap_->robot() != &checker.robot())
    throw std::logic_error("a planner's queries must be of the robot its roadmap was built for");
  if (queries_ == 0) rng_ = Random(settings_.seed);  // later queries go on with its stream
  sampler_.reset();
  samplesTaken_ = 0;
  workerCheckStats_ = CheckStats{};
  pictureSeconds_ = 0.0;
  const CheckStats before = checker.stats();
  PlanResult result;
  if (!roadmap_) roadmap_ = std::make_unique<Roadmap>(checker.robot());
  Roadmap& roadmap = *roadmap_;
  result.earlier_queries = queries_;
  result.roadmap_vertices_reused = roadmap.vertexCount();
  // The node sources earlier queries named keep their indices.
  for (const std::string& name : sourceNames_) nodeSource(result, name);
  result.setup_time_s =
      termination ? std::max(0.0, std::chrono::duration<double>(started_ - termination->started()).count()) : 0.0;
  if (outOfTime()) {
    result.status = PlanStatus::TimeLimit;  // used up before planning began
  } else if (!checker.isValid(start)) {
    result.status = PlanStatus::InvalidStart;
  } else if (!checker.isValid(goal)) {
    result.status = PlanStatus::InvalidGoal;
  } else {
    const RoadmapQuery query = addQuery(start, goal);
    if (capabilities_.uses_node_sampler) {
      sampler_ = std::make_unique<NodeSampler>(checker, samplerSettings(checker.robot()), result.node_sources);
    }
    if (auto vertices = search(checker, roadmap, query, result)) {
      result.solved = true;
      result.status = PlanStatus::Solved;
      for (Vertex v : *vertices) {
        result.path.push_back(roadmap.config(v));
        if (const std::size_t source = roadmap.graph()[v].source; source != kNoSource)
          ++result.node_sources.at(source).nodes_on_path;
      }
      result.path_verified = verifyFinalPath_ || (checker.exact() && capabilities_.checks_edges_with_checker);
      if (settings_.shortcut) shortcut(verifyFinalPath_ ? *verifier_ : checker, result.path, result);
      for (std::size_t i = 0; i + 1 < result.path.size(); ++i)
        result.path_length += checker.robot().distance(result.path[i], result.path[i + 1]);
    }
  }
  if (invalidQueryEnd_.load(std::memory_order_relaxed) && !result.solved) result.status = invalidQueryEndStatus_;
  // A stop asked for ends the run where its time limit would; one asked for
  // after the run is not carried over to the next.
  const bool stopped = stopRequested_.exchange(false) || termination_.stopRequested();
  if (stopped && result.status == PlanStatus::TimeLimit) result.status = PlanStatus::Cancelled;
  result.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() - pictureSeconds_;
  result.picture_copy_time_s = pictureSeconds_;
  result.check_stats = checker.stats() - before;
  result.check_stats += workerCheckStats_;
  if (sampler_) result.check_stats += sampler_->clearanceStats();
  sampler_.reset();  // it refers to this call's checker and result
  ++queries_;
  sourceNames_.clear();
  for (const NodeSourceStats& source : result.node_sources) sourceNames_.push_back(source.source);
  result.roadmap_vertices = roadmap.vertexCount();
  result.roadmap_edges = roadmap.edgeCount();
  result.roadmap_memory = roadmap.memoryUse();
  if (roadmap.vertexCount() > kPictureRoadmapVertices) return result;
  const auto& g = roadmap.graph();
  for (std::size_t v = 0; v < roadmap.vertexCount(); ++v) result.roadmap_configs.push_back(g[v].q);
  for (auto [it, end] = boost::edges(g); it != end; ++it)
    result.roadmap_edge_list.emplace_back(boost::source(*it, g), boost::target(*it, g), g[*it].state);
  return result;
}

}  // namespace prmkit
