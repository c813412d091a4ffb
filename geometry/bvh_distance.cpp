#include "geometry/bvh_distance.h"

#include "geometry/gjk.h"
#include "geometry/slab_gap.h"
#include "geometry/triangle_distance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace prmkit {

const BvhDistance::ModelInfo& BvhDistance::modelInfo(const BvhModel& model) {
  // Fibonacci hashing: the address's bits mixed into the top ones.
  auto& recent = recent_[(reinterpret_cast<std::uintptr_t>(&model) * 0x9E3779B97F4A7C15ull) >> 60];
  if (recent.first == &model) return *recent.second;
  auto [entry, inserted] = models_.try_emplace(&model);
  if (inserted) {
    ModelInfo& info = entry->second;
    // Children come after their parent in FCL's node array, so walk it backwards.
    info.node_triangles.resize(static_cast<std::size_t>(model.getNumBVs()));
    for (int i = model.getNumBVs() - 1; i >= 0; --i) {
      const auto& node = model.getBV(i);
      info.node_triangles[static_cast<std::size_t>(i)] =
          node.isLeaf() ? node.primitiveId() : info.node_triangles[static_cast<std::size_t>(node.first_child)];
    }
    Eigen::AlignedBox3d box;
    for (int v = 0; v < model.num_vertices; ++v) box.extend(model.vertices[v]);
    Enclosing& enclosing = info.enclosing;
    enclosing.center = box.center();
    enclosing.radius = 0.0;
    for (int v = 0; v < model.num_vertices; ++v)
      enclosing.radius = std::max(enclosing.radius, (model.vertices[v] - enclosing.center).norm());
    // FCL's root axes, but the extents measured here over every vertex, so
    // that the box encloses the mesh whatever FCL's fit did.
    enclosing.box_axes = model.getBV(0).bv.obb.axis;
    Eigen::AlignedBox3d local;
    for (int v = 0; v < model.num_vertices; ++v)
      local.extend(Eigen::Vector3d(enclosing.box_axes.transpose() * model.vertices[v]));
    enclosing.box_center = local.center();
    enclosing.box_half_extents = 0.5 * local.sizes();
  }
  recent = {&model, &entry->second};
  return entry->second;
}

void BvhDistance::enclosingSpheres(const std::vector<Link>& links, const std::vector<Obstacle>& obstacles,
                                   std::vector<Sphere>& linkSpheres, std::vector<Sphere>& obstacleSpheres) {
  linkSpheres.clear();
  obstacleSpheres.clear();
  for (const Link& link : links) {
    const Enclosing& e = enclosing(*link.bvh);
    linkSpheres.push_back({e.center, e.radius});
  }
  for (const Obstacle& obstacle : obstacles) {
    const Enclosing& e = enclosing(*obstacle.bvh);
    obstacleSpheres.push_back({obstacle.pose * e.center, e.radius});
  }
}

namespace {
bool usable(const ConvexCover* cover) { return cover && !cover->empty(); }

/// Calls visit(piece) on each piece of the cover (placed by `pose`) whose
/// group's sphere comes within `threshold` of the sphere (world `centre`,
/// `radius`); a group beyond it lowers `lower` to its sphere gap instead (a
/// lower bound for every piece in it). Returns true as soon as visit does.
template <class Visit>
bool visitNearPieces(const ConvexCover& cover, const Transform& pose, const Eigen::Vector3d& centre, double radius,
                     double threshold, double& lower, QueryCounts& stats, Visit&& visit) {
  const auto near = [&](const ConvexCover::Group& group) {
    ++stats.bv_tests;
    const double gap = BvhDistance::sphereGap(centre, radius, pose * group.center, group.radius);
    if (gap < threshold) return true;
    lower = std::min(lower, gap);
    return false;
  };
  return visitGroupedPieces(cover, near, visit);
}
}  // namespace

