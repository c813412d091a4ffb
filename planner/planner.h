#pragma once
// Roadmap planners. A planner drives a Checker; it never builds one.
#include "base/termination.h"
#include "checkers/checker.h"
#include "checkers/registered_settings.h"
#include "roadmap/component_join.h"
#include "roadmap/roadmap.h"
#include "sampling/sampler.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <set>
#include <string_view>

namespace prmkit {

/// Threads a planner may be asked for (a typo of 10 000 must not start 10 000 threads).
inline constexpr std::size_t kMaxPlannerThreads = 256;
/// Upper bounds of the planner's counts: what a problem file or --set may
/// ask for. Memory grows with samples times neighbours (a 10^6-vertex
/// roadmap with k = 10 takes about 1.4 GiB), so absurd values are refused
/// with the limit named rather than run into an allocation failure.
inline constexpr std::size_t kMaxSamples = 1'000'000'000;
inline constexpr std::size_t kMaxNeighbours = 1000;
inline constexpr std::size_t kMaxShortcutAttempts = 10'000'000;

/// The default section of every planner family that has one
/// (PlannerKind::section), in plannerKinds() order.
std::vector<RegisteredSettings> plannerSectionDefaults();

/// The settings every planner reads: which planner, how vertices are
/// connected and sampled, the limits and the seed. What only one planner
/// family reads (lazy_prm's batches, prm's expansion) is in that family's
/// own section (`sections`), declared by its file pair.
struct PlannerSettings {
  std::string type = "lazy_prm";  // a name of plannerNames() (planner/planner_registry.h)
  std::size_t k = 10;             // neighbours per new vertex (ignored by *_star and when radius > 0)
  double radius = 0.0;            // > 0: connect to every vertex within this C-space distance
  /// Where nodes come from: a strategy of samplerNames(), a mix such as
  /// "uniform:0.5,bridge:0.5", or kShiftingMix (for planners that use
  /// prmkit's samplers; its share follows narrowPassageShare).
  std::string sampler = std::string(kShiftingMix);
  /// gaussian and bridge: the second sample's standard deviation, as a fraction of the maximum extent.
  double sampler_sigma = 0.02;
  bool shortcut = false;  // random shortcutting of the returned path
  /// Optimizing planners (OMPL's RRTstar, PRMstar, BIT*, ...) stop at their
  /// first solution instead of improving it until the time limit or
  /// cost_threshold, which is what OMPL's benchmark does.
  bool first_solution = false;
  /// Optimizing planners stop once their path is at most this long
  /// (C-space length; 0: improve until the time limit), OMPL's cost threshold.
  double cost_threshold = 0.0;
  std::size_t shortcut_attempts = 100;
  /// Threads, each on its own checker clone (0: every core), for planners
  /// that declare `threads`; the roadmap, path and counters for a seed do not
  /// depend on the thread count.
  std::size_t threads = 0;
  /// The other threads join a run only once it has lasted this long (ms;
  /// 0: from its start): a run of milliseconds pays for no thread start, no
  /// checker clone and no hand-over, and waits for no thread that gets no
  /// core on a busy machine. The result does not depend on it.
  double helpers_after = 20.0;
  /// When helpers_after says the other threads join.
  std::chrono::steady_clock::duration helpersAfter() const {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double, std::milli>(helpers_after));
  }
  /// Unknown edges (budgeted checker) with at least this confidence (%) are kept as tentative.
  double min_confidence = 90.0;
  /// Every edge of a found path is checked with the exact verifier; edges
  /// that fail are removed and the search goes on. Unset: on for checkers
  /// whose verdicts carry a confidence (budgeted), off for the others.
  std::optional<bool> verify_final_path;
  double time_limit_s = 10.0;
  std::size_t max_samples = 100000;  // samples drawn (valid or not)
  std::uint32_t seed = 1;
  /// The planner's own library's parameters, by their names there
  /// (PlannerKind::parameter_names), applied in order.
  std::vector<std::pair<std::string, std::string>> parameters;
  /// Each planner family's own settings, one section per family (lazy_prm
  /// and lazy_prm_star share `lazy_prm`), in plannerKinds() order.
  std::vector<RegisteredSettings> sections = plannerSectionDefaults();

