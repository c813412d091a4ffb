#pragma once
// `swept`: exact edge checking by swept convex volumes (Xavier, "Fast
// swept-volume distance for robust collision detection", ICRA 1997). Over a
// piece of an edge, each link's convex pieces sweep the hull of their
// vertices at the piece's two ends (exactly, when the link only translates),
// grown by how far a turning link strays from those straight lines
// (Robot::linkAccelerationBounds: A w^2 / 8 over a piece of width w); a
// (piece, link, body) element whose swept hulls clear every convex piece of
// the body by more than that growth is free. Elements that do not clear are
// tried by the distance bounds and motion bounds of Schwarzer, Saha and
// Latombe (T-RO 2005, Eq. 1), which also find contacts (confirmed on the
// exact geometry), and split at their midpoint, widest first. It never
// reports a colliding edge as free.
#include "geometry/bvh_distance.h"
#include "checkers/checker.h"
#include "checkers/motion_models.h"
#include "checkers/pair_bounds.h"
#include "checkers/path_probes.h"
#include "geometry/collision_queries.h"
#include "checkers/settings_fields.h"
#include "geometry/swept_hull.h"

#include <map>
#include <queue>
#include <string>

namespace prmkit {

/// Most pieces a pair's check of an edge starts from (SweptChecker::doCheckEdge).
inline constexpr std::size_t kMaxFirstPieces = 64;
/// Most pieces an element is split into at once (SweptChecker::doCheckEdge).
inline constexpr std::size_t kMaxSplitPieces = 16;

struct SweptSettings {
  /// A (piece, pair) element whose motion bound falls below eta (m) without
  /// a certificate is reported Colliding (conservative) and counted in
  /// unresolved_as_colliding. 0 selects 1e-6 of the scene's size.
  double eta = 0.0;
  /// A distance bound asked for by an element that the swept volumes did
  /// not clear is computed to within this relative error (0: exactly).
  double distance_relative_error = 1.0;
  /// `checkPath` first runs a static check at this many points of every
  /// segment at most (one per 1% of the C-space extent, the discretization's
  /// step), in rounds over the segments in van der Corput order, before it
  /// certifies any: most paths a lazy planner checks collide somewhere, and a
  /// static check finds that for less than swept volumes and distances. 0: none.
  int path_probes = 15;
  /// Static checks and distance bounds try the convex covers before the
  /// BVHs (Convex), or use the BVHs alone (Mesh); the swept volumes are
  /// always the convex covers'. Verdicts are exact either way.
  Geometry geometry = Geometry::Convex;

  template <class Fields>
  void fields(Fields& f) {
    f.number("eta", eta, {.min = 0.0, .max = kMaxCoordinate, .length = true, .unit = "m; 0: 1e-6 of the scene's size"});
    f.number("distance_relative_error", distance_relative_error, {.min = 0.0, .max = kMaxDistanceRelativeError});
    f.integer("path_probes", path_probes, {.min = 0.0, .max = 64.0, .unit = "static checks per path segment"});
    f.geometry(geometry);
  }
};

class SweptChecker final : public Checker {
 public:
  using Settings = SweptSettings;
  static constexpr std::string_view kName = "swept";
  /// Its own counters (CheckStats::strategy), in this order.
  static constexpr std::array<CounterSpec, 5> kCounters{
      {kBisectionStepsCounter,
       kQueuePushesCounter,
       {"swept_tests", "count", "swept convex hull tests against one convex set of a body"},
       {"swept_certificates", "count", "(interval, pair) elements certified by swept volumes"},
       kUnresolvedCounter}};
  enum Counter : std::size_t { kBisectionSteps, kQueuePushes, kSweptTests, kSweptCertificates, kUnresolvedAsColliding };
  SweptChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, SweptSettings settings);
  std::string name() const override { return std::string(kName); }
  std::string description() const override;
  bool exact() const override { return true; }
  /// A piece's swept volume holds the link at both of the piece's ends.
  bool freeEdgesCoverEnds() const override { return true; }
  std::unique_ptr<Checker> clone() const override;
  /// The eta in use (m), after the scene-relative default is applied.
  double eta() const { return eta_; }

