#pragma once
// Lower bounds on the distance between two triangle meshes, by a best-first
// traversal of the bounding-volume traversal tree (pairs of FCL OBBRSS nodes)
// that stops as soon as the bound it can prove reaches what the caller needs.
//
// Why not fcl::distance: the adaptive checker (Schwarzer, Saha, Latombe 2005,
// Sec. 3) only needs to know whether d(q_a) + d(q_b) > l, and the exact FCL
// distance costs 5x to 35x a collision query on the shipped problems. Here the
// answer is min(smallest triangle distance found, smallest RSS distance of the
// node pairs not expanded), which is a lower bound by construction (every
// triangle pair lies under one unexpanded node pair or was measured) whenever
// the traversal stops, so no error tolerance has to be converted back into a
// bound (as FCL's abs_err/rel_err would need). Leaf distances are proven
// lower bounds at every scale (triangle_distance.h), not FCL's triangle
// distance, whose absolute thresholds over-estimate small triangles.
#include "geometry/query_counts.h"
#include "shapes/convex_hull.h"
#include "shapes/mesh.h"
#include "shapes/primitive.h"
#include "scene/scene.h"
#include "robots/robot.h"

#include <array>
#include <limits>
#include <unordered_map>
#include <vector>

namespace prmkit {

/// Largest relative error a distance query may stop at (the strategies'
/// distance_relative_error): a bound answers once lower * (1 + error) >=
/// upper, so past this every query stops at its first bound.
inline constexpr double kMaxDistanceRelativeError = 1e6;

struct DistanceBound {
  /// A lower bound on the distance between the two meshes (m). Negative: not computed.
  double lower = -1.0;
  /// The smallest point-pair distance measured: an upper bound (m).
  double upper = std::numeric_limits<double>::infinity();
  /// Triangles of the two meshes where `upper` was measured (-1: none). A
  /// query at a nearby configuration starts from them (temporal coherence).
  int closest_a = -1, closest_b = -1;
  /// A separating direction found (world frame, from a to b; zero: none). A
  /// query at a nearby configuration tries it first: along an edge the
  /// bodies move little between queries, so it usually still separates them
  /// (the coherence of Mirtich's closest-feature tracking, in one vector).
  Eigen::Vector3d direction = Eigen::Vector3d::Zero();
  /// The proven gap (m) between the two bodies' whole hulls along `direction`
  /// at this query's poses: a plane of normal `direction` separates them by
  /// this much. 0 when `direction` was not proven at these poses.
  double direction_gap = 0.0;
  /// The hulls' support vertices in that direction, where the next search starts.
  int support_a = 0, support_b = 0;
  /// The query stopped where two convex bodies' hulls may touch (lower = 0),
  /// as asked (BvhDistance::AtConvexContact::Stop), before the exact traversal.
  bool convex_contact = false;

  bool known() const { return lower >= 0.0; }
  /// The bodies may touch (the lower bound is zero): an exact collision test decides.
  bool touching() const { return known() && lower <= 0.0; }
  /// What a query with this threshold and relative error would return: the
  /// bound clears the threshold, or the distance is pinned down to within a
  /// factor (1 + relativeError), or a triangle pair may touch (no further
  /// refinement can raise a zero bound).
  bool answers(double threshold, double relativeError) const {
    // The 1e-9 absorbs the rounding margin a proven lower bound keeps below an exact distance.
    return known() && (lower >= threshold || lower * (1.0 + relativeError + 1e-9) >= upper || lower <= 0.0);
  }
};

/// One body of a distance query: its BVH, its convex hull (nullptr: none),
/// its pose and, for a primitive obstacle, the primitive (then the BVH is
/// that of its enclosing mesh, used only for the enclosing volumes).
struct PlacedBody {
  const BvhModel& bvh;
  const ConvexCover* cover;  // nullptr or empty: none
  const Transform& pose;
  const Primitive* primitive = nullptr;
};

/// An obstacle as a distance query sees it (Obstacle::checkedPrimitive).
inline PlacedBody placedObstacle(const Obstacle& obstacle) {
  return PlacedBody{*obstacle.bvh, &obstacle.cover, obstacle.pose, obstacle.checkedPrimitive()};
}

class BvhDistance {
 public:
  BvhDistance() = default;
  /// A copy learns the models again (the recent lookups point into the original's table).
  BvhDistance(const BvhDistance&) {}
  BvhDistance& operator=(const BvhDistance&) = delete;

