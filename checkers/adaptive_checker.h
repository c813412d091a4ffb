#pragma once
// `adaptive`: exact edge checking by adaptive bisection (Schwarzer, Saha and
// Latombe, "Adaptive dynamic collision checking for single and multiple
// articulated robots in complex environments", IEEE T-RO 2005). It never
// reports a colliding edge as free.
#include "geometry/bvh_distance.h"
#include "checkers/bisection_samples.h"
#include "checkers/cell_broad_phase.h"
#include "checkers/checker.h"
#include "checkers/pair_table.h"
#include "checkers/motion_models.h"
#include "checkers/node_bound_cache.h"
#include "checkers/pair_bounds.h"
#include "checkers/path_probes.h"
#include "geometry/collision_queries.h"
#include "checkers/settings_fields.h"

#include <memory>
#include <mutex>
#include <queue>
#include <span>
#include <string>

namespace prmkit {

struct AdaptiveSettings {
  /// A (segment, pair) whose motion bound l_i + l_j falls below eta (m)
  /// without a certificate is reported Colliding (conservative) and counted
  /// in unresolved_as_colliding. 0 selects 1e-6 of the scene's size.
  double eta = 0.0;
  /// A distance below the threshold a test needs is computed to within this
  /// relative error (0: exactly; 1: within a factor 2). Bounds stay lower
  /// bounds; this only trades distance-query cost for bisection steps.
  double distance_relative_error = 1.0;
  /// Roadmap configurations whose per-pair distance bounds are kept between
  /// checks; the cache is emptied when it grows beyond this.
  std::size_t cache_nodes = 100000;
  /// Link-obstacle pieces of an edge are bounded by the robot's speed and
  /// acceleration bounds where it has them and they are smaller (true), or by
  /// the scaled lever bound of SSL 2005 alone (false).
  bool speed_bounds = true;
  /// Distance bounds and static checks try the bodies' convex covers
  /// (coherent slab gap, then GJK) before the BVHs (Convex), or use the BVHs
  /// alone (Mesh). Bounds stay lower bounds and verdicts exact either way.
  Geometry geometry = Geometry::Convex;
  /// A segment is cut into at most this many cells (0 and 1: one), and every
  /// pair gets a distance bound at each cell's centre before anything is
  /// split, asked for its motion bound over half a cell: a pair that clears
  /// it at every centre is certified on the whole segment without measuring
  /// the nodes, and a probe that touches (confirmed on the exact geometry)
  /// ends the check early. Most edges a planner checks collide; most pairs
  /// of a free one are far apart at the scale of a cell.
  int probes = 15;
  /// A segment gets one cell per this fraction of the C-space extent (the 1%
  /// discretization's step: a probe near each configuration that
  /// discretization would check), at least one and at most `probes`; 0
  /// gives every segment `probes` cells.
  double probe_step = 0.01;
  /// `checkPath` runs a static collision check at every probe's centre of
  /// every segment (in the probes' order) before any distance probe. Most
  /// paths a lazy planner checks collide somewhere, and a static check finds
  /// a collision for less than a probe's distance bounds; a path without one
  /// then pays both. Single edges (`checkEdge`) go to the distance probes
  /// directly: most random edges are free.
  bool static_path_probes = true;
  /// `checkPath` puts every segment into one priority queue (SSL 2005,
  /// Sec. 5), so the worst pair anywhere on the path is split first (true);
  /// or checks the segments one by one in path order and stops at the first
  /// collision, as the other strategies do (false). The queue starts every
  /// segment before it splits any, work that is lost on the segments after a
  /// collision: on lazy PRM's candidate paths, most of which collide, one by
  /// one is cheaper (docs/results.md, "Safety and cost").
  bool path_queue = false;
  /// Bisection steps one check (an edge, or a path's queue) may take: past
  /// them what is left is reported Colliding (conservative) and counted in
  /// unresolved_as_colliding, as below eta. A passage narrower than eta along
  /// a long edge is split breadth first (every piece is as uncertain as the
  /// next) and would otherwise take about (its length / eta) steps, each
  /// with its distance bounds kept: seconds and gigabytes past any time limit.
  std::size_t max_bisection_steps = 65536;
  /// Self pairs of a chain whose relative pose follows at most two joints
  /// are certified by a table over those joints (checkers/pair_table.h),
  /// made once per process for a robot, where it certifies the segment's
  /// projection; elsewhere, and without tables, they are bisected as every
  /// other pair. Verdicts are the same either way.
  bool self_pair_tables = false;