  /// The fields under `planner:` that every planner shares (checkers/settings_fields.h);
  /// `type`, `sampler` and `verify_final_path` are read apart.
  template <class Fields>
  void fields(Fields& f) {
    f.integer("k", k, {.min = 1.0, .max = kMaxNeighbours});
    f.number("radius", radius, {.min = 0.0, .unit = "C-space distance"});
    f.number("sampler_sigma", sampler_sigma, {.min = 0.0, .max = 1.0, .min_exclusive = true});
    f.boolean("shortcut", shortcut);
    f.boolean("first_solution", first_solution);
    f.number("cost_threshold", cost_threshold, {.min = 0.0, .unit = "C-space distance"});
    f.integer("shortcut_attempts", shortcut_attempts, {.min = 1.0, .max = kMaxShortcutAttempts});
    f.integer("threads", threads, {.min = 0.0, .max = kMaxPlannerThreads, .unit = "0: every core"});
    f.number("helpers_after", helpers_after, {.min = 0.0, .max = 1e9, .unit = "ms"});
    f.number("min_confidence", min_confidence, {.min = 0.0, .max = 100.0, .unit = "%"});
  }
  /// The section of type Settings (named Settings::kSection), or its
  /// defaults when these settings predate the planner's registration.
  template <class Settings>
  Settings section() const {
    for (const RegisteredSettings& own : sections)
      if (own.name() == Settings::kSection) return own.as<Settings>();
    return Settings{};
  }
};

/// Counters of the planner's own work (the checker counts its own in CheckStats).
struct PlannerStats {
  std::uint64_t samples_drawn = 0;
  std::uint64_t samples_invalid = 0;
  std::uint64_t edges_attempted = 0;  // checkEdge calls (prm) or edges put in paths to check (lazy_prm)
  std::uint64_t edges_colliding = 0;
  std::uint64_t graph_searches = 0;
  std::uint64_t batches = 0;  // lazy_prm: times the roadmap grew by a batch of samples
  /// lazy_prm: slots of a batch that used their share of the samples left
  /// without finding a valid configuration (they add no node).
  std::uint64_t slots_exhausted = 0;
  std::uint64_t path_checks = 0;
  std::uint64_t shortcuts_applied = 0;
  std::uint64_t tentative_edges = 0;        // Unknown edges kept for their confidence
  std::uint64_t verification_failures = 0;  // tentative edges on a found path the exact verifier rejected
  std::uint64_t enhancement_nodes = 0;      // lazy_prm: valid nodes added near colliding edges
  std::uint64_t expansion_nodes = 0;        // prm: valid nodes added by random-bounce expansion
  std::uint64_t join_nodes = 0;             // lazy_prm: valid nodes added by RRT-Connect between components
  std::uint64_t eager_edges = 0;            // lazy_prm: edges checked as they were made (eager_edges), not lazily

  /// Visits every field as (name, member pointer): the one list of counters, all counts.
  template <class Visitor>
  static void forEachField(Visitor&& visit) {
    visit(std::string_view("samples_drawn"), &PlannerStats::samples_drawn);
    visit(std::string_view("samples_invalid"), &PlannerStats::samples_invalid);
    visit(std::string_view("edges_attempted"), &PlannerStats::edges_attempted);
    visit(std::string_view("edges_colliding"), &PlannerStats::edges_colliding);
    visit(std::string_view("graph_searches"), &PlannerStats::graph_searches);
    visit(std::string_view("batches"), &PlannerStats::batches);
    visit(std::string_view("slots_exhausted"), &PlannerStats::slots_exhausted);
    visit(std::string_view("path_checks"), &PlannerStats::path_checks);
    visit(std::string_view("shortcuts_applied"), &PlannerStats::shortcuts_applied);
    visit(std::string_view("tentative_edges"), &PlannerStats::tentative_edges);
    visit(std::string_view("verification_failures"), &PlannerStats::verification_failures);
    visit(std::string_view("enhancement_nodes"), &PlannerStats::enhancement_nodes);
    visit(std::string_view("expansion_nodes"), &PlannerStats::expansion_nodes);
    visit(std::string_view("join_nodes"), &PlannerStats::join_nodes);
    visit(std::string_view("eager_edges"), &PlannerStats::eager_edges);
  }
};