  /// Lower bound on the distance between two placed bodies, by a cascade
  /// that stops at the first step whose answer clears `threshold` or is
  /// pinned to within (1 + relativeError):
  ///  1. enclosing spheres (centre distance minus radii);
  ///  2. with `useHulls` and both hulls usable (concavity at most 5% of the
  ///     hull's size): the slab gap along the hint's separating direction,
  ///     then GJK between the hulls (gjk.h, warm-started from that
  ///     direction and its support vertices), whose answer is turned into a
  ///     proven bound by the slab gap along the direction it found. A hull contains its mesh, so every
  ///     one of these is a lower bound of the meshes' distance;
  ///  3. the exact BVH traversal below, whose result is combined with step 2's
  ///     by max (both are lower bounds).
  /// When b is a primitive (a never is), step 2 is GJK between a's hull (or
  /// pieces) and the primitive's exact support points, and step 3 a
  /// best-first traversal of a's BVH against the primitive: node boxes and
  /// leaf triangles are bounded by slab gaps along GJK's directions, each a
  /// lower bound of the distance to the primitive itself (not to its
  /// enclosing mesh), so the bound reaches the exact distance.
  /// With `Stop`, a query whose two bodies are each one convex piece (or a
  /// primitive) ends where their hulls may touch, marked `convex_contact`:
  /// such bodies then usually touch, which an exact collision test settles for
  /// less than the traversal that would prove a zero distance.
  enum class AtConvexContact { Traverse, Stop };
  DistanceBound lowerBound(const PlacedBody& a, const PlacedBody& b, double threshold, double relativeError,
                           bool useHulls, QueryCounts& stats, const DistanceBound* hint = nullptr,
                           AtConvexContact atContact = AtConvexContact::Traverse);

  /// True when the two bodies are proven apart without their meshes: by
  /// their enclosing spheres and boxes, or, when both have convex covers, by
  /// a positive slab gap between the covers (whole hulls, then pieces). A
  /// false answer proves nothing: the meshes decide. Counts BV tests and GJK
  /// runs into `stats`, and the pair in `cover_separations` when it is proven apart.
  bool provenApart(const PlacedBody& a, const PlacedBody& b, QueryCounts& stats);

  /// A triangle of mesh a touches or lies inside primitive b: the traversal
  /// of a's BVH against b (lowerBound's step 3) run to the first proven
  /// contact, every node and triangle with a positive slab gap pruned. Its
  /// tolerances are relative to the bodies' size (GJK's closest point within
  /// 1e-12 of it counts as contact, and gaps keep a margin of 64 ulps of the
  /// coordinates), so verdicts do not depend on the unit. Counts a pair test.
  bool primitiveOverlap(const PlacedBody& a, const PlacedBody& b, QueryCounts& stats);

