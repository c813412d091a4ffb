#include "planner/lazy_prm.h"

#include "base/wall_timer.h"
#include "roadmap/component_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace prmkit {

LazyPrm::LazyPrm(const PlannerSettings& settings, const PlannerCapabilities& capabilities, Connection connection,
                 PlannerFactory makeRival)
    : Planner(settings, capabilities, connection),
      own_(settings.section<LazyPrmSettings>()),
      makeRival_(std::move(makeRival)) {
  validateFields(own_, fmt::format("planner.{}", LazyPrmSettings::kSection));
}

std::optional<PlannerRace> LazyPrm::makeRace(const Checker& checker, const Roadmap& roadmap,
                                             const RoadmapQuery& query) const {
  // A race needs a second thread, and an exact checker: the rival's path
  // is taken as its checker found it (OMPL's planners cannot replan after
  // the verifier rejects an edge).
  if (own_.race == LazyPrmSettings::Race::None || !makeRival_ || resolveThreads(settings_.threads) < 2 ||
      !checker.exact())
    return std::nullopt;
  PlannerSettings rival = settings_;
  for (const auto& choice : LazyPrmSettings::kRaceChoices)
    if (choice.value == own_.race) rival.type = std::string(choice.name);
  rival.threads = 1;
  rival.parameters.clear();  // OMPL's parameters are for the planner the run names
  if (own_.race == LazyPrmSettings::Race::LazyPrm) {
    rival.seed = querySeed() ^ kRivalStream;
    for (RegisteredSettings& section : rival.sections) {
      if (section.name() != LazyPrmSettings::kSection) continue;
      LazyPrmSettings alone = own_;
      alone.race = LazyPrmSettings::Race::None;
      section = RegisteredSettings(std::string(LazyPrmSettings::kSection), alone);
    }
  } else {
    rival.seed = querySeed();
  }
  return std::optional<PlannerRace>(std::in_place, settings_.type, makeRival_(rival), rival.type, own_.race_after,
                                    own_.race_weight, checker, roadmap.config(query.start), roadmap.config(query.goal),
                                    termination());
}

std::uint64_t LazyPrm::raceWorkSoFar(const Checker& checker, const SearchState& state) const {
  return raceWork(checker.stats()) - state.race_work_before - raceWork(state.sampler->callerDrawWork()) +
         raceWork(state.sampler->batchWork());
}

std::optional<std::vector<Vertex>> LazyPrm::adoptRivalPath(Checker& checker, Roadmap& roadmap,
                                                           const RoadmapQuery& query, const std::vector<Config>& path,
                                                           PlanResult& result) const {
  // The rival's ends are the query's, through its own state space (OMPL's
  // SE(3) states hold a quaternion): an end that came back different is a
  // vertex of its own, joined to the query's by an edge checked here.
  const bool startKept = path.front() == roadmap.config(query.start);
  const bool goalKept = path.back() == roadmap.config(query.goal);
  std::vector<Vertex> vertices{query.start};
  for (std::size_t i = startKept ? 1 : 0; i < path.size() - (goalKept ? 1 : 0); ++i)
    vertices.push_back(roadmap.addVertex(path[i]));
  vertices.push_back(query.goal);
  for (std::size_t i = 0; i + 1 < vertices.size(); ++i) {
    const Vertex a = vertices[i], b = vertices[i + 1];
    const bool joinsAnEnd = (i == 0 && !startKept) || (i + 2 == vertices.size() && !goalKept);
    if (!joinsAnEnd) {
      roadmap.addEdge(a, b, EdgeState::Free);  // the rival's checker found it free
      continue;
    }
    const auto state = checkCounted(checker, roadmap.config(a), roadmap.config(b), result);
    if (!state) return std::nullopt;
    roadmap.addEdge(a, b, *state);
  }
  return vertices;
}