  template <class Fields>
  void fields(Fields& f);
};

/// Scenes with fewer obstacles skip the broad phase (CellBroadPhase::pays).
inline constexpr std::size_t kAdaptiveBroadPhaseObstacles = 64;

/// Most cells a segment may be cut into (AdaptiveSettings::probes).
inline constexpr int kMaxAdaptiveProbes = 64;
/// Most configurations the node cache may keep (AdaptiveSettings::cache_nodes).
inline constexpr std::size_t kMaxCacheNodes = 100'000'000;
/// Most bisection steps one check may be given (AdaptiveSettings::max_bisection_steps).
inline constexpr std::size_t kMaxBisectionSteps = 100'000'000;

template <class Fields>
void AdaptiveSettings::fields(Fields& f) {
  f.number("eta", eta, {.min = 0.0, .max = kMaxCoordinate, .length = true, .unit = "m; 0: 1e-6 of the scene's size"});
  f.number("distance_relative_error", distance_relative_error, {.min = 0.0, .max = kMaxDistanceRelativeError});
  f.integer("cache_nodes", cache_nodes, {.min = 1.0, .max = kMaxCacheNodes, .unit = "configurations"});
  f.choice("motion_bound", speed_bounds, std::array{Choice<bool>{"speed", true}, Choice<bool>{"lever", false}});
  f.integer("probes", probes, {.min = 0.0, .max = kMaxAdaptiveProbes, .unit = "cells per segment"});
  f.number("probe_step", probe_step, {.min = 0.0, .max = 1.0, .unit = "fraction of the C-space extent"});
  f.boolean("static_path_probes", static_path_probes);
  f.boolean("path_queue", path_queue);
  f.integer("max_bisection_steps", max_bisection_steps,
            {.min = 1.0, .max = kMaxBisectionSteps, .unit = "steps per check"});
  f.boolean("self_pair_tables", self_pair_tables);
  f.geometry(geometry);
}

class AdaptiveChecker final : public Checker {
 public:
  using Settings = AdaptiveSettings;
  static constexpr std::string_view kName = "adaptive";
  /// Its own counters (CheckStats::strategy), in this order.
  static constexpr std::array<CounterSpec, 6> kCounters{
      {{"cache_hits", "count", "distance bounds reused from an earlier check of the same node"},
       {"static_probes_reused", "count", "static probes of a path skipped: an earlier check found the centre free"},
       kBisectionStepsCounter,
       {"directional_certificates", "count", "(interval, pair) elements certified by directional motion bounds"},
       kQueuePushesCounter,
       kUnresolvedCounter}};
  enum Counter : std::size_t {
    kCacheHits,
    kStaticProbesReused,
    kBisectionSteps,
    kDirectionalCertificates,
    kQueuePushes,
    kUnresolvedAsColliding
  };
  AdaptiveChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, AdaptiveSettings settings);
  std::string name() const override { return std::string(kName); }
  std::string description() const override;
  bool exact() const override { return true; }
  /// SSL 2005, Eq. 1 certifies a stretch only where the distances at its
  /// samples exceed the motion between them (strictly), so every certified
  /// stretch keeps its ends at positive distance; a pair left unmeasured at
  /// an end is certified from a sample whose distance exceeds the motion to
  /// that end; the broad phase's boxes hold the whole segment.
  bool freeEdgesCoverEnds() const override { return true; }
  std::unique_ptr<Checker> clone() const override;
  const AdaptiveSettings& settings() const { return settings_; }
  /// The eta in use (m), after the scene-relative default is applied.
  double eta() const { return eta_; }

 private:
  std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const override;
  AdaptiveChecker(const AdaptiveChecker& other);
  bool doIsValid(const Config& q) override;
  EdgeResult doCheckEdge(const Config& a, const Config& b) override;
  /// All segments of the path share one priority queue (SSL 2005, Sec. 5: the
  /// multi-segment extension used by lazy PRM), so a collision anywhere on the
  /// path is found before the free segments are fully certified.
  PathResult doCheckPath(std::span<const Config> path) override;