double BvhDistance::pointBoxDistance(const Eigen::Vector3d& point, const Enclosing& box, const Transform& pose) {
  const Eigen::Vector3d local = box.box_axes.transpose() * (pose.inverse() * point) - box.box_center;
  const Eigen::Vector3d outside = (local.cwiseAbs() - box.box_half_extents).cwiseMax(0.0);
  // Less a rounding margin for the frame changes, relative to the coordinates' magnitude.
  const double magnitude =
      point.norm() + pose.translation().norm() + box.box_center.norm() + box.box_half_extents.norm();
  return outside.norm() - 64.0 * std::numeric_limits<double>::epsilon() * magnitude;
}

double BvhDistance::sphereGap(const Eigen::Vector3d& centreA, double radiusA, const Eigen::Vector3d& centreB,
                              double radiusB) {
  // 2 max |coordinate| bounds each centre's norm, without a square root.
  const double magnitude = 2.0 * (centreA.cwiseAbs().maxCoeff() + centreB.cwiseAbs().maxCoeff()) + radiusA + radiusB;
  return (centreA - centreB).norm() - radiusA - radiusB - 64.0 * std::numeric_limits<double>::epsilon() * magnitude;
}

namespace {
/// The slab gap along the hint's direction by climbing from its support
/// vertices (gjk.h): cheap, and exact on a convex hull up to rounding, but
/// only a guess of whether the proven gap (slabGap) is worth computing.
double coherentEstimate(const ConvexHull& a, const Transform& poseA, const ConvexHull& b, const Transform& poseB,
                        const DistanceBound& hint) {
  const Eigen::Vector3d& u = hint.direction;
  const int va = supportVertex(a, poseA.linear().transpose() * u, hint.support_a);
  const int vb = supportVertex(b, poseB.linear().transpose() * -u, hint.support_b);
  return u.dot(poseB * b.vertices[static_cast<std::size_t>(vb)] - poseA * a.vertices[static_cast<std::size_t>(va)]) /
         u.norm();
}
}  // namespace

double BvhDistance::enclosingBound(const PlacedBody& a, const PlacedBody& b, double threshold, QueryCounts& stats) {
  return enclosingBound(modelInfo(a.bvh), a, modelInfo(b.bvh), b, threshold, stats);
}

double BvhDistance::enclosingBound(const ModelInfo& infoA, const PlacedBody& a, const ModelInfo& infoB,
                                   const PlacedBody& b, double threshold, QueryCounts& stats) {
  // Enclosing spheres first: far pairs end here without a frame change.
  ++stats.bv_tests;
  const Enclosing& enclosingA = infoA.enclosing;
  const Enclosing& enclosingB = infoB.enclosing;
  const Eigen::Vector3d centerA = a.pose * enclosingA.center, centerB = b.pose * enclosingB.center;
  const double spheres = sphereGap(centerA, enclosingA.radius, centerB, enclosingB.radius);
  if (spheres >= threshold) return spheres;
  // Each sphere against the other body's enclosing box: every point of a body
  // lies in its sphere and in its box, so the distance from one sphere's
  // centre to the other's box, less the radius, is a lower bound too.
  ++stats.bv_tests;
  return std::max({spheres, pointBoxDistance(centerA, enclosingB, b.pose) - enclosingA.radius,
                   pointBoxDistance(centerB, enclosingA, a.pose) - enclosingB.radius});
}

bool BvhDistance::provenApart(const PlacedBody& a, const PlacedBody& b, QueryCounts& stats) {
  // Any proven positive gap settles the pair. GJK is asked for a gap well
  // above the slab gap's rounding margin (relative to the bodies' size), so
  // that a search that stops early still leaves a gap the proof keeps.
  const ModelInfo& infoA = modelInfo(a.bvh);
  const ModelInfo& infoB = modelInfo(b.bvh);
  const double wanted = 1e-9 * (infoA.enclosing.radius + infoB.enclosing.radius);
  bool apart = enclosingBound(infoA, a, infoB, b, wanted, stats) > 0.0;
  if (!apart && usable(a.cover) && b.primitive)
    apart = hullPrimitiveBound(a, b, wanted, stats, nullptr).lower > 0.0;
  else if (!apart && usable(a.cover) && usable(b.cover))
    apart = hullBound(a, b, wanted, stats, nullptr).lower > 0.0;
  if (apart) ++stats.cover_separations;
  return apart;
}