std::optional<std::vector<Vertex>> LazyPrm::search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                   PlanResult& result) {
  // The relaxed stages run first, each on threads of its own.
  if (own_.relax > 0.0)
    guide_ = solveRelaxedStages(checker, roadmap.config(query.start), roadmap.config(query.goal), result);
  // Samples are drawn on every thread (BatchSampler); path checks, on this
  // thread's checker, see every verdict before them.
  CheckerPool pool(checker, resolveThreads(settings_.threads), settings_.helpersAfter());
  SearchState state;
  state.query = query;
  state.components = RoadmapComponents(roadmap);
  state.dof = checker.robot().dof();
  const SamplerSettings sampling = samplerSettings(checker.robot());
  const std::size_t firstMixSource = sampler_->firstSource();
  state.enhancement_source = own_.enhance > 0 ? nodeSource(result, "enhancement") : kNoSource;
  state.join_source = own_.join > 0 ? nodeSource(result, "join") : kNoSource;
  state.toggle_source = own_.toggle > 0 ? nodeSource(result, "toggle") : kNoSource;
  if (own_.join > 0) state.join_rng.emplace(querySeed() ^ kJoinStream);
  state.pool = &pool;
  state.sampler.emplace(pool, sampling, result.node_sources, firstMixSource, state.enhancement_source);
  state.shifting = sampling.shifting;
  // The default mix starts uniform (its narrow-passage shares at weight 0).
  state.uniform_nodes = std::all_of(sampling.mix.begin(), sampling.mix.end(), [](const SamplerShare& share) {
    return share.weight <= 0.0 || share.strategy == "uniform";
  });
  if (!guide_.empty()) {
    state.guide = &guide_;
    state.guide_spacing = relaxedGuideSpacing(checker.robot(), settings_.sampler_sigma);
  }
  std::optional<PlannerRace> race = makeRace(checker, roadmap, query);
  state.race = race ? &*race : nullptr;
  state.race_work_before = raceWork(checker.stats());
  auto path = searchGrowing(checker, roadmap, result, state);
  const std::uint64_t work = raceWorkSoFar(checker, state);
  // Runs drawn ahead for a batch that never came are work one thread never does.
  state.sampler->dropDrawnAhead();
  CheckStats workers = pool.workerStats();
  workers += state.sampler->clearanceStats();
  workerCheckStats_ += workers - state.sampler->discardedWork();
  if (own_.relax > 0.0) guide_.clear();  // the next query relaxes anew
  if (!race) return path;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  // A stop asked of this planner (Ctrl-C, Python's cancel) ends the rival too.
  if (stopRequested_.load()) race->cancel();
  PlannerRace::Outcome outcome = race->finish(path.has_value(), work, seconds, result.planner_stats.samples_drawn);
  workerCheckStats_ += outcome.rival_checks;
  result.race = std::move(outcome.parts);
  if (outcome.rival_path) path = adoptRivalPath(checker, roadmap, query, outcome.rival_path->path, result);
  return path;
}

std::optional<std::vector<Vertex>> LazyPrm::searchGrowing(Checker& checker, Roadmap& roadmap, PlanResult& result,
                                                          SearchState& state) {
  state.eager = own_.eager_edges == LazyPrmSettings::EagerEdges::Always;
  state.expansions_before = roadmap.searchExpansions();
  state.checks_before = checker.stats();
  const auto [start, goal] = state.query;
  connectBatch(endsToConnect(), checker, roadmap, result, state);
  if (state.guide) addGuideNodes(checker, roadmap, result, state);
  prepareNextBatch(roadmap, result, state);
  while (true) {
    if (state.race && state.race->beaten(raceWorkSoFar(checker, state))) {
      result.status = PlanStatus::TimeLimit;  // the rival's path, found with less work, is the run's
      return std::nullopt;
    }
    std::optional<std::vector<Vertex>> path;
    if (!state.components.proven() || state.components.connected(start, goal)) {
      ++result.planner_stats.graph_searches;
      const WallTimer timer(result.search_time_s);
      path = roadmap.shortestPath(start, goal);
      if (!path) {
        state.components.rebuild(roadmap, start, goal);
        roadmap.searchFrom(state.components.largerEnd());
      }
    }
    if (!path) {
      if (!growBatch(checker, roadmap, result, state)) return std::nullopt;
      continue;
    }
    if (!checkPathEdges(checker, roadmap, *path, result, state)) {
      if (confirmTentative(*path, roadmap, result)) return path;
      state.components.markUnproven();  // a tentative edge failed and was removed: search again
    } else {
      turnEagerIfLazinessStopsPaying(checker, roadmap, result, state);
    }
    if (outOfTime()) {
      result.status = PlanStatus::TimeLimit;
      return std::nullopt;
    }
  }
}

