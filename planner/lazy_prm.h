#pragma once
#include "sampling/batch_sampler.h"
#include "planner/planner.h"
#include "planner/planner_race.h"
#include "roadmap/nearest_vertices.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace prmkit {

inline constexpr std::size_t kMaxBatch = 10'000'000;
/// Mixed into the seed for the component join's random stream.
inline constexpr std::uint32_t kJoinStream = 0x9e3779b9u;

/// eager_edges auto: lazily added edges found colliding, at least this many
/// and this share of all the edges added lazily, turn lazy PRM to eager
/// checks ...
inline constexpr std::uint64_t kEagerMinRemoved = 100;
/// ... on a roadmap of at least this many vertices: on smaller ones a repair
/// re-costs a few hundred vertices at most, about what a few edge checks
/// cost, and laziness still pays (chain5: 5 ms lazy, 12 ms turned eager).
inline constexpr std::size_t kEagerMinVertices = 300;
inline constexpr double kEagerRemovedShare = 0.2;
/// ... and where the searches' expansions so far, at this many units of
/// checking work (raceWork) each, outweigh the work of checking the edges
/// still unchecked at the checks' mean: a search expansion (a queue pop and
/// its edges' relaxations) costs about what eight bounding-volume tests do.
/// When the counts first allow it, the large maze has 3.6 to 8.5 times the
/// work in its searches and the house (whose edges cost 17x the maze's)
/// 2.7 times less.
inline constexpr double kEagerWorkPerExpansion = 8.0;
/// Toggle PRM (LazyPrmSettings::toggle): the most neighbours a witness is
/// joined to, the most witnesses kept (later ones are not), and the most
/// configurations checked on one segment between witnesses.
inline constexpr std::size_t kMaxToggleNeighbours = 64;
inline constexpr std::size_t kMaxToggleWitnesses = 20'000;
inline constexpr std::size_t kMaxTogglePoints = 31;
/// Mixed into the seed for a race's rival (a second lazy PRM must not draw the first one's samples).
inline constexpr std::uint32_t kRivalStream = 0x85ebca6bu;
/// Mixed into the seed for iterative relaxation's stages (with the stage's number).
inline constexpr std::uint32_t kRelaxStream = 0xc2b2ae35u;
/// Iterative relaxation: the most stages, and the most configurations of a
/// stage's path that guide the next (a longer path is spaced wider).
inline constexpr std::size_t kMaxRelaxStages = 16;
inline constexpr std::size_t kMaxGuideConfigs = 20'000;

/// The spacing of iterative relaxation's guide: the sampler's sigma (a fraction of the maximum extent).
double relaxedGuideSpacing(const Robot& robot, double samplerSigma);
/// `path` with configurations interpolated between its waypoints at most
/// `spacing` apart (C-space distance), or wider so that there are at most
/// `maxConfigs`; the waypoints are kept.
std::vector<Config> spacedPath(const Robot& robot, const std::vector<Config>& path, double spacing,
                               std::size_t maxConfigs);