DistanceBound BvhDistance::lowerBound(const PlacedBody& a, const PlacedBody& b, double threshold, double relativeError,
                                      bool useHulls, QueryCounts& stats, const DistanceBound* hint,
                                      AtConvexContact atContact) {
  ++stats.distance_queries;
  const double sphereBound = enclosingBound(a, b, threshold, stats);
  if (sphereBound >= threshold) {
    DistanceBound far{sphereBound, std::numeric_limits<double>::infinity()};
    if (hint) {
      far.closest_a = hint->closest_a;
      far.closest_b = hint->closest_b;
      far.direction = hint->direction;
      far.support_a = hint->support_a;
      far.support_b = hint->support_b;
    }
    return far;
  }
  const bool primitive = b.primitive != nullptr;
  auto exactBound = [&] {
    if (!primitive) return traverse(a, b, threshold, relativeError, stats, hint);
    ++stats.bvh_traversals;
    DistanceBound bound = traversePrimitive(a, b, threshold, relativeError, stats, hint);
    if (bound.lower < threshold) ++stats.exact_distance_queries;
    return bound;
  };
  if (!useHulls || !usable(a.cover) || !(primitive || usable(b.cover))) return exactBound();
  const DistanceBound hulls =
      primitive ? hullPrimitiveBound(a, b, threshold, stats, hint) : hullBound(a, b, threshold, stats, hint);
  if (hulls.lower >= threshold || (hulls.lower > 0.0 && hulls.lower * (1.0 + relativeError + 1e-9) >= hulls.upper)) {
    ++stats.hull_answers;
    return hulls;
  }
  if (atContact == AtConvexContact::Stop && hulls.lower <= 0.0 && a.cover->pieces.size() == 1 &&
      (primitive || b.cover->pieces.size() == 1)) {
    DistanceBound contact = hulls;
    contact.convex_contact = true;
    return contact;
  }
  DistanceBound exact = exactBound();
  exact.lower = std::max(exact.lower, hulls.lower);  // both are lower bounds
  exact.direction = hulls.direction;
  exact.direction_gap = hulls.direction_gap;
  exact.support_a = hulls.support_a;
  exact.support_b = hulls.support_b;
  return exact;
}