void LazyPrm::connectBatch(const std::vector<Vertex>& added, Checker& checker, Roadmap& roadmap, PlanResult& result,
                           SearchState& state) const {
  // Every new vertex's neighbours among all vertices, the batch's included:
  // the queries are independent, so they run on every thread, and the edges
  // join in the order of `added` whatever the thread count.
  // The edges' lengths (the robot's metric) are measured there too.
  const std::size_t k = neighbourCount(roadmap.vertexCount(), state.dof);
  const Robot& robot = state.pool->checker(0).robot();
  std::vector<std::vector<std::pair<Vertex, double>>> neighbours(added.size());
  auto find = [&](std::size_t, Checker&, std::size_t i) {
    const Vertex v = added[i];
    for (Vertex n : roadmap.neighbours(v, k, settings_.radius))
      neighbours[i].emplace_back(n, robot.distance(roadmap.config(n), roadmap.config(v)));
  };
  if (roadmap.concurrentNeighbours()) {
    state.pool->run(added.size(), find);
  } else {
    for (std::size_t i = 0; i < added.size(); ++i) find(0, state.pool->checker(0), i);
  }
  for (std::size_t i = 0; i < added.size(); ++i) {
    for (const auto& [n, length] : neighbours[i]) {
      if (boost::edge(n, added[i], roadmap.graph()).second) continue;  // found from both ends
      EdgeState edgeState = EdgeState::Unchecked;
      if (state.eager) {
        const auto accepted = checkEagerly(checker, roadmap.config(n), roadmap.config(added[i]), result);
        if (!accepted) continue;
        edgeState = *accepted;
      } else if (!state.touchesToggleNode(roadmap, n, added[i])) {
        ++state.lazy_edges_added;
      }
      roadmap.addEdge(n, added[i], edgeState, length);
      state.components.join(n, added[i]);
    }
  }
}

std::optional<EdgeState> LazyPrm::checkEagerly(Checker& checker, const Config& a, const Config& b,
                                               PlanResult& result) const {
  ++result.planner_stats.eager_edges;
  return checkCounted(checker, a, b, result);
}

void LazyPrm::turnEagerIfLazinessStopsPaying(Checker& checker, Roadmap& roadmap, PlanResult& result,
                                             SearchState& state) {
  // Lazy evaluation pays when it leaves most edges unchecked; once the
  // edges it removes again, one search repair each, are many and a large
  // share of those it adds, checking edges as they are made is cheaper
  // (Lazy Receding Horizon A*, Mandalika, Salzman & Srinivasa 2018, spans
  // the same range from lazy to eager evaluation). Counts decide, not
  // clocks, so the roadmap does not depend on the machine's load. Only
  // nodes from uniform samples (`uniform`, or the default mix) qualify:
  // gaussian, bridge and obstacle-based samples sit next to obstacles,
  // where proving a free edge exactly costs far more than the static
  // probe that finds a colliding one (thin_wall with obstacle-based
  // samples: 24x slower eager), and the counts cannot tell the two apart.
  // Toggle's nodes lie between obstacles, as bridge's do, so the edges that
  // touch them are not counted (counted, they turned alpha_tube eager and it
  // checked 144 000 edges exactly).
  if (own_.eager_edges != LazyPrmSettings::EagerEdges::Auto || state.eager || !state.uniform_nodes ||
      roadmap.vertexCount() < kEagerMinVertices || state.lazy_edges_removed < kEagerMinRemoved ||
      static_cast<double>(state.lazy_edges_removed) < kEagerRemovedShare * static_cast<double>(state.lazy_edges_added))
    return;
  // And only where the searches' work so far outweighs what checking the
  // edges left unchecked would cost at the checks' mean work so far: where
  // edges are dear (a body among a house's walls: 450 work units an edge,
  // against 27 in the large maze) eager checks of every edge cost more than
  // the repairs they save.
  const CheckStats checks = checker.stats() - state.checks_before;
  if (checks.edges_checked == 0) return;
  const double workPerEdge = static_cast<double>(raceWork(checks)) / static_cast<double>(checks.edges_checked);
  const double unchecked = static_cast<double>(state.lazy_edges_added) - static_cast<double>(checks.edges_checked);
  const auto expansions = static_cast<double>(roadmap.searchExpansions() - state.expansions_before);
  if (kEagerWorkPerExpansion * expansions < workPerEdge * unchecked) return;
  state.eager = true;
  checkUncheckedEdges(checker, roadmap, result, state);
}