/// lazy_prm's own settings (`planner.lazy_prm`).
struct LazyPrmSettings {
  static constexpr std::string_view kSection = "lazy_prm";
  std::size_t batch = 100;  // samples added each time the roadmap grows
  /// A batch is at least this fraction of the roadmap's vertices (the
  /// default leaves roadmaps below 2000 vertices at `batch`).
  double batch_fraction = 0.05;
  /// Fraction of each batch drawn near the ends of edges found in collision
  /// (Bohlin & Kavraki's node enhancement); the rest from the sampler.
  double enhance = 0.5;
  /// After a search, check the path's unchecked edges up to the first
  /// colliding one (first_collision, Bohlin & Kavraki 2000) or all of them
  /// (whole_path: more checks, fewer searches).
  enum class PathCheck { FirstCollision, WholePath };
  PathCheck path_check = PathCheck::FirstCollision;
  /// RRT-Connect iterations between the start's and the goal's components
  /// (planner/component_join.h) in each batch that begins with them apart,
  /// once the roadmap is large enough for the shifting mix to shift
  /// (Planner::narrowPassageShare > 0); 0: none, the default (it sped up
  /// the bug traps and slowed the alpha puzzles: docs/results.md).
  std::size_t join = 0;
  double join_range = 0.05;  // longest move of a join, as a fraction of the maximum extent
  /// Toggle PRM's use of colliding configurations (Denny & Amato 2013): the
  /// witnesses of the edges path checks found colliding make an obstacle
  /// roadmap; each new witness is joined to its `toggle` nearest older ones,
  /// and the first free configuration found on such a segment (between two
  /// colliding ones, so often inside a narrow passage) joins the free
  /// roadmap as a node of source `toggle`. In each batch that begins with
  /// start and goal apart, once the roadmap is large enough for the shifting
  /// mix to shift, as the join, probing at most as many configurations as
  /// the sampling node sources checked; 0: off. 4 by default (measured in
  /// docs/results.md: up to 13x faster on the puzzles, the same median on
  /// MotionBenchMaker's 700).
  std::size_t toggle = 4;
  /// Whether new edges are checked as they are made, as prm does, instead
  /// of lazily: never, always, or auto, from where lazy evaluation stopped
  /// paying: on a roadmap of kEagerMinVertices or more, at least
  /// kEagerMinRemoved edges came out again, each after its own search
  /// repair, and they are at least kEagerRemovedShare of the edges added
  /// lazily (a maze, where every path the search proposes crosses a wall:
  /// docs/design.md), with nodes from `uniform` or the default mix (near
  /// obstacles, where other samplers put them, free edges cost too much to
  /// check them all). The edges still unchecked then are checked at once.
  enum class EagerEdges { Auto, Never, Always };
  EagerEdges eager_edges = EagerEdges::Auto;
  /// A second planner that races lazy PRM on another thread once its work
  /// passes race_after (planner/planner_race.h: decided by work, so the run
  /// is the same for a seed and thread count), when the run has two threads
  /// or more and the checker is exact: the planner that solves with less
  /// work wins. OMPL's BKPIECE1 by default (its cells thread the loops of
  /// alpha puzzles that defeat lazy PRM); none: lazy PRM alone.
  enum class Race { None, BKPIECE1, KPIECE1, RRTConnect, LazyPrm };
  /// Each choice spelled as the planner's name (the registry's), none aside.
  static constexpr std::array kRaceChoices{
      Choice<Race>{"none", Race::None}, Choice<Race>{"ompl:BKPIECE1", Race::BKPIECE1},
      Choice<Race>{"ompl:KPIECE1", Race::KPIECE1}, Choice<Race>{"ompl:RRTConnect", Race::RRTConnect},
      Choice<Race>{"lazy_prm", Race::LazyPrm}};
  Race race = Race::BKPIECE1;
  /// The work lazy PRM does alone first (raceWork units: about 1 s here
  /// with `adaptive`): a run of milliseconds never starts a second planner.
  std::uint64_t race_after = 5'000'000;
  /// Each unit of the rival's work counts this many times: the rival runs
  /// on the time lazy PRM's threads leave idle, about a third of what they
  /// take (measured: docs/results.md), so a path lazy PRM finds first waits
  /// little for the rival to catch up.
  std::uint64_t race_weight = 3;
  /// Iterative relaxation (Bayazit, Xie & Amato 2005): before the real
  /// problem, lazy PRM solves it with the robot's geometry shrunk to `relax`
  /// (Robot::shrunk; 0: off, the default), then grown back in relax_stages
  /// even steps. Each stage's path, spaced at the sampler's sigma, guides the
  /// next: its free configurations join the roadmap as nodes (source
  /// `relaxed`), and a quarter of node enhancement's slots are drawn around
  /// it (where it collides for the grown robot, the passage that robot
  /// needs lies close by).
  double relax = 0.0;
  std::size_t relax_stages = 1;
  /// The samples each relaxed stage may draw; a stage that does not solve
  /// within them gives the next no guide.
  std::size_t relax_samples = 20'000;

  template <class Fields>
  void fields(Fields& f) {
    f.integer("batch", batch, {.min = 1.0, .max = kMaxBatch, .unit = "samples"});
    f.number("batch_fraction", batch_fraction, {.min = 0.0, .max = 1.0});
    f.number("enhance", enhance, {.min = 0.0, .max = 1.0});
    f.choice("path_check", path_check,
             std::array{Choice<PathCheck>{"first_collision", PathCheck::FirstCollision},
                        Choice<PathCheck>{"whole_path", PathCheck::WholePath}});
    f.integer("join", join, {.min = 0.0, .max = kMaxBatch, .unit = "iterations per batch"});
    f.number("join_range", join_range, {.min = 0.0, .max = 1.0, .min_exclusive = true});
    f.integer("toggle", toggle, {.min = 0.0, .max = kMaxToggleNeighbours, .unit = "neighbours"});
    f.choice("eager_edges", eager_edges,
             std::array{Choice<EagerEdges>{"auto", EagerEdges::Auto}, Choice<EagerEdges>{"never", EagerEdges::Never},
                        Choice<EagerEdges>{"always", EagerEdges::Always}});
    f.choice("race", race, kRaceChoices);
    f.integer("race_after", race_after, {.min = 0.0, .max = 1e15, .unit = "race work"});
    f.integer("race_weight", race_weight, {.min = 1.0, .max = 1000.0, .unit = "race work per unit of the rival's"});
    f.number("relax", relax, {.min = 0.0, .max = 0.99, .unit = "geometry scale; 0: off"});
    f.integer("relax_stages", relax_stages, {.min = 1.0, .max = kMaxRelaxStages});
    f.integer("relax_samples", relax_samples, {.min = 1.0, .max = kMaxSamples, .unit = "samples per stage"});
  }
};