DistanceBound BvhDistance::hullBound(const PlacedBody& a, const PlacedBody& b, double threshold, QueryCounts& stats,
                                     const DistanceBound* hint) {
  DistanceBound result;
  result.lower = 0.0;
  if (hint) {
    result.closest_a = hint->closest_a;
    result.closest_b = hint->closest_b;
  }
  // Whole hulls first: each contains its body's pieces (and every vertex of
  // its mesh), so their slab gaps bound the meshes; a multi-piece body only
  // needs its pieces when its whole hull comes closer than the threshold.
  const auto& hullA = a.cover->hull;
  const auto& hullB = b.cover->hull;
  const bool warm = hint && !hint->direction.isZero();
  if (warm && coherentEstimate(*hullA, a.pose, *hullB, b.pose, *hint) >= threshold) {
    // The estimate climbed from the last supports; the proof scans every vertex.
    const double gap = slabGap(*hullA, a.pose, *hullB, b.pose, hint->direction);
    if (gap >= threshold) {
      ++stats.coherent_answers;
      result.lower = gap;
      result.direction_gap = gap;
      result.direction = hint->direction;
      result.support_a = hint->support_a;
      result.support_b = hint->support_b;
      return result;
    }
  }
  ++stats.gjk_queries;
  // Asked for a little more than the threshold, so that the proven gap (the
  // search's estimate less a rounding margin) still clears it.
  const GjkResult gjk = gjkSeparation(*hullA, a.pose, *hullB, b.pose, warm ? hint->direction : Eigen::Vector3d::Zero(),
                                      hint ? hint->support_a : 0, hint ? hint->support_b : 0, threshold * (1.0 + 1e-9));
  stats.gjk_iterations += static_cast<std::uint64_t>(gjk.iterations);
  const bool separated = !gjk.may_overlap && gjk.distance > 0.0;
  if (separated) {
    result.lower = slabGap(*hullA, a.pose, *hullB, b.pose, gjk.direction);
    result.direction_gap = result.lower;
    result.direction = gjk.direction.normalized();
    result.support_a = gjk.vertex_a;
    result.support_b = gjk.vertex_b;
    // Not a proven upper bound (concavity is measured at vertices): it only
    // decides when the hulls' answer is precise enough, never soundness.
    result.upper = gjk.distance + hullA->concavity + hullB->concavity;
  }
  const auto& piecesA = a.cover->pieces;
  const auto& piecesB = b.cover->pieces;
  // Lower 0 when the whole hulls may overlap: the pieces or the traversal decide.
  if ((piecesA.size() == 1 && piecesB.size() == 1) || result.lower >= threshold) return result;
  // Several pieces: the distance between the unions is the smallest over
  // piece pairs; each pair is bounded by its enclosing spheres or by GJK.
  double lower = std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  const Enclosing& enclosingB = modelInfo(b.bvh).enclosing;
  for (const auto& pieceA : piecesA) {
    const Eigen::Vector3d centerA = a.pose * pieceA->center;
    // The piece's sphere against b's enclosing box first: a large flat body
    // (a wall, a lid) near a link's hull is far from most of its pieces, yet
    // its own sphere is too large to tell them apart.
    ++stats.bv_tests;
    const double boxGap = pointBoxDistance(centerA, enclosingB, b.pose) - pieceA->bounding_radius;
    if (boxGap >= threshold) {
      lower = std::min(lower, boxGap);
      continue;
    }
    const bool overlap = visitNearPieces(
        *b.cover, b.pose, centerA, pieceA->bounding_radius, threshold, lower, stats, [&](const ConvexHull& pieceB) {
          ++stats.bv_tests;
          // A lower bound, so less the rounding margin every sphere gap keeps (sphereGap).
          const double spheres =
              sphereGap(centerA, pieceA->bounding_radius, b.pose * pieceB.center, pieceB.bounding_radius);
          if (spheres >= threshold) {
            lower = std::min(lower, spheres);
            return false;
          }
          ++stats.gjk_queries;
          const GjkResult pieceGjk =
              gjkSeparation(*pieceA, a.pose, pieceB, b.pose, Eigen::Vector3d::Zero(), 0, 0, threshold * (1.0 + 1e-9));
          stats.gjk_iterations += static_cast<std::uint64_t>(pieceGjk.iterations);
          if (pieceGjk.may_overlap || !(pieceGjk.distance > 0.0)) return true;
          const double pieceLower = slabGap(*pieceA, a.pose, pieceB, b.pose, pieceGjk.direction);
          lower = std::min(lower, pieceLower);
          upper = std::min(upper, pieceGjk.distance + pieceA->concavity + pieceB.concavity);
          return false;
        });
    if (overlap) return result;  // the whole hulls' bound stands; the traversal decides
  }
  // Both the whole hulls' gap and the pieces' smallest gap are lower bounds.
  result.lower = std::max(result.lower, lower);
  result.upper = std::max(upper, result.lower);
  return result;
}