void LazyPrm::checkUncheckedEdges(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state) {
  const auto [checked, removed] = Planner::checkUncheckedEdges(checker, roadmap, result);
  result.planner_stats.eager_edges += checked;
  if (removed) state.components.markUnproven();
}

bool LazyPrm::checkPathEdges(Checker& checker, Roadmap& roadmap, const std::vector<Vertex>& path, PlanResult& result,
                             SearchState& state) {
  // The runs of consecutive unchecked edges are checked each as one path, so
  // a strategy with a multi-segment queue sees the whole run at once. A
  // check stops at its first collision and leaves the run's later edges
  // unchecked; whole_path goes over the path again until none is left.
  const bool stopAtCollision = own_.path_check == LazyPrmSettings::PathCheck::FirstCollision;
  bool collided = false;
  auto edgeAt = [&](std::size_t j) -> std::optional<Edge> {
    const auto [e, exists] = boost::edge(path[j], path[j + 1], roadmap.graph());
    return exists ? std::optional<Edge>(e) : std::nullopt;
  };
  auto unchecked = [&](std::size_t j) {
    const auto e = edgeAt(j);
    return e && roadmap.graph()[*e].state == EdgeState::Unchecked;
  };
  bool progress = true;
  while (progress && !(collided && stopAtCollision)) {
    progress = false;
    std::size_t i = 0;
    while (i + 1 < path.size() && !(collided && stopAtCollision)) {
      if (!unchecked(i)) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end + 1 < path.size() && unchecked(end)) ++end;
      std::vector<Config> run;
      for (std::size_t j = i; j <= end; ++j) run.push_back(roadmap.config(path[j]));
      result.planner_stats.edges_attempted += end - i;
      ++result.planner_stats.path_checks;
      const PathResult checked = checker.checkPath(run);
      for (std::size_t s = 0; s < checked.segments.size(); ++s) {
        if (!checked.segments[s]) continue;
        progress = true;
        const Edge e = *edgeAt(i + s);
        if (const auto state = acceptEdge(*checked.segments[s], result)) {
          roadmap.graph()[e].state = *state;
          continue;
        }
        ++result.planner_stats.edges_colliding;
        if (!state.touchesToggleNode(roadmap, boost::source(e, roadmap.graph()), boost::target(e, roadmap.graph())))
          ++state.lazy_edges_removed;
        recordCollidingEdge(checker.robot(), run[s], run[s + 1], *checked.segments[s], result);
        const double witness = checked.segments[s]->witness_t;
        if (own_.toggle > 0 && std::isfinite(witness) && state.toggle_witnesses.size() < kMaxToggleWitnesses)
          checker.robot().interpolate(run[s], run[s + 1], std::clamp(witness, 0.0, 1.0),
                                      state.toggle_witnesses.emplace_back());
        const double length = roadmap.graph()[e].length;
        state.enhancement_seeds.emplace_back(boost::source(e, roadmap.graph()), length);
        state.enhancement_seeds.emplace_back(boost::target(e, roadmap.graph()), length);
        roadmap.removeEdge(e);
        state.components.markUnproven();
        collided = true;
      }
      i = end;
    }
  }
  return collided;
}