/// Lazy PRM (Bohlin & Kavraki 2000): the roadmap is built without edge
/// checks; A* finds the shortest path, the checker checks its unchecked edges
/// with checkPath, colliding edges are deleted and the search repeats; the
/// roadmap grows by a batch of samples when start and goal are disconnected.
/// Edge verdicts are cached on the graph, so no edge is checked twice.
class LazyPrm final : public Planner {
 public:
  /// `makeRival` makes the planner of `race` (none: no race).
  LazyPrm(const PlannerSettings& settings, const PlannerCapabilities& capabilities, Connection connection,
          PlannerFactory makeRival = {});
  /// lazy_prm, and lazy_prm_star (its neighbour count grows with the roadmap), racing what `makeRival` makes.
  static std::vector<PlannerKind> kinds(PlannerFactory makeRival = {});

 private:
  /// What one search keeps between its steps.
  struct SearchState {
    /// Components of the roadmap's edges (any state but Colliding, which
    /// are removed). After a removal they are rebuilt only when a search
    /// finds no path; until new edges join start and goal again, no search
    /// is run (each costs O(E log V)).
    RoadmapComponents components;
    /// Ends of edges found in collision, with the edge's length: node
    /// enhancement samples around them (Bohlin & Kavraki 2000, section 3.3),
    /// where the free space is narrow and the uniform batch rarely lands.
    std::vector<std::pair<Vertex, double>> enhancement_seeds;
    std::size_t enhancement_source = kNoSource;
    std::size_t join_source = kNoSource;
    std::size_t toggle_source = kNoSource;
    /// Toggle PRM's obstacle roadmap: colliding configurations, witnesses
    /// of edges found colliding, in the order found; those before
    /// toggle_joined were joined to their neighbours.
    std::vector<Config> toggle_witnesses;
    std::size_t toggle_joined = 0;
    std::unique_ptr<NearestVertices> toggle_nearest;  // over the joined witnesses and the one being joined
    /// The join's own stream (kJoinStream and the seed), so that the
    /// batches draw the same samples with and without it.
    std::optional<Random> join_rng;
    std::size_t dof = 0;
    bool shifting = false;                // the mix is kShiftingMix
    bool uniform_nodes = false;           // the mix draws uniform samples alone (at first, for kShiftingMix)
    CheckerPool* pool = nullptr;          // the search's threads
    std::optional<BatchSampler> sampler;  // on every thread of the pool
    /// The next batch's slot streams, drawn from the planner's stream once
    /// the roadmap has the size that sets the batch's: its slots from the
    /// mix are drawn ahead meanwhile (BatchSampler::drawAhead).
    std::vector<std::uint32_t> next_streams;
    RoadmapQuery query;
    /// New edges are checked as they are made (own_.eager_edges).
    bool eager = false;
    /// Edges between two nodes that are not toggle's, added unchecked and,
    /// of those, found colliding by path checks: the counts that turn the
    /// search eager (turnEagerIfLazinessStopsPaying).
    std::uint64_t lazy_edges_added = 0;
    std::uint64_t lazy_edges_removed = 0;
    /// The roadmap's search expansions and the checker's counts when this
    /// search began: the eager rule weighs this run's work alone.
    std::uint64_t expansions_before = 0;
    CheckStats checks_before;
    /// Toggle's nodes lie between obstacles, where lazy edges fail as a rule.
    bool touchesToggleNode(const Roadmap& roadmap, Vertex a, Vertex b) const {
      return toggle_source != kNoSource &&
             (roadmap.graph()[a].source == toggle_source || roadmap.graph()[b].source == toggle_source);
    }
    /// Iterative relaxation's guide (LazyPrm::guide_) and its spacing, around which enhancement draws.
    const std::vector<Config>* guide = nullptr;
    double guide_spacing = 0.0;
    PlannerRace* race = nullptr;         // the rival, when the run races one
    std::uint64_t race_work_before = 0;  // the checker's race work before the search
  };

  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                            PlanResult& result) override;
  /// Searches, checks paths and grows the roadmap until a path stands or a limit is hit.
  std::optional<std::vector<Vertex>> searchGrowing(Checker& checker, Roadmap& roadmap, PlanResult& result,
                                                   SearchState& state);
  /// Edges from each of `added` to its neighbours it has no edge to yet,
  /// the neighbours found on every thread among all the roadmap's vertices,
  /// the edges added in order: unchecked, or, when state.eager, checked on
  /// this thread's checker in that order and added only when usable.
  void connectBatch(const std::vector<Vertex>& added, Checker& checker, Roadmap& roadmap, PlanResult& result,
                    SearchState& state) const;
  /// With eager_edges auto: turns eager once the roadmap has
  /// kEagerMinVertices and the edges path checks removed pass
  /// kEagerMinRemoved and kEagerRemovedShare of those added lazily.
  void turnEagerIfLazinessStopsPaying(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state);
  /// One eager check, counted: the edge's state to keep, or nothing when it collides.
  std::optional<EdgeState> checkEagerly(Checker& checker, const Config& a, const Config& b, PlanResult& result) const;
  /// Checks every unchecked edge (on switching to eager checks), deleting the colliding ones.
  void checkUncheckedEdges(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state);
  /// Checks the path's unchecked edges (settings' path_check), deleting the
  /// colliding ones; true when one collided.
  bool checkPathEdges(Checker& checker, Roadmap& roadmap, const std::vector<Vertex>& path, PlanResult& result,
                      SearchState& state);
  /// Adds one batch of vertices (samples of the mix and node enhancement),
  /// drawn on every thread, each with its unchecked edges; false when the
  /// sample limit was hit.
  bool growBatch(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state);
  /// The batch that grows a roadmap of `vertices`: its slots, and how many of them are node enhancement.
  std::pair<std::size_t, std::size_t> batchSlots(std::size_t vertices) const;
  /// Draws the next batch's streams and starts drawing its slots from the
  /// mix on the pool's other threads, while this thread searches and checks
  /// paths. The roadmap's vertices stay as they are until that batch.
  void prepareNextBatch(const Roadmap& roadmap, const PlanResult& result, SearchState& state);
  /// RRT-Connect between the start's and the goal's components (own_.join
  /// iterations). Its vertices and checked edges join the roadmap and
  /// `state.components`; later samples connect to them as to any vertex.
  void joinEnds(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state,
                const std::vector<Vertex>& startComponent, const std::vector<Vertex>& goalComponent);

  /// Toggle PRM's step (own_.toggle): each witness not yet joined is joined
  /// to its nearest older ones; the first free configuration on each segment
  /// becomes a vertex, appended to `added`.
  void toggleWitnesses(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state,
                       std::vector<Vertex>& added) const;

  /// The race with own_.race's planner, when this run has one.
  std::optional<PlannerRace> makeRace(const Checker& checker, const Roadmap& roadmap, const RoadmapQuery& query) const;
  /// Lazy PRM's race work so far: its checker's own, with the batches' draws
  /// counted by batch (BatchSampler::batchWork) instead of by the thread
  /// that drew them, so that it is the same for every thread count.
  std::uint64_t raceWorkSoFar(const Checker& checker, const SearchState& state) const;
  /// The rival's winning path as roadmap vertices and Free edges (its
  /// checker's verdicts), joined to the query's ends.
  std::optional<std::vector<Vertex>> adoptRivalPath(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                    const std::vector<Config>& path, PlanResult& result) const;

  /// Iterative relaxation (own_.relax): solves the relaxed stages in turn,
  /// each guided by the one before, and returns the last solved stage's
  /// guide (empty when none solved); the stages are in result.relaxation
  /// and their checks in the run's.
  std::vector<Config> solveRelaxedStages(const Checker& checker, const Config& start, const Config& goal,
                                         PlanResult& result);
  /// The guide's configurations that are free for `checker` join the
  /// roadmap as nodes of source `relaxed`, with their edges.
  void addGuideNodes(Checker& checker, Roadmap& roadmap, PlanResult& result, SearchState& state);

  LazyPrmSettings own_;
  PlannerFactory makeRival_;
  /// The path of the relaxed stage before, spaced (iterative relaxation):
  /// set on a stage's planner, or by solveRelaxedStages on the real one.
  std::vector<Config> guide_;
};

}  // namespace prmkit