DistanceBound BvhDistance::hullPrimitiveBound(const PlacedBody& a, const PlacedBody& b, double threshold,
                                              QueryCounts& stats, const DistanceBound* hint) {
  DistanceBound result;
  result.lower = 0.0;
  if (hint) result.closest_a = hint->closest_a;
  const ConvexHull& hull = *a.cover->hull;
  const Primitive& primitive = *b.primitive;
  const bool warm = hint && !hint->direction.isZero();
  if (warm) {
    // As for two hulls: climb from the last support vertex for an estimate,
    // and prove the gap over every vertex only when the estimate clears.
    const Eigen::Vector3d& u = hint->direction;
    const int vertex = supportVertex(hull, a.pose.linear().transpose() * u, hint->support_a);
    const double estimate =
        (-placedSupport(primitive, b.pose, -u) - u.dot(a.pose * hull.vertices[static_cast<std::size_t>(vertex)])) /
        u.norm();
    if (estimate >= threshold) {
      const double gap = slabGap(hull, a.pose, primitive, b.pose, u);
      if (gap >= threshold) {
        ++stats.coherent_answers;
        result.lower = gap;
        result.direction_gap = gap;
        result.direction = u;
        result.support_a = vertex;
        return result;
      }
    }
  }
  ++stats.gjk_queries;
  const GjkResult gjk = gjkSeparation(hull, a.pose, primitive, b.pose, warm ? hint->direction : Eigen::Vector3d::Zero(),
                                      hint ? hint->support_a : 0, threshold * (1.0 + 1e-9));
  stats.gjk_iterations += static_cast<std::uint64_t>(gjk.iterations);
  if (!gjk.may_overlap && gjk.distance > 0.0) {
    result.lower = slabGap(hull, a.pose, primitive, b.pose, gjk.direction);
    result.direction_gap = result.lower;
    result.direction = gjk.direction.normalized();
    result.support_a = gjk.vertex_a;
    result.upper = gjk.distance + hull.concavity;
  }
  const auto& pieces = a.cover->pieces;
  if (pieces.size() == 1 || result.lower >= threshold) return result;
  double lower = std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  const bool overlap = visitNearPieces(
      *a.cover, a.pose, b.pose.translation(), primitive.boundingRadius(), threshold, lower, stats,
      [&](const ConvexHull& piece) {
        ++stats.bv_tests;
        const double spheres =
            sphereGap(a.pose * piece.center, piece.bounding_radius, b.pose.translation(), primitive.boundingRadius());
        if (spheres >= threshold) {
          lower = std::min(lower, spheres);
          return false;
        }
        ++stats.gjk_queries;
        const GjkResult pieceGjk =
            gjkSeparation(piece, a.pose, primitive, b.pose, Eigen::Vector3d::Zero(), 0, threshold * (1.0 + 1e-9));
        stats.gjk_iterations += static_cast<std::uint64_t>(pieceGjk.iterations);
        if (pieceGjk.may_overlap || !(pieceGjk.distance > 0.0)) return true;
        lower = std::min(lower, slabGap(piece, a.pose, primitive, b.pose, pieceGjk.direction));
        upper = std::min(upper, pieceGjk.distance + piece.concavity);
        return false;
      });
  if (overlap) return result;
  result.lower = std::max(result.lower, lower);
  result.upper = std::max(upper, result.lower);
  return result;
}

bool BvhDistance::primitiveOverlap(const PlacedBody& a, const PlacedBody& b, QueryCounts& stats) {
  ++stats.pair_tests;
  // Any proven positive gap is enough: the smallest positive threshold.
  return traversePrimitive(a, b, std::numeric_limits<double>::denorm_min(), 0.0, stats, nullptr).lower <= 0.0;
}

namespace {
/// The best-first search both distance traversals share (the node-pair queue
/// of Larsen, Gottschalk, Lin and Manocha's PQP): pairs leave the heap closest
/// bound first while they can beat the cutoff; each first offers a point pair
/// (an upper bound, which may lower the cutoff), then is measured at the
/// leaves (`measureLeaf` returns true when they touch, which ends the search)
/// or split (`split(pair, push)` pushes its children with their bounds).
/// Returns the smallest bound of a pair not queued; `heap` keeps the pairs
/// not popped.
template <class Pair, class Cutoff, class NodePoint, class Leaf, class MeasureLeaf, class Split>
double bestFirst(std::vector<Pair>& heap, Cutoff&& cutoff, NodePoint&& nodePoint, Leaf&& leaf,
                 MeasureLeaf&& measureLeaf, Split&& split) {
  const auto closerFirst = [](const Pair& x, const Pair& y) { return x.bound > y.bound; };
  double pruned = std::numeric_limits<double>::infinity();
  auto push = [&](const Pair& child) {
    if (child.bound >= cutoff()) {
      pruned = std::min(pruned, child.bound);
    } else {
      heap.push_back(child);
      std::push_heap(heap.begin(), heap.end(), closerFirst);
    }
  };
  while (!heap.empty()) {
    const Pair top = heap.front();
    if (top.bound >= cutoff()) break;
    std::pop_heap(heap.begin(), heap.end(), closerFirst);
    heap.pop_back();
    nodePoint(top);
    if (top.bound >= cutoff()) {
      pruned = std::min(pruned, top.bound);
      continue;
    }
    if (leaf(top)) {
      if (measureLeaf(top)) {
        heap.clear();
        break;
      }
      continue;
    }
    split(top, push);
  }
  return pruned;
}

/// A mesh measured against a primitive in the primitive's frame, where its
/// support points are closed forms: the distance from a convex set of support
/// function h to the primitive is at least the slab gap <n, support(-n)> -
/// h(n) for any unit n (a to b); GJK finds the n that makes it the distance.
struct PrimitiveFrame {
  const Primitive& primitive;
  Eigen::Matrix3d rotation;  // a's frame to the primitive's
  Eigen::Vector3d translation;
  double scale;  // the coordinates' magnitude, for rounding margins
  QueryCounts& stats;