bool LazyPrm::growBatch(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state) {
  // Start and goal are disconnected. Half of the enhancement grows the
  // smaller of their two components (Kavraki et al. 1996 expand the poorly
  // connected parts of a roadmap): a goal deep in a shelf or a cage has a
  // small component that uniform samples rarely reach.
  if (sampleLimitReached(result)) return false;
  const auto [batch, enhanced] = batchSlots(roadmap.vertexCount());
  if (state.next_streams.size() != batch) throw std::logic_error("lazy_prm: a batch without its streams");
  ++result.planner_stats.batches;
  const std::vector<Vertex>* grow = nullptr;
  double meanLength = 0.0;
  // A batch begins with start and goal apart: the shifting mix's share by
  // the roadmap's size (deterministic: the same on every thread).
  const double narrowShare = narrowPassageShare(roadmap.vertexCount());
  if (state.shifting) state.sampler->shiftTowardsNarrowPassages(narrowShare);
  const bool join = own_.join > 0 && narrowShare > 0;
  std::vector<Vertex> startComponent, goalComponent;
  if (enhanced > 0 || join) {
    // The last search found no path: the search root's component, and the
    // other end's when smaller, are exact (RoadmapComponents::rebuild); the
    // other end's set otherwise holds every vertex outside the root's.
    startComponent = state.components.componentOf(state.query.start);
    goalComponent = state.components.componentOf(state.query.goal);
    if (enhanced > 0) {
      grow = startComponent.size() <= goalComponent.size() ? &startComponent : &goalComponent;
      meanLength = roadmap.edgeCount() > 0 ? roadmap.meanEdgeLength() : 0.05 * checker.robot().maxExtent();
    }
  }
  // The batch's slots are laid out here, on this thread: their streams were
  // drawn from the planner's stream when the last batch ended
  // (prepareNextBatch), and which seed each enhancement slot grows from is
  // drawn now. The slots then draw on every thread (BatchSampler), those
  // from the mix perhaps ahead, and their nodes join the roadmap in slot
  // order; then each is joined to its nearest vertices, the batch's
  // included: the roadmap does not depend on the thread count.
  std::vector<BatchSampler::Request> requests(batch);
  for (std::size_t s = 0; s < batch; ++s) {
    BatchSampler::Request& request = requests[s];
    request.stream = state.next_streams[s];
    if (s >= enhanced) continue;
    if (s % 2 == 0 && !state.enhancement_seeds.empty()) {
      const auto& [seed, length] = state.enhancement_seeds[static_cast<std::size_t>(
          rng_.uniformInt(0, static_cast<int>(state.enhancement_seeds.size()) - 1))];
      request.center = &roadmap.config(seed);
      request.sigma = 0.5 * length;
    } else if (state.guide && s % 4 == 1) {
      // Iterative relaxation's guide: where it collides for this robot, the
      // passage this robot needs lies close by.
      request.center =
          &(*state.guide)[static_cast<std::size_t>(rng_.uniformInt(0, static_cast<int>(state.guide->size()) - 1))];
      request.sigma = state.guide_spacing;
    } else {
      const Vertex seed = (*grow)[static_cast<std::size_t>(rng_.uniformInt(0, static_cast<int>(grow->size()) - 1))];
      request.center = &roadmap.config(seed);
      request.sigma = meanLength;
    }
  }
  const std::uint64_t drawnBefore = result.planner_stats.samples_drawn;
  const auto drawn = state.sampler->draw(requests, settings_.max_samples - drawnBefore,
                                         result.planner_stats.samples_drawn, [this] { return outOfTime(); });
  if (!drawn) {
    result.status = PlanStatus::TimeLimit;
    return false;
  }
  const std::uint64_t batchDrawn = result.planner_stats.samples_drawn - drawnBefore;
  // The join's samples come after the batch's, from the budget the batch left.
  if (join && !state.components.connected(state.query.start, state.query.goal))
    joinEnds(checker, roadmap, result, state, startComponent, goalComponent);
  std::vector<Vertex> added;
  for (std::size_t s = 0; s < batch; ++s) {
    if (!(*drawn)[s].q) {
      ++result.planner_stats.slots_exhausted;
      continue;
    }
    result.planner_stats.enhancement_nodes += s < enhanced;
    added.push_back(roadmap.addVertex(*(*drawn)[s].q, (*drawn)[s].source));
    state.components.addVertex();
  }
  if (own_.toggle > 0 && narrowShare > 0 && !state.components.connected(state.query.start, state.query.goal))
    toggleWitnesses(checker, roadmap, result, state, added);
  turnEagerIfLazinessStopsPaying(checker, roadmap, result, state);
  connectBatch(added, checker, roadmap, result, state);
  result.planner_stats.samples_invalid += batchDrawn - added.size();
  prepareNextBatch(roadmap, result, state);
  return true;
}