  /// Lower bound on the distance between mesh a in poseA and mesh b in poseB.
  /// Best-first over node pairs (smallest RSS distance first); stops as soon
  /// as every unexplored node pair is at least `threshold` apart (then
  /// lower >= threshold), or at least best / (1 + relativeError), where best
  /// is the smallest point-pair distance measured: the approximate greedy
  /// distance of the lecture slides (prune when (1 + a) min-dist > M).
  /// Pinning distances down exactly is where distance queries spend their
  /// time, and a factor 2 costs few extra bisections.
  /// Counts a distance query, and every BV and triangle test, into `stats`.
  /// The sphere and box that step 1 of the cascade encloses a model in (model
  /// frame, m), for callers that test many pairs by them first.
  struct Enclosing {
    Eigen::Vector3d center;
    double radius;
    Eigen::Vector3d box_center;  // in the box's axes
    Eigen::Matrix3d box_axes;    // as columns
    Eigen::Vector3d box_half_extents;
  };
  const Enclosing& enclosing(const BvhModel& model) { return modelInfo(model).enclosing; }
  /// Enclosing spheres: the links' in their own frames and the obstacles' in the world.
  struct Sphere {
    Eigen::Vector3d centre;
    double radius;
  };
  void enclosingSpheres(const std::vector<Link>& links, const std::vector<Obstacle>& obstacles,
                        std::vector<Sphere>& linkSpheres, std::vector<Sphere>& obstacleSpheres);
  /// Lower bound on the distance from a world point to an enclosing box placed at `pose` (m).
  static double pointBoxDistance(const Eigen::Vector3d& point, const Enclosing& box, const Transform& pose);
  /// Lower bound on the distance between two bodies enclosed in spheres
  /// (world centres, radii in m): the centres' distance less both radii,
  /// less a rounding margin of 64 ulps of the coordinates' magnitude.
  static double sphereGap(const Eigen::Vector3d& centreA, double radiusA, const Eigen::Vector3d& centreB,
                          double radiusB);

  DistanceBound lowerBound(const BvhModel& a, const Transform& poseA, const BvhModel& b, const Transform& poseB,
                           double threshold, double relativeError, QueryCounts& stats,
                           const DistanceBound* hint = nullptr) {
    return lowerBound(PlacedBody{a, nullptr, poseA}, PlacedBody{b, nullptr, poseB}, threshold, relativeError, false,
                      stats, hint);
  }

 private:
  struct NodePair {
    double bound;
    int a, b;
  };
  /// What the traversal precomputes once per model.
  struct ModelInfo {
    /// One triangle under each node: the distance between the first vertices
    /// of two nodes' triangles is an upper bound on the meshes' distance (the
    /// greedy distance of the lecture slides updates its bound M the same way
    /// from max-dist), which lets far pairs stop near the root.
    std::vector<int> node_triangles;
    /// A sphere enclosing the mesh (model frame): the first, cheapest bound;
    /// and an oriented box enclosing it, which encloses it far more tightly
    /// than the sphere when it is flat or long (a shelf board, a table top).
    Enclosing enclosing;
  };
  const ModelInfo& modelInfo(const BvhModel& model);

  /// The enclosing spheres' bound, raised by each sphere against the other
  /// body's enclosing box when it is below `threshold` (step 1).
  double enclosingBound(const PlacedBody& a, const PlacedBody& b, double threshold, QueryCounts& stats);
  double enclosingBound(const ModelInfo& infoA, const PlacedBody& a, const ModelInfo& infoB, const PlacedBody& b,
                        double threshold, QueryCounts& stats);
  /// The BVH traversal (step 3).
  DistanceBound traverse(const PlacedBody& a, const PlacedBody& b, double threshold, double relativeError,
                         QueryCounts& stats, const DistanceBound* hint);
  /// Step 2 of the cascade; returns a bound with lower = 0 when the hulls may touch.
  DistanceBound hullBound(const PlacedBody& a, const PlacedBody& b, double threshold, QueryCounts& stats,
                          const DistanceBound* hint);
  /// Steps 2 and 3 against a primitive b.
  DistanceBound hullPrimitiveBound(const PlacedBody& a, const PlacedBody& b, double threshold, QueryCounts& stats,
                                   const DistanceBound* hint);
  DistanceBound traversePrimitive(const PlacedBody& a, const PlacedBody& b, double threshold, double relativeError,
                                  QueryCounts& stats, const DistanceBound* hint);

  std::vector<NodePair> heap_;  // reused between queries to avoid allocations
  std::unordered_map<const BvhModel*, ModelInfo> models_;
  /// The last models looked up, a slot per few bits of their address: a
  /// static check asks for two models' information several times per pair
  /// (the slots took 4-5 % of a Panda static check's instructions off).
  /// Entries point into models_, whose elements never move.
  static constexpr std::size_t kRecentModels = 16;  // the index takes an address's top 4 bits after mixing
  std::array<std::pair<const BvhModel*, const ModelInfo*>, kRecentModels> recent_{};
};

}  // namespace prmkit