  template <class Reach>
  double gapAlong(const Eigen::Vector3d& direction, Reach&& reach) const {
    const double length = direction.norm();
    if (!(length > 0.0) || !std::isfinite(length)) return 0.0;
    const Eigen::Vector3d n = direction / length;
    return provenGap(n.dot(primitive.support(-n)) - reach(n), scale);
  }

  /// A lower bound for a node's oriented box (its triangles' vertices lie in
  /// it): along the line of centres first (one support point each), then by
  /// GJK when that is below `enough`.
  template <class Box>
  double boxBound(const Box& box, double enough) const {
    using Eigen::Vector3d;
    ++stats.bv_tests;
    const Vector3d center = rotation * box.To + translation;
    const Eigen::Matrix3d axes = rotation * box.axis;
    auto reach = [&](const Vector3d& n) { return n.dot(center) + (axes.transpose() * n).cwiseAbs().dot(box.extent); };
    const double cheap = gapAlong(-center, reach);
    if (cheap >= enough) return cheap;
    ++stats.gjk_queries;
    auto boxSupport = [&](const Vector3d& d) {
      const Vector3d local = axes.transpose() * d;
      Vector3d point = center;
      for (int k = 0; k < 3; ++k) point += (local[k] < 0.0 ? -box.extent[k] : box.extent[k]) * axes.col(k);
      return point;
    };
    const GjkResult gjk = gjkAgainstPrimitive(
        boxSupport, primitive, center.isZero() ? Vector3d(Vector3d::UnitX()) : center, enough * (1.0 + 1e-9), scale);
    stats.gjk_iterations += static_cast<std::uint64_t>(gjk.iterations);
    if (gjk.may_overlap) return cheap;
    return std::max(cheap, gapAlong(gjk.direction, reach));
  }

  /// A triangle (corners in a's frame) against the primitive: a proven lower
  /// bound and a measured distance (both 0 where they may overlap).
  std::pair<double, double> triangle(const std::array<Eigen::Vector3d, 3>& local, double cutoff) const {
    using Eigen::Vector3d;
    ++stats.primitive_tests;
    ++stats.gjk_queries;
    const std::array<Vector3d, 3> corners = {rotation * local[0] + translation, rotation * local[1] + translation,
                                             rotation * local[2] + translation};
    auto reach = [&](const Vector3d& n) { return std::max({n.dot(corners[0]), n.dot(corners[1]), n.dot(corners[2])}); };
    auto triangleSupport = [&](const Vector3d& d) {
      const double d0 = d.dot(corners[0]), d1 = d.dot(corners[1]), d2 = d.dot(corners[2]);
      return d0 >= d1 ? (d0 >= d2 ? corners[0] : corners[2]) : (d1 >= d2 ? corners[1] : corners[2]);
    };
    const Vector3d centroid = (corners[0] + corners[1] + corners[2]) / 3.0;
    const GjkResult gjk =
        gjkAgainstPrimitive(triangleSupport, primitive, centroid.isZero() ? Vector3d(Vector3d::UnitX()) : centroid,
                            cutoff * (1.0 + 1e-9), scale);
    stats.gjk_iterations += static_cast<std::uint64_t>(gjk.iterations);
    if (gjk.may_overlap) return {0.0, 0.0};
    return {gapAlong(gjk.direction, reach), gjk.distance};
  }
};
}  // namespace