std::pair<std::size_t, std::size_t> LazyPrm::batchSlots(std::size_t vertices) const {
  // Every batch ends with sweeps over the whole roadmap (the failed search,
  // the components, the enhancement's seeds), so batches grow with the
  // roadmap: O(V log V) bookkeeping in all instead of O(V^2 / batch).
  const std::size_t batch =
      std::max(own_.batch, static_cast<std::size_t>(own_.batch_fraction * static_cast<double>(vertices)));
  return {batch, static_cast<std::size_t>(std::lround(own_.enhance * static_cast<double>(batch)))};
}

void LazyPrm::prepareNextBatch(const Roadmap& roadmap, const PlanResult& result, SearchState& state) {
  const auto [batch, enhanced] = batchSlots(roadmap.vertexCount());
  state.next_streams.resize(batch);
  for (std::uint32_t& stream : state.next_streams)
    stream = static_cast<std::uint32_t>(rng_.uniformInt(0, std::numeric_limits<int>::max()));
  if (result.planner_stats.samples_drawn >= settings_.max_samples) return;
  if (state.shifting) state.sampler->shiftTowardsNarrowPassages(narrowPassageShare(roadmap.vertexCount()));
  std::vector<BatchSampler::Request> requests(batch);
  for (std::size_t s = 0; s < batch; ++s) requests[s].stream = state.next_streams[s];
  state.sampler->drawAhead(requests, enhanced, settings_.max_samples - result.planner_stats.samples_drawn,
                           [this] { return outOfTime(); });
}

void LazyPrm::joinEnds(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state,
                       const std::vector<Vertex>& startComponent, const std::vector<Vertex>& goalComponent) {
  NodeSourceStats& source = result.node_sources[state.join_source];
  const std::uint64_t checksBefore = checker.stats().static_queries;
  ComponentJoinContext context = joinContext(checker, roadmap, *state.join_rng, result, state.join_source);
  // The smaller component grows first: a start deep in a trap or a goal in a
  // shelf has the small one, and its tree must find the way out.
  const bool startFirst = startComponent.size() <= goalComponent.size();
  ComponentJoinResult joined =
      joinComponents(context, startFirst ? startComponent : goalComponent, startFirst ? goalComponent : startComponent,
                     own_.join, own_.join_range * checker.robot().maxExtent(), state.join_source);
  for (std::size_t i = 0; i < joined.added.size(); ++i) state.components.addVertex();
  for (const auto& [a, b] : joined.edges) state.components.join(a, b);
  source.static_checks += checker.stats().static_queries - checksBefore;
  source.nodes += joined.added.size();
  result.planner_stats.join_nodes += joined.added.size();
  result.planner_stats.edges_attempted += joined.edges_attempted;
  result.planner_stats.edges_colliding += joined.edges_colliding;
}