  using Sample = BisectionSamples::Sample;
  /// One unresolved (segment, pair) element of the queue (SSL 2005, Sec. 4).
  struct Element {
    double priority;  // (l_i + l_j) - (d(q_a) + d(q_b)): largest first
    std::uint32_t pair;
    std::uint32_t segment;
    std::uint32_t sample_a, sample_b;
    double t_a, t_b;  // parameters of the samples on the segment
    bool operator<(const Element& other) const { return priority < other.priority; }
  };
  struct Collision {
    std::size_t segment;
    double t;
  };

  /// Checks the path's segments: probes every segment (probeCells, with
  /// static checks at the probes' centres first when `staticFirst`), then
  /// certifies them, in one queue or one by one in path order (`oneQueue`).
  PathResult checkSegments(std::span<const Config> path, bool oneQueue, bool staticFirst);
  /// Each segment's cell count, for the probe schedule (cells per segment:
  /// probeCellCount with `probes` and `probe_step`).
  auto cellsOf() const {
    return [this](std::size_t s) { return cells_[s].size(); };
  }
  /// The sample at the centre of segment s's cell, made (with its link poses
  /// and sphere centres) if the segment has none there yet.
  std::uint32_t cellSample(std::size_t s, std::size_t cell);
  /// The broad phase over segment s, when it pays on the scene
  /// (CellBroadPhase::pays; else none: every pair is near): the (link,
  /// obstacle) pairs whose boxes overlap the box the link may sweep over some
  /// cell, and the cells where they do. Makes every cell's sample.
  const std::vector<CellBroadPhase::NearPair>* findNearObstacles(std::size_t s);
  /// How far any point of the link may move over half of one of the
  /// segment's `cells` cells (the lever bound, SSL 2005, Sec. 3).
  double cellReach(std::size_t s, std::size_t cells, std::size_t link) const {
    return 0.5 / static_cast<double>(cells) * motion_[s].link[link];
  }
  /// l_i + l_j over the whole segment s for pair p: obstacles do not move;
  /// two links move relative to each other (SSL 2005, Sec. 3.2).
  double pairMotionBound(std::size_t s, std::uint32_t p) const {
    return pairs_[p].obstacle >= 0 ? motion_[s].link[static_cast<std::size_t>(pairs_[p].link)]
                                   : motion_[s].self[p - firstSelfPair_];
  }
  /// The distance probes: each segment is cut into cells (cellCount) and
  /// every pair not settled by the nodes' cached bounds gets a distance bound
  /// at each cell's centre, asked for the pair's motion bound over half a
  /// cell, so that a pair that clears it everywhere is certified on the whole
  /// segment (SSL 2005, Eq. 1 between neighbouring centres, and from the end
  /// centres to the nodes with the nodes' distances taken as 0), in rounds
  /// (the probe schedule's rounds).
  /// Returns the first probe found in collision (confirmed on the exact geometry).
  std::optional<Collision> probeCells(const std::vector<std::uint32_t>& nodes);
  /// One probe: the centre of segment s's cell, for every pair still active there.
  std::optional<Collision> probeCentre(std::size_t s, std::size_t cell, const std::vector<std::uint32_t>& nodes);
  /// Certifies what the probes left of segment s: for each unsettled pair,
  /// Eq. 1 between consecutive samples (node, centres, node); what fails is
  /// refined by `certify` and queued.
  void startSegment(std::size_t s, const std::vector<std::uint32_t>& nodes, std::optional<Collision>& collision);
  void pushElement(const Element& element, double l);
  /// Bisects the queued elements, worst first, until the queue is empty or a collision is found.
  std::optional<Collision> bisectQueued();
  /// The pair's lower bound by enclosing spheres at a sample whose poses are
  /// set, raised by the obstacle's enclosing box when below `threshold` (m).
  double enclosingBound(std::uint32_t sample, std::uint32_t pair, double threshold);
  /// The pair's distance bound at a sample, computed or refined until it
  /// answers `threshold`; a new computation starts from the closest triangles
  /// known at the `neighbour` sample (another sample of the same segment).
  /// Empty when the pair touches there, confirmed on the exact geometry.
  std::optional<DistanceBound> ensure(std::uint32_t sample, std::uint32_t pair, double threshold,
                                      std::uint32_t neighbour);
  /// Tries to certify the pair on the element's interval with motion bound l
  /// (SSL 2005, Eq. 1: l_i + l_j < d(q_a) + d(q_b)), refining the endpoint
  /// bounds as far as that can help. Sets `collision` when an endpoint touches.
  bool certify(const Element& element, double l, std::optional<Collision>& collision);
  /// l_i + l_j over the element's interval (l_j = 0 for an obstacle): the
  /// whole segment's bound scaled to the interval, or for a link and an
  /// obstacle the motion models' piece bound (linkPieceBound).
  double motionBound(const Element& element);
  /// How far above what a certificate for motion bound l needs a distance is
  /// asked for, so that a bound reaching it satisfies the strict inequality.
  double certificateSlack(double l) const { return 1e-3 * eta_ + 1e-12 * l; }
  /// A link-obstacle element certified by directional motion bounds (the
  /// motion models' directionalCertificate), counted.
  bool directionalCertificate(const Element& element, const DistanceBound& a, const DistanceBound& b);
  /// Segment s of the path being checked, for the motion models.
  MotionSegment segmentMotion(std::uint32_t s) const { return {*robot_, s, path_[s], path_[s + 1], motion_[s]}; }
  /// A sample as an end of a piece, for the motion models.
  PieceEnd end(std::uint32_t sample) {
    Sample& at = samples_[sample];
    return {at.q, at.poses, at.twists};
  }
  /// The pair's two meshes in their poses at a sample.
  std::pair<PlacedBody, PlacedBody> placedBodies(std::uint32_t sample, std::uint32_t pair);