DistanceBound BvhDistance::traversePrimitive(const PlacedBody& bodyA, const PlacedBody& bodyB, double threshold,
                                             double relativeError, QueryCounts& stats, const DistanceBound* hint) {
  using Eigen::Vector3d;
  const BvhModel& a = bodyA.bvh;
  const ModelInfo& infoA = modelInfo(a);
  const Transform relative = bodyB.pose.inverse() * bodyA.pose;
  const Vector3d translation = relative.translation();
  const PrimitiveFrame frame{
      *bodyB.primitive, relative.linear(), translation,
      translation.norm() + infoA.enclosing.center.norm() + infoA.enclosing.radius + bodyB.primitive->boundingRadius(),
      stats};
  double best = std::numeric_limits<double>::infinity();  // an upper bound: a measured point pair
  double leafLower = std::numeric_limits<double>::infinity();
  int closest = -1;
  auto offer = [&](double distance, int triangle) {
    if (distance < best) {
      best = distance;
      closest = triangle;
    }
  };
  auto cutoff = [&] { return std::min(threshold, best / (1.0 + relativeError)); };
  auto measureTriangle = [&](int triangle) {
    const fcl::Triangle& t = a.tri_indices[triangle];
    const auto [lower, distance] = frame.triangle({a.vertices[t[0]], a.vertices[t[1]], a.vertices[t[2]]}, cutoff());
    leafLower = std::min(leafLower, lower);
    offer(distance, triangle);
  };
  if (hint && hint->closest_a >= 0 && hint->closest_a < a.num_tris) measureTriangle(hint->closest_a);

  heap_.clear();
  if (leafLower > 0.0) heap_.push_back({frame.boxBound(a.getBV(0).bv.obb, cutoff()), 0, -1});
  const double pruned = bestFirst(
      heap_, cutoff,
      // An upper bound near the root: a vertex of the node's first triangle, whose distance to the primitive is exact.
      [&](const NodePair& pair) {
        const int triangle = infoA.node_triangles[static_cast<std::size_t>(pair.a)];
        const Vector3d x = frame.rotation * a.vertices[a.tri_indices[triangle][0]] + frame.translation;
        offer((x - frame.primitive.closestPoint(x)).norm(), triangle);
      },
      [&](const NodePair& pair) { return a.getBV(pair.a).isLeaf(); },
      [&](const NodePair& pair) {
        measureTriangle(a.getBV(pair.a).primitiveId());
        return leafLower <= 0.0;
      },
      [&](const NodePair& pair, auto&& push) {
        for (int child = 0; child < 2; ++child) {
          const int i = a.getBV(pair.a).first_child + child;
          push(NodePair{frame.boxBound(a.getBV(i).bv.obb, cutoff()), i, -1});
        }
      });
  double lower = std::min(leafLower, pruned);
  if (!heap_.empty()) lower = std::min(lower, heap_.front().bound);
  return DistanceBound{std::max(lower, 0.0), best, closest, -1};
}