std::vector<PlannerKind> LazyPrm::kinds(PlannerFactory makeRival) {
  PlannerCapabilities capabilities;
  capabilities.threads = true;
  PlannerCapabilities star = capabilities;
  capabilities.compared_by_default = true;
  capabilities.omplapp_names = {"lazyprm"};
  star.omplapp_names = {"lazyprmstar"};
  const RegisteredSettings section(std::string(LazyPrmSettings::kSection), LazyPrmSettings{});
  return {{"lazy_prm", "Lazy PRM (Bohlin & Kavraki 2000): edges checked only on candidate paths", capabilities,
           [makeRival](const PlannerSettings& s, const PlannerCapabilities& c) {
             return std::make_unique<LazyPrm>(s, c, Connection::Nearest, makeRival);
           },
           section},
          {"lazy_prm_star", "lazy_prm with e(1 + 1/d) log n neighbours", star,
           [makeRival](const PlannerSettings& s, const PlannerCapabilities& c) {
             return std::make_unique<LazyPrm>(s, c, Connection::Star, makeRival);
           },
           section}};
}

void LazyPrm::toggleWitnesses(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state,
                              std::vector<Vertex>& added) const {
  // Denny & Amato's toggle: an edge of the obstacle roadmap (two colliding
  // configurations) that is not wholly in collision crosses free space
  // between obstacles; its free configurations are where a narrow passage
  // runs, which uniform samples rarely hit. The segment is probed midpoint
  // first (van der Corput order) down to half the passage width sought,
  // and probing stops at the first free configuration.
  const Robot& robot = checker.robot();
  NodeSourceStats& source = result.node_sources[state.toggle_source];
  const std::uint64_t checksBefore = checker.stats().static_queries;
  const double resolution = 0.5 * settings_.sampler_sigma * robot.maxExtent();
  const std::vector<Config>& witnesses = state.toggle_witnesses;
  if (!state.toggle_nearest)
    state.toggle_nearest =
        std::make_unique<NearestVertices>(robot, [&witnesses](std::size_t v) -> const Config& { return witnesses[v]; });
  // Toggle probes at most as many configurations as the node sources that
  // sample have checked: where a static check costs much against a search
  // (the Panda in a cage: 10 us a check, a few hundred vertices), unbounded
  // probing checked 2.6x the configurations and took 2.2x the time; where
  // toggle's nodes are what solves the run, the batches' checks grow with it.
  std::uint64_t budget = 0;
  for (std::size_t s = 0; s < result.node_sources.size(); ++s)
    if (s != state.toggle_source) budget += result.node_sources[s].static_checks;
  const auto spent = [&] { return source.static_checks + checker.stats().static_queries - checksBefore; };
  std::vector<std::size_t> nearest;
  Config probe;
  std::size_t nodes = 0;
  for (; state.toggle_joined < witnesses.size() && spent() < budget && !outOfTime(); ++state.toggle_joined) {
    const std::size_t w = state.toggle_joined;
    state.toggle_nearest->add(w, witnesses[w]);
    state.toggle_nearest->nearestK(w, own_.toggle + 1, nearest);
    for (const std::size_t other : nearest) {
      if (other == w) continue;
      const double length = robot.distance(witnesses[w], witnesses[other]);
      if (!(length > resolution)) continue;  // no room for free space between them
      bool found = false;
      std::size_t probes = 0;
      for (std::size_t level = 2; !found && probes < kMaxTogglePoints; level *= 2) {
        for (std::size_t odd = 1; odd < level && !found && probes < kMaxTogglePoints; odd += 2, ++probes) {
          robot.interpolate(witnesses[w], witnesses[other], static_cast<double>(odd) / static_cast<double>(level),
                            probe);
          found = checker.isValid(probe);
        }
        if (length / static_cast<double>(level) < resolution) break;
      }
      if (!found) continue;
      added.push_back(roadmap.addVertex(probe, state.toggle_source));
      state.components.addVertex();
      ++nodes;
    }
  }
  source.static_checks += checker.stats().static_queries - checksBefore;
  source.nodes += nodes;
}

double relaxedGuideSpacing(const Robot& robot, double samplerSigma) { return samplerSigma * robot.maxExtent(); }