/// The work a race between planners is decided by (lazy_prm's `race`): the
/// geometric tests a checker counted (bounding volumes, primitives, GJK
/// iterations, narrow-phase pairs) and its configurations and segments, so
/// that every strategy moves it. A count, not a time: the same run gives the
/// same work on any machine and under any load.
std::uint64_t raceWork(const CheckStats& stats);

/// One planner of a race (lazy_prm's `race`): what it did until it solved or was stopped.
struct RacePart {
  std::string planner;   // lazy PRM's kind, or the rival's (ompl:BKPIECE1, ...)
  bool started = false;  // the rival starts only once lazy PRM's work passes race_after
  bool solved = false;
  bool won = false;              // its path is the run's
  std::uint64_t start_work = 0;  // the race's work when it started (raceWork units)
  /// The race's work when it solved or stopped: start_work plus its own
  /// (weighted, for the rival). A loser stops once it hears of a win with
  /// less work, so its work is past the winner's by an amount that varies.
  std::uint64_t work = 0;
  std::uint64_t samples_drawn = 0;
  double time_s = 0.0;  // its own planning time (s)
};

/// One relaxed stage of lazy_prm's iterative relaxation (`relax`): the
/// problem with the robot shrunk by `factor`, solved before the real one.
struct RelaxedStage {
  double factor = 1.0;  // the robot's geometry shrunk to this (Robot::shrunk)
  bool solved = false;
  std::uint64_t samples_drawn = 0;
  std::size_t guide_configs = 0;  // its path, spaced for the next stage to follow (0 unsolved)
  std::uint64_t static_checks = 0;
  double time_s = 0.0;
};

/// How a planning run ended.
enum class PlanStatus { Solved, TimeLimit, SampleLimit, InvalidStart, InvalidGoal, Failed, Cancelled };
/// "solved", "time limit", "sample limit", "invalid start", "invalid goal", "failed" or "cancelled" (a
/// stop requested by the caller ended the run), as outputs spell it.
std::string_view toString(PlanStatus status);
std::ostream& operator<<(std::ostream& out, PlanStatus status);

struct PlanResult {
  bool solved = false;
  PlanStatus status = PlanStatus::Failed;
  /// Why a run Failed in its planner's words (OMPL's status, e.g. "Approximate solution"); empty otherwise.
  std::string status_detail;
  std::vector<Config> path;
  /// True when every edge of the path was found free by an exact checker
  /// (the planning checker itself when it is exact, else the verifier).
  bool path_verified = false;
  double path_length = 0.0;  // C-space length (Robot::distance)
  double time_s = 0.0;       // in solve (s)
  /// Of time_s, the time in graph searches and their bookkeeping (lazy
  /// PRM's incremental repairs and component sweeps), in s: what decides a
  /// run when the checker does not. 0 for planners that do not measure it (OMPL's).
  double search_time_s = 0.0;
  double setup_time_s = 0.0;  // before solve, counted against the time limit too (s)
  /// Time spent copying a planner's own tree into the roadmap for the
  /// picture (OMPL's planners), in s: not planning, so not in time_s.
  double picture_copy_time_s = 0.0;
  PlannerStats planner_stats;
  /// Per source of roadmap nodes (each sampling strategy of the mix, then
  /// enhancement or expansion when they ran): what it drew and checked, and
  /// how many of its nodes the path uses. Empty for OMPL's planners.
  std::vector<NodeSourceStats> node_sources;
  CheckStats check_stats;
  std::size_t roadmap_vertices = 0;
  std::size_t roadmap_edges = 0;
  /// Of roadmap_vertices, those the roadmap held before this query (earlier
  /// queries' and a loaded roadmap's): 0 for a planner's first query on a new roadmap.
  std::size_t roadmap_vertices_reused = 0;
  /// The planner's queries before this one on the same roadmap (a roadmap
  /// read from a file counts as one).
  std::size_t earlier_queries = 0;
  RoadmapMemory roadmap_memory;
  /// The final roadmap, for pictures: vertex configurations and edges with
  /// their states; empty above kPictureRoadmapVertices vertices.
  std::vector<Config> roadmap_configs;
  std::vector<std::tuple<std::size_t, std::size_t, EdgeState>> roadmap_edge_list;
  /// Edges the planner found in collision (and removed), for pictures: the
  /// first kPictureCollidingEdges, each with the configuration where the
  /// checker found the collision (its witness; empty when it gave none).
  struct CollidingEdge {
    Config a, b, witness;
  };
  std::vector<CollidingEdge> colliding_edges;
  /// The planners of a race (lazy_prm's `race`), lazy PRM first; empty when none ran.
  std::vector<RacePart> race;
  /// lazy_prm's relaxed stages in the order run (`relax`); empty when none ran.
  std::vector<RelaxedStage> relaxation;
};