DistanceBound BvhDistance::traverse(const PlacedBody& bodyA, const PlacedBody& bodyB, double threshold,
                                    double relativeError, QueryCounts& stats, const DistanceBound* hint) {
  const BvhModel& a = bodyA.bvh;
  const BvhModel& b = bodyB.bvh;
  const Transform& poseA = bodyA.pose;
  const Transform& poseB = bodyB.pose;
  ++stats.bvh_traversals;
  const ModelInfo& infoA = modelInfo(a);
  const ModelInfo& infoB = modelInfo(b);

  // Everything else is measured in a's frame; b's nodes are mapped by (R, T).
  const Transform relative = poseA.inverse() * poseB;
  const Eigen::Matrix3d rotation = relative.linear();
  const Eigen::Vector3d translation = relative.translation();

  // FCL's RSS distances are trusted up to a rounding margin relative to the
  // coordinates' magnitude, as the slab gaps are (64 ulps of it).
  const double nodeMargin = 64.0 * std::numeric_limits<double>::epsilon() *
                            (translation.norm() + infoA.enclosing.center.norm() + infoA.enclosing.radius +
                             infoB.enclosing.center.norm() + infoB.enclosing.radius);
  auto nodeDistance = [&](int i, int j) {
    ++stats.bv_tests;
    return fcl::distance(rotation, translation, a.getBV(i).bv, b.getBV(j).bv) - nodeMargin;
  };
  auto mapB = [&](int vertex) -> Eigen::Vector3d { return rotation * b.vertices[vertex] + translation; };

  double best = std::numeric_limits<double>::infinity();  // smallest point-pair distance measured: an upper bound
  // Smallest proven lower bound of the triangle pairs measured: the leaves'
  // share of the answer (an exact leaf distance would serve, but a computed
  // one can err upwards; see triangle_distance.h).
  double leafLower = std::numeric_limits<double>::infinity();
  int closestA = -1, closestB = -1;
  auto offer = [&](double distance, int triangleA, int triangleB) {
    if (distance < best) {
      best = distance;
      closestA = triangleA;
      closestB = triangleB;
    }
  };
  auto measureTriangles = [&](int triangleA, int triangleB) {
    ++stats.primitive_tests;
    const fcl::Triangle& s = a.tri_indices[triangleA];
    const fcl::Triangle& t = b.tri_indices[triangleB];
    const TriangleDistance d =
        triangleDistance(a.vertices[s[0]], a.vertices[s[1]], a.vertices[s[2]], mapB(t[0]), mapB(t[1]), mapB(t[2]));
    leafLower = std::min(leafLower, d.lower);
    offer(d.upper, triangleA, triangleB);
  };
  auto nodePointDistance = [&](int i, int j) {
    const int triangleA = infoA.node_triangles[static_cast<std::size_t>(i)];
    const int triangleB = infoB.node_triangles[static_cast<std::size_t>(j)];
    const double distance =
        (rotation * b.vertices[b.tri_indices[triangleB][0]] + translation - a.vertices[a.tri_indices[triangleA][0]])
            .norm();
    offer(distance, triangleA, triangleB);
  };
  if (hint && hint->closest_a >= 0 && hint->closest_a < a.num_tris && hint->closest_b >= 0 &&
      hint->closest_b < b.num_tris)
    measureTriangles(hint->closest_a, hint->closest_b);

  auto cutoff = [&] { return std::min(threshold, best / (1.0 + relativeError)); };
  heap_.clear();
  heap_.push_back({nodeDistance(0, 0), 0, 0});
  // The smallest bound of a node pair not queued.
  const double pruned = bestFirst(
      heap_, cutoff, [&](const NodePair& pair) { nodePointDistance(pair.a, pair.b); },
      [&](const NodePair& pair) { return a.getBV(pair.a).isLeaf() && b.getBV(pair.b).isLeaf(); },
      [&](const NodePair& pair) {
        measureTriangles(a.getBV(pair.a).primitiveId(), b.getBV(pair.b).primitiveId());
        return leafLower <= 0.0;
      },
      [&](const NodePair& pair, auto&& push) {
        // Descend into the larger volume, as FCL's own traversals do.
        const auto& nodeA = a.getBV(pair.a);
        const auto& nodeB = b.getBV(pair.b);
        const bool splitA = !nodeA.isLeaf() && (nodeB.isLeaf() || nodeA.bv.size() > nodeB.bv.size());
        for (int child = 0; child < 2; ++child) {
          const int i = splitA ? nodeA.first_child + child : pair.a;
          const int j = splitA ? pair.b : nodeB.first_child + child;
          push(NodePair{nodeDistance(i, j), i, j});
        }
      });
  double lower = std::min(leafLower, pruned);
  if (!heap_.empty()) lower = std::min(lower, heap_.front().bound);
  if (lower < threshold) ++stats.exact_distance_queries;
  return DistanceBound{std::max(lower, 0.0), best, closestA, closestB};
}

}  // namespace prmkit
