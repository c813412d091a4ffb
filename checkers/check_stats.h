#pragma once
#include <cstdint>
#include <string_view>

namespace prmkit {

/// Counters of the work a checker did. Each is incremented by the code that
/// does the counted work (see collision_queries.cpp and each strategy).
struct CheckStats {
  std::uint64_t static_queries = 0;    // configurations tested for collision
  std::uint64_t pair_tests = 0;        // narrow-phase (link, obstacle) and (link, link) tests
  std::uint64_t bv_tests = 0;          // bounding-volume overlap tests inside the narrow phase
  std::uint64_t primitive_tests = 0;   // triangle-triangle tests
  std::uint64_t distance_queries = 0;  // distance (lower bound) computations
  std::uint64_t edges_checked = 0;
  std::uint64_t paths_checked = 0;
  double time_s = 0.0;                 // wall time spent inside the checker

  CheckStats& operator+=(const CheckStats& other);
  /// Work done between two snapshots of the same checker.
  CheckStats operator-(const CheckStats& earlier) const;

  /// Visits every counter with its name and unit, for output writers.
  template <class Visitor>
  void forEach(Visitor&& visit) const {
    visit(std::string_view("static_queries"), static_cast<double>(static_queries), std::string_view("count"));
    visit(std::string_view("pair_tests"), static_cast<double>(pair_tests), std::string_view("count"));
    visit(std::string_view("bv_tests"), static_cast<double>(bv_tests), std::string_view("count"));
    visit(std::string_view("primitive_tests"), static_cast<double>(primitive_tests), std::string_view("count"));
    visit(std::string_view("distance_queries"), static_cast<double>(distance_queries), std::string_view("count"));
    visit(std::string_view("edges_checked"), static_cast<double>(edges_checked), std::string_view("count"));
    visit(std::string_view("paths_checked"), static_cast<double>(paths_checked), std::string_view("count"));
    visit(std::string_view("check_time_s"), time_s, std::string_view("s"));
  }
};

}  // namespace prmkit