/// Largest roadmap copied into PlanResult for pictures: a drawing of more
/// edges is a grey smear, and the copy would double a large roadmap's memory.
inline constexpr std::size_t kPictureRoadmapVertices = 20000;
/// Most colliding edges kept for pictures.
inline constexpr std::size_t kPictureCollidingEdges = 5000;

/// What a planner declares about itself, once, in its kind (PlannerKind),
/// so that the commands and the planner ask it instead of testing its name.
struct PlannerCapabilities {
  /// Edges are checked with the run's prmkit checker. False for a peer that
  /// checks them its own way (OMPL's stock discretized motion validator):
  /// its runs do not depend on the checker, so `compare` and sweeps run it
  /// once per seed, with `discrete`'s static checks, and never call its
  /// paths verified.
  bool checks_edges_with_checker = true;
  /// Its nodes come from prmkit's samplers (`planner.sampler`).
  bool uses_node_sampler = true;
  /// `planner.threads` spreads its work over threads (the result is the same).
  bool threads = false;
  /// Run by `compare` when no `--planners` is given.
  bool compared_by_default = false;
  /// The names of OMPL.app's `[planner]` lines it stands for in a .cfg's benchmark.
  std::vector<std::string> omplapp_names;
  /// It can search again after the verifier of final paths rejects an edge.
  bool verifies_final_path = true;
  /// A second solve plans on the first one's roadmap (Planner::solve).
  /// False for planners that build a structure of their own per query (OMPL's trees).
  bool keeps_roadmap = true;
};

/// A query's ends as vertices of the roadmap.
struct RoadmapQuery {
  Vertex start = 0;
  Vertex goal = 1;
};

class Planner {
 public:
  /// How many neighbours a new vertex is connected to: `k` (or all within
  /// `radius`), or Karaman and Frazzoli's e(1 + 1/d) log n (the *_star forms).
  enum class Connection { Nearest, Star };
  /// `capabilities` are its kind's (PlannerKind::capabilities).
  Planner(PlannerSettings settings, PlannerCapabilities capabilities, Connection connection = Connection::Nearest);
  virtual ~Planner() = default;
  const PlannerSettings& settings() const { return settings_; }
  const PlannerCapabilities& capabilities() const { return capabilities_; }
  /// Plans from start to goal; the checker's stats are included in the result
  /// as the difference over this call. `verifier` (an exact checker) checks
  /// tentative edges on found paths; it is needed only when the checker can
  /// answer Unknown and verify_final_path is on.
  /// A planner that keeps its roadmap (keepsRoadmap) answers each call on the
  /// roadmap the calls before it left (PRM's many queries on one roadmap,
  /// Kavraki et al. 1996): start and goal join it as vertices (an end equal
  /// to a vertex it has is that vertex), every edge keeps its verdict, and
  /// each call has its own time limit and sample budget (the setup time
  /// counts against the first). The first call's result does not depend on
  /// whether more follow.
  /// `termination`, when given, is the run's (begun when its setup began,
  /// so that setup counts against its deadline: the result's setup_time_s is
  /// the time from its start to this call); otherwise the call ends
  /// time_limit_s after it starts. requestStop ends it either way.
  PlanResult solve(Checker& checker, const Config& start, const Config& goal, Checker* verifier = nullptr,
                   std::optional<Termination> termination = std::nullopt);
  /// The time limit of the calls to solve from now on that are given no termination (s, > 0).
  void setTimeLimit(double seconds);
  /// Whether a second solve plans on the first one's roadmap (capabilities().keeps_roadmap).
  bool keepsRoadmap() const { return capabilities_.keeps_roadmap; }
  /// The roadmap the last solve left (nothing before the first, or after clear()).
  const Roadmap* roadmap() const { return roadmap_.get(); }
  /// The names of the node sources its vertices' `source` indices refer to.
  const std::vector<std::string>& nodeSourceNames() const { return sourceNames_; }
  /// Plans the next query on `roadmap` (built for the robot of the checker
  /// that will be passed to solve) instead of the one it has; `sourceNames`
  /// names its vertices' sources. Throws std::logic_error for a planner that
  /// does not keep its roadmap.
  void adoptRoadmap(std::unique_ptr<Roadmap> roadmap, std::vector<std::string> sourceNames);
  /// Forgets the roadmap: the next solve starts from nothing, as a new planner's first.
  void clear();
  /// From any thread: the run in progress (or the next one) ends as at its
  /// time limit, with status Cancelled and what it had found.
  void requestStop() { stopRequested_.store(true); }
  /// The runs from now on also end, as at their time limit, once `condition`
  /// holds; it is asked wherever the time limit is, on every thread the
  /// planner runs on (a race's rival, on one thread, reads its own checker).
  void stopAlsoWhen(std::function<bool()> condition) { alsoStop_ = std::move(condition); }