 private:
  std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const override;
  SweptChecker(const SweptChecker& other);
  bool doIsValid(const Config& q) override;
  EdgeResult doCheckEdge(const Config& a, const Config& b) override;
  /// Static probes over the whole path (SweptSettings::path_probes), then segment by segment.
  PathResult doCheckPath(std::span<const Config> path) override;

  /// A configuration on the edge: an end or a split point.
  struct Sample {
    double t;
    Config q;
    std::vector<Transform> poses;        // every link's
    std::vector<DistanceBound> bounds;   // per pair, where asked for
    std::vector<std::uint32_t> touched;  // pairs whose bound is known
  };
  /// One unsettled (piece of the edge, pair) element, widest first.
  struct Element {
    double width;
    std::uint32_t pair;
    std::uint32_t sample_a, sample_b;
    bool operator<(const Element& other) const {
      if (width != other.width) return width < other.width;
      if (pair != other.pair) return pair > other.pair;
      return sample_a > other.sample_a;
    }
  };

  /// The sample at parameter t of the edge being checked, made if new.
  std::uint32_t sampleAt(double t);
  /// How far any point of the link strays over a piece of the edge of this
  /// width from the straight segment between its positions at the piece's
  /// ends (m): A w^2 / 8 with the robot's acceleration bound A, or half the
  /// piece's motion bound, whichever is smaller (with a rounding margin).
  double growth(std::size_t link, double width) const;
  /// The growth a pair's swept hulls must clear: the link's, plus the other link's for a self-collision pair.
  double pairGrowth(std::uint32_t pair, double width) const;
  /// What the swept volumes of an element show (Xavier 1997): every swept
  /// hull clears the other body's convex sets by more than the growth
  /// (Apart); some clears by less (Closer: a narrower piece of the edge
  /// grows less and may clear); or some may touch, or a body has no convex
  /// cover (MayTouch: distance bounds decide).
  enum class Clearance { Apart, Closer, MayTouch };
  /// The clearance and, unless Apart, the proven gap (m) of the swept set that did not clear.
  struct Swept {
    Clearance clearance;
    double gap;
  };
  Swept sweptTest(const Element& element);
  /// How a proven gap (m) compares with the growth it must exceed.
  static Swept classify(double gap, double growth);
  /// The link's swept convex pieces against the obstacle's pieces (or its primitive).
  /// `warm`: the pair's warm start for the whole hulls' search.
  Swept sweptAgainstObstacle(std::size_t link, const Transform& from, const Transform& to, const Obstacle& obstacle,
                             double growth, SweptWarmStart& warm);
  /// The two links' swept convex hulls against each other.
  Swept sweptAgainstLink(std::size_t link, std::size_t other, const Sample& a, const Sample& b, double growth,
                         SweptWarmStart& warm);
  /// The pair's distance bound at a sample, computed or refined until it
  /// answers `threshold`; empty when the pair touches there (confirmed on the
  /// exact geometry).
  std::optional<DistanceBound> boundAt(std::uint32_t sample, std::uint32_t pair, double threshold,
                                       std::uint32_t neighbour);
  /// SSL 2005, Eq. 1 on the element: the motion bound l of its pair over its
  /// width is below the distance bounds at its ends. Sets `contact` to the
  /// sample where the pair touches, if it does.
  bool certifiedByDistances(const Element& element, std::optional<std::uint32_t>& contact);

  SweptSettings settings_;
  double eta_;
  ProbeSchedule schedule_;
  CollisionQueries collision_;
  BvhDistance distance_;
  std::vector<BodyPair> pairs_;
  using Sphere = BvhDistance::Sphere;
  std::vector<Sphere> linkSpheres_, obstacleSpheres_;  // links' in their frames, obstacles' in the world

  // Per-edge working state, kept as members to reuse allocations.
  Config edgeA_, edgeB_;
  std::vector<Sample> samples_;
  std::size_t sampleCount_ = 0;
  std::map<double, std::uint32_t> samplesByT_;
  SegmentMotion motion_;            // the whole edge's motion bounds (m) and acceleration bounds (none: empty)
  std::vector<double> pairMotion_;  // per pair (m)
  std::priority_queue<Element> queue_;
  std::vector<SweptWarmStart> warm_;      // per pair, for the whole hulls' search
  std::vector<int> nearObstacles_;        // a broad-phase query's answer
  std::vector<std::uint32_t> edgePairs_;  // the pairs the broad phase leaves to the narrow phase
};

}  // namespace prmkit
