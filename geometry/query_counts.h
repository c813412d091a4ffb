#pragma once
#include <cstdint>
#include <string_view>

namespace prmkit {

/// Counters of the geometric queries every strategy is made of, one meaning
/// for all: each is incremented by the code that does the counted work
/// (collision_queries.cpp, bvh_distance.cpp, gjk.cpp, the broad phases).
/// A strategy's own counters (bisection steps, certificates, ...) are its
/// own (checkers/check_stats.h).
struct QueryCounts {
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
  std::uint64_t broad_phase_visits = 0;    // boxes, cells, tree nodes or candidates a broad-phase query visited
  std::uint64_t broad_phase_pairs = 0;     // (link, obstacle) pairs a broad phase passed to the narrow phase

  /// Visits every field as (name, member pointer, unit): the one list of these counters.
  template <class Visitor>
  static void forEachField(Visitor&& visit) {
    visit(std::string_view("static_queries"), &QueryCounts::static_queries, std::string_view("count"));
    visit(std::string_view("pair_tests"), &QueryCounts::pair_tests, std::string_view("count"));
    visit(std::string_view("bv_tests"), &QueryCounts::bv_tests, std::string_view("count"));
    visit(std::string_view("primitive_tests"), &QueryCounts::primitive_tests, std::string_view("count"));
    visit(std::string_view("distance_queries"), &QueryCounts::distance_queries, std::string_view("count"));
    visit(std::string_view("exact_distance_queries"), &QueryCounts::exact_distance_queries, std::string_view("count"));
    visit(std::string_view("gjk_queries"), &QueryCounts::gjk_queries, std::string_view("count"));
    visit(std::string_view("gjk_iterations"), &QueryCounts::gjk_iterations, std::string_view("count"));
    visit(std::string_view("coherent_answers"), &QueryCounts::coherent_answers, std::string_view("count"));
    visit(std::string_view("hull_answers"), &QueryCounts::hull_answers, std::string_view("count"));
    visit(std::string_view("bvh_traversals"), &QueryCounts::bvh_traversals, std::string_view("count"));
    visit(std::string_view("cover_separations"), &QueryCounts::cover_separations, std::string_view("count"));
    visit(std::string_view("vertex_confirmations"), &QueryCounts::vertex_confirmations, std::string_view("count"));
    visit(std::string_view("broad_phase_visits"), &QueryCounts::broad_phase_visits, std::string_view("count"));
    visit(std::string_view("broad_phase_pairs"), &QueryCounts::broad_phase_pairs, std::string_view("count"));
  }
};

}  // namespace prmkit