  /// The share of the shifting mix's samples (kShiftingMix) that go to the
  /// narrow-passage strategies while start and goal are apart in a roadmap
  /// of `vertices` vertices: none up to 300, then a quarter more per 100
  /// vertices, up to three quarters from 500 on.
  static double narrowPassageShare(std::size_t vertices);

 protected:
  /// Grows `roadmap`, which holds the query's ends (and, for a planner that
  /// keeps its roadmap, what earlier queries left), until a path from
  /// query.start to query.goal is found or a limit is hit; returns the vertex
  /// path or nothing.
  virtual std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                    PlanResult& result) = 0;
  /// The query's ends that are new vertices and need edges to the roadmap:
  /// both, but on an empty roadmap the goal alone (the start has nothing
  /// else to join; the goal's neighbours include it).
  std::vector<Vertex> endsToConnect() const { return endsToConnect_; }
  /// The seed of this query's random streams: the planner's seed for its
  /// first query, one derived from it and the query's number after.
  std::uint32_t querySeed() const;

  /// Checks one edge as it is made, counted (edges_attempted, and
  /// edges_colliding with the edge recorded when it is not usable): the state
  /// to give it, or nothing when it must not be in the roadmap.
  std::optional<EdgeState> checkCounted(Checker& checker, const Config& a, const Config& b, PlanResult& result) const;
  /// Checks every unchecked edge of the roadmap with checkCounted, giving
  /// each its state or removing it; returns how many were checked and
  /// whether one was removed.
  std::pair<std::size_t, bool> checkUncheckedEdges(Checker& checker, Roadmap& roadmap, PlanResult& result) const;
  /// Keeps the edge from a to b, found in collision, and where the checker
  /// found it (PlanResult::colliding_edges).
  static void recordCollidingEdge(const Robot& robot, const Config& a, const Config& b, const EdgeResult& edge,
                                  PlanResult& result);

  /// A valid configuration and the index of the node source that made it.
  struct Sample {
    Config q;
    std::size_t source = kNoSource;
  };
  /// Draws one valid configuration from the sampler mix, counting draws;
  /// nothing when a limit is hit.
  std::optional<Sample> sampleValid(PlanResult& result);
  /// The sampler mix, its sigma and seed, from the settings; whether the
  /// default mix shifts depends on the robot.
  SamplerSettings samplerSettings(const Robot& robot) const;
  /// True (with the status set) when no more samples may be drawn.
  bool sampleLimitReached(PlanResult& result) const;
  /// Index of the node source called `name` in result.node_sources, added on first use.
  static std::size_t nodeSource(PlanResult& result, std::string_view name);
  /// Neighbour count for a roadmap of n vertices (k, or e(1 + 1/d) log n for *_star).
  std::size_t neighbourCount(std::size_t n, std::size_t dof) const;
  /// Stopped (requestStop or the termination's flag) or past this call's deadline.
  bool outOfTime() const;
  /// This call's termination: the one given, or its own time limit from its start.
  const Termination& termination() const { return termination_; }
  bool star() const;
  /// What to do with an edge verdict: the state to give the edge, or nothing
  /// when it must not be in the roadmap. Counts tentative edges.
  std::optional<EdgeState> acceptEdge(const EdgeResult& edge, PlanResult& result) const;
  /// Whether an edge verdict may be used: Free, or Unknown with at least min_confidence.
  bool usable(const EdgeResult& edge) const;
  /// What a component join (roadmap/component_join.h) needs of this run: the
  /// checker, a random stream, its verdict rules, its sample limit (each
  /// drawn sample counted for node source `source`), its time, the picture's
  /// colliding edges.
  ComponentJoinContext joinContext(Checker& checker, Roadmap& roadmap, Random& rng, PlanResult& result,
                                   std::size_t source);
  /// Checks the edges of a found path with the verifier (if the final path is
  /// verified): true when the path stands, false when an edge failed and was
  /// removed from the roadmap.
  bool confirmTentative(const std::vector<Vertex>& path, Roadmap& roadmap, PlanResult& result);
  /// The shortest roadmap path from start to goal that confirmTentative lets
  /// stand (each failure removes what failed and the search goes on), or
  /// nothing once none is left. When the final path is verified, each path
  /// found first gets shortcuts: edges between its vertices that the
  /// planning checker finds free (from each vertex, the farthest of those 2,
  /// 4, 8, ... ahead that stay free), so the verifier checks a shorter path
  /// (its cost grows with the length it checks) and a failed shortcut leaves
  /// the path it cut short.
  std::optional<std::vector<Vertex>> shortestConfirmedPath(Checker& checker, Roadmap& roadmap,
                                                           const RoadmapQuery& query, PlanResult& result);

  PlannerSettings settings_;
  PlannerCapabilities capabilities_;
  Connection connection_;
  Random rng_;
  std::chrono::steady_clock::time_point started_;
  std::atomic<bool> stopRequested_{false};
  std::function<bool()> alsoStop_;
  Termination termination_;
  Checker* verifier_ = nullptr;
  bool verifyVertices_ = false;
  std::set<Vertex> verifiedVertices_;  // of this query, by the verifier
  /// The query's start or goal found colliding by the verifier (the
  /// planning checker's static verdicts being approximate) ends the run with
  /// this status; the flag is read by outOfTime() on any thread.
  std::atomic<bool> invalidQueryEnd_{false};
  PlanStatus invalidQueryEndStatus_ = PlanStatus::Failed;
  bool verifyFinalPath_ = false;
  std::unique_ptr<NodeSampler> sampler_;  // made by solve(), for this call's checker and result
  std::size_t samplesTaken_ = 0;          // valid samples sampleValid() returned in this call
  /// Work done by checker clones on other threads during this call (added to the result's check_stats).
  CheckStats workerCheckStats_;
  /// Time search() spent copying another library's roadmap or tree for the
  /// picture (s): not planning, so not counted in time_s.
  double pictureSeconds_ = 0.0;

 private:
  /// Adds the query's ends to the roadmap (or finds them there).
  RoadmapQuery addQuery(const Config& start, const Config& goal);

  std::unique_ptr<Roadmap> roadmap_;
  std::vector<std::string> sourceNames_;
  std::size_t queries_ = 0;  // solve calls on roadmap_
  std::vector<Vertex> endsToConnect_;
  void shortcut(Checker& checker, std::vector<Config>& path, PlanResult& result);
};