std::vector<Config> spacedPath(const Robot& robot, const std::vector<Config>& path, double spacing,
                               std::size_t maxConfigs) {
  if (path.size() < 2 || maxConfigs < 2) return path;
  double length = 0.0;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) length += robot.distance(path[i], path[i + 1]);
  // A longer path is spaced wider: at most maxConfigs - 1 steps in all,
  // each segment at least one, so the waypoints' count bounds it too.
  const double budgetSteps = static_cast<double>(maxConfigs - 1) - static_cast<double>(path.size() - 1);
  if (budgetSteps < 1.0) return path;
  spacing = std::max(spacing, length / budgetSteps);
  std::vector<Config> out;
  Config q;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const double d = robot.distance(path[i], path[i + 1]);
    const double steps = spacing > 0.0 && std::isfinite(d / spacing) ? std::max(1.0, std::ceil(d / spacing)) : 1.0;
    const auto n = static_cast<std::size_t>(steps);
    for (std::size_t j = 0; j < n; ++j) {
      robot.interpolate(path[i], path[i + 1], static_cast<double>(j) / static_cast<double>(n), q);
      out.push_back(q);
    }
  }
  out.push_back(path.back());
  return out;
}

std::vector<Config> LazyPrm::solveRelaxedStages(const Checker& checker, const Config& start, const Config& goal,
                                                PlanResult& result) {
  // Bayazit, Xie & Amato 2005: a problem made easier (the robot shrunk)
  // is solved first; its solution, repaired as the constraint is tightened
  // again, leads through the passage the real problem hides. Each stage is
  // a lazy PRM of its own (no race, no relaxation) on a checker of the same
  // strategy for the shrunk robot, with the run's termination and threads.
  const Robot& robot = checker.robot();
  const double spacing = relaxedGuideSpacing(robot, settings_.sampler_sigma);
  std::vector<Config> guide;
  for (std::size_t k = 0; k < own_.relax_stages && !outOfTime(); ++k) {
    const double factor =
        own_.relax + (1.0 - own_.relax) * static_cast<double>(k) / static_cast<double>(own_.relax_stages);
    std::unique_ptr<Checker> stageChecker = checker.forRobot(robot.shrunk(factor));
    PlannerSettings stageSettings = settings_;
    stageSettings.seed = querySeed() ^ (kRelaxStream + static_cast<std::uint32_t>(k));
    stageSettings.max_samples = own_.relax_samples;
    stageSettings.shortcut = false;
    stageSettings.verify_final_path = false;
    for (RegisteredSettings& section : stageSettings.sections) {
      if (section.name() != LazyPrmSettings::kSection) continue;
      LazyPrmSettings alone = own_;
      alone.relax = 0.0;
      alone.race = LazyPrmSettings::Race::None;
      section = RegisteredSettings(std::string(LazyPrmSettings::kSection), alone);
    }
    LazyPrm stage(stageSettings, capabilities_, connection_);
    stage.guide_ = guide;
    stage.stopAlsoWhen([this] { return outOfTime(); });
    const PlanResult solved = stage.solve(*stageChecker, start, goal, nullptr, termination());
    workerCheckStats_ += solved.check_stats;
    // A stage that did not solve leaves the last guide standing.
    if (solved.solved) guide = spacedPath(robot, solved.path, spacing, kMaxGuideConfigs);
    result.relaxation.push_back(RelaxedStage{.factor = factor,
                                             .solved = solved.solved,
                                             .samples_drawn = solved.planner_stats.samples_drawn,
                                             .guide_configs = solved.solved ? guide.size() : 0,
                                             .static_checks = solved.check_stats.static_queries,
                                             .time_s = solved.time_s});
  }
  return guide;
}

void LazyPrm::addGuideNodes(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state) {
  const std::size_t source = nodeSource(result, "relaxed");
  const std::uint64_t checksBefore = checker.stats().static_queries;
  std::vector<Vertex> added;
  for (const Config& q : *state.guide) {
    if (outOfTime()) break;
    if (!checker.isValid(q)) continue;
    added.push_back(roadmap.addVertex(q, source));
    state.components.addVertex();
  }
  result.node_sources[source].static_checks += checker.stats().static_queries - checksBefore;
  result.node_sources[source].nodes += added.size();
  connectBatch(added, checker, roadmap, result, state);
}

}  // namespace prmkit