  AdaptiveSettings settings_;
  double eta_;
  CollisionQueries collision_;
  BvhDistance distance_;
  std::vector<BodyPair> pairs_;
  /// The samples of the path being checked (the first of them its nodes), and the node-bound cache.
  BisectionSamples samples_;
  /// Enclosing spheres (BvhDistance::enclosing): the links' in their
  /// frames, the obstacles' in the world.
  using Sphere = BvhDistance::Sphere;
  std::vector<Sphere> linkSpheres_, obstacleSpheres_;
  std::vector<const BvhDistance::Enclosing*> obstacleBoxes_;  // owned by distance_
  /// Per self pair (index p - firstSelfPair_), its table or null (self_pair_tables).
  std::vector<std::shared_ptr<const SelfPairTable>> selfPairTables_;
  std::size_t firstSelfPair_ = 0;  // pairs_ holds the (link, obstacle) pairs link by link, then the self pairs
  CellBroadPhase broadPhase_;

  // Per-check working state, kept as members to reuse allocations.
  /// Per segment of the path being checked: the sample at each cell's centre
  /// (kNoSample until probed), and the pairs the nodes' bounds did not
  /// settle, with the centres where each was measured.
  std::vector<std::vector<std::uint32_t>> cells_;
  /// [segment]: indices into unsettled_ of the pairs still to be probed.
  std::vector<std::vector<std::uint32_t>> active_;
  std::vector<std::vector<ProbedPair>> unsettled_;
  /// [segment][u * cells + k]: unsettled_[segment][u]'s bound at centre k, where measured.
  std::vector<std::vector<double>> measuredLowers_;
  static constexpr std::uint32_t kNoSample = BisectionSamples::kNone;
  ProbeSchedule schedule_;
  std::priority_queue<Element> queue_;
  std::vector<std::size_t> open_;  // unresolved elements per segment
  Config splitConfig_;
  /// Per segment: l_i per link and l_i + l_j per self pair over the whole
  /// segment, and the acceleration bounds when speed bounds are used.
  std::vector<SegmentMotion> motion_;
  std::span<const Config> path_;  // the path being checked

  /// The cells of roadmap edges an earlier path check's static probes found free.
  StaticFreeCells staticFree_;

  void doStartRounds() override;
  void doEndRound() override;
  void doStopRounds() override;
};

}  // namespace prmkit