/// Makes a planner from its settings (the registry's makePlanner), for a
/// planner that runs another one (lazy_prm's race).
using PlannerFactory = std::function<std::unique_ptr<Planner>(const PlannerSettings&)>;

/// A planner by name: what it is, what it can do, and how to make one.
struct PlannerKind {
  std::string name;
  std::string description;
  PlannerCapabilities capabilities;
  /// Makes one with these settings and the kind's capabilities.
  std::function<std::unique_ptr<Planner>(const PlannerSettings&, const PlannerCapabilities&)> make;
  /// The defaults of the family's own settings section (`planner.<section>`,
  /// a struct with `kSection` and a `fields(Fields&)` list), if it has one:
  /// kinds of one family name the same section.
  std::optional<RegisteredSettings> section;
  /// For a planner of another library that takes that library's own named
  /// parameters (`planner.parameters: {range: 0.5}`): their names, and what
  /// is wrong with a value (empty when accepted). Unset: it takes none.
  std::function<std::vector<std::string>()> parameter_names = {};
  std::function<std::string(const std::string& name, const std::string& value)> parameter_error = {};
  /// What is wrong with the parameters together (empty when accepted).
  std::function<std::string(const std::vector<std::pair<std::string, std::string>>& parameters)> parameter_set_error =
      {};
};

}  // namespace prmkit
