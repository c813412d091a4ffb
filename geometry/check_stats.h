#pragma once
#include <cstdint>
#include <string_view>

namespace prmkit {

/// Counters of the work a checker did. Each is incremented by the code that
/// does the counted work (collision_queries.cpp, bvh_distance.cpp and each strategy).
struct CheckStats {
  std::uint64_t static_queries = 0;          // configurations tested for collision
  std::uint64_t pair_tests = 0;              // narrow-phase (link, obstacle) and (link, link) collision tests
  std::uint64_t bv_tests = 0;                // bounding-volume overlap or distance tests
  std::uint64_t primitive_tests = 0;         // triangle-triangle intersection or distance tests
  std::uint64_t distance_queries = 0;        // lower-bound distance computations of one (link, body) pair
  std::uint64_t exact_distance_queries = 0;  // of those, the ones that needed the exact distance
  std::uint64_t gjk_queries = 0;             // GJK runs between two convex hulls
  std::uint64_t gjk_iterations = 0;          // support-point iterations of those runs
  std::uint64_t coherent_answers = 0;        // distance queries answered by the previous query's separating direction
  std::uint64_t hull_answers = 0;            // distance queries answered by convex hulls, without a BVH traversal
  std::uint64_t bvh_traversals = 0;          // distance queries that traversed the BVHs
  std::uint64_t cover_separations = 0;       // static pair tests settled apart by enclosing volumes or convex covers
  std::uint64_t vertex_confirmations = 0;  // static (link, box) tests settled colliding by a link vertex inside the box
  std::uint64_t cache_hits = 0;            // distance bounds reused from an earlier check of the same node
  std::uint64_t static_probes_reused = 0;  // static probes of a path skipped: an earlier check found the centre free
  std::uint64_t bisection_steps = 0;       // segments split at their midpoint (adaptive, swept)
  std::uint64_t directional_certificates =
      0;                                 // (interval, pair) elements certified by directional motion bounds (adaptive)
  std::uint64_t queue_pushes = 0;        // (segment, pair) elements put in the priority queue (adaptive, swept)
  std::uint64_t broad_phase_visits = 0;  // boxes, cells, tree nodes or candidates a broad-phase query visited
  std::uint64_t broad_phase_pairs = 0;   // (link, obstacle) pairs a broad phase passed to the narrow phase
  std::uint64_t swept_tests = 0;         // swept convex hull tests against one convex set of a body (swept)
  std::uint64_t swept_certificates = 0;  // (interval, pair) elements certified by swept volumes (swept)
  std::uint64_t sphere_tests = 0;        // sphere-against-body tests, one per configuration (spheres)
  std::uint64_t unresolved_as_colliding = 0;  // segments shorter than eta reported Colliding without a witness
  /// Segments given a verdict: each checkEdge call, and each segment of a
  /// checkPath that came back with one (a check that stops at its first
  /// collision leaves the later ones without); counted by Checker alone, so
  /// it means the same for every strategy.
  std::uint64_t edges_checked = 0;
  std::uint64_t paths_checked = 0;  // checkPath calls
  double time_s = 0.0;              // wall time spent inside the checker

  CheckStats& operator+=(const CheckStats& other);
  /// Work done between two snapshots of the same checker.
  CheckStats operator-(const CheckStats& earlier) const;

  /// Visits every field as (name, member pointer, unit): the one list of counters.
  template <class Visitor>
  static void forEachField(Visitor&& visit) {
    visit(std::string_view("static_queries"), &CheckStats::static_queries, std::string_view("count"));
    visit(std::string_view("pair_tests"), &CheckStats::pair_tests, std::string_view("count"));
    visit(std::string_view("bv_tests"), &CheckStats::bv_tests, std::string_view("count"));
    visit(std::string_view("primitive_tests"), &CheckStats::primitive_tests, std::string_view("count"));
    visit(std::string_view("distance_queries"), &CheckStats::distance_queries, std::string_view("count"));
    visit(std::string_view("exact_distance_queries"), &CheckStats::exact_distance_queries, std::string_view("count"));
    visit(std::string_view("gjk_queries"), &CheckStats::gjk_queries, std::string_view("count"));
    visit(std::string_view("gjk_iterations"), &CheckStats::gjk_iterations, std::string_view("count"));
    visit(std::string_view("coherent_answers"), &CheckStats::coherent_answers, std::string_view("count"));
    visit(std::string_view("hull_answers"), &CheckStats::hull_answers, std::string_view("count"));
    visit(std::string_view("bvh_traversals"), &CheckStats::bvh_traversals, std::string_view("count"));
    visit(std::string_view("cover_separations"), &CheckStats::cover_separations, std::string_view("count"));
    visit(std::string_view("vertex_confirmations"), &CheckStats::vertex_confirmations, std::string_view("count"));
    visit(std::string_view("cache_hits"), &CheckStats::cache_hits, std::string_view("count"));
    visit(std::string_view("static_probes_reused"), &CheckStats::static_probes_reused, std::string_view("count"));
    visit(std::string_view("bisection_steps"), &CheckStats::bisection_steps, std::string_view("count"));
    visit(std::string_view("directional_certificates"), &CheckStats::directional_certificates,
          std::string_view("count"));
    visit(std::string_view("queue_pushes"), &CheckStats::queue_pushes, std::string_view("count"));
    visit(std::string_view("broad_phase_visits"), &CheckStats::broad_phase_visits, std::string_view("count"));
    visit(std::string_view("broad_phase_pairs"), &CheckStats::broad_phase_pairs, std::string_view("count"));
    visit(std::string_view("swept_tests"), &CheckStats::swept_tests, std::string_view("count"));
    visit(std::string_view("swept_certificates"), &CheckStats::swept_certificates, std::string_view("count"));
    visit(std::string_view("sphere_tests"), &CheckStats::sphere_tests, std::string_view("count"));
    visit(std::string_view("unresolved_as_colliding"), &CheckStats::unresolved_as_colliding, std::string_view("count"));
    visit(std::string_view("edges_checked"), &CheckStats::edges_checked, std::string_view("count"));
    visit(std::string_view("paths_checked"), &CheckStats::paths_checked, std::string_view("count"));
    visit(std::string_view("check_time_s"), &CheckStats::time_s, std::string_view("s"));
  }

  /// Visits every counter's value with its name and unit, for output writers.
  template <class Visitor>
  void forEach(Visitor&& visit) const {
    forEachField([&](std::string_view name, auto member, std::string_view unit) {
      visit(name, static_cast<double>(this->*member), unit);
    });
  }
};

}  // namespace prmkit
