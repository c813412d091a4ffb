#pragma once
// What a checker reports of its work: the geometric queries every strategy
// is made of (geometry/query_counts.h), the counters a strategy declares as
// its own (its `kCounters`: bisection steps, certificates, sphere tests),
// and the edges, paths and time the Checker interface counts for all.
#include "geometry/query_counts.h"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace prmkit {

/// A counter a strategy declares: its name in stats.json, tables and
/// summaries, its unit, and what one count is.
struct CounterSpec {
  std::string_view name;
  std::string_view unit;
  std::string_view doc;
};

/// Counters more than one strategy declares, each in its own kCounters.
inline constexpr CounterSpec kBisectionStepsCounter{"bisection_steps", "count", "segments split at their midpoint"};
inline constexpr CounterSpec kQueuePushesCounter{"queue_pushes", "count",
                                                 "(segment, pair) elements put in the priority queue"};
inline constexpr CounterSpec kUnresolvedCounter{"unresolved_as_colliding", "count",
                                                "segments shorter than eta reported Colliding without a witness"};

/// The values of a strategy's own counters, in the order its declaration
/// (static storage, e.g. `AdaptiveChecker::kCounters`) names them.
class StrategyCounts {
 public:
  static constexpr std::size_t kMaxCounters = 8;
  StrategyCounts() = default;
  /// std::logic_error past kMaxCounters.
  explicit StrategyCounts(std::span<const CounterSpec> declared);
  /// The i-th declared counter, for the strategy's own loops.
  std::uint64_t& operator[](std::size_t i) { return values_[i]; }
  std::uint64_t operator[](std::size_t i) const { return values_[i]; }
  /// Adds to the counter named `name`, for toolkit code several strategies
  /// share (std::logic_error when the strategy did not declare it).
  void add(std::string_view name, std::uint64_t count);
  /// The value of `name`; 0 when the strategy does not declare it.
  std::uint64_t value(std::string_view name) const;
  std::span<const CounterSpec> declared() const { return declared_; }
  /// Sums by name: counts of the same strategy, or of no strategy (a
  /// sampler's clearance queries); std::logic_error for two strategies'.
  StrategyCounts& operator+=(const StrategyCounts& other);
  StrategyCounts& operator-=(const StrategyCounts& other);

 private:
  std::span<const CounterSpec> declared_;
  std::array<std::uint64_t, kMaxCounters> values_{};
};

struct CheckStats : QueryCounts {
  CheckStats() = default;
  explicit CheckStats(std::span<const CounterSpec> strategyCounters) : strategy(strategyCounters) {}

  /// The strategy's own counters, each incremented by the strategy's code.
  StrategyCounts strategy;
  /// Segments given a verdict: each checkEdge call, and each segment of a
  /// checkPath that came back with one (a check that stops at its first
  /// collision leaves the later ones without); counted by Checker alone, so
  /// it means the same for every strategy.
  std::uint64_t edges_checked = 0;
  std::uint64_t paths_checked = 0;  // checkPath calls, counted by Checker
  double time_s = 0.0;              // wall time spent inside the checker, measured by Checker

  CheckStats& operator+=(const CheckStats& other);
  /// Work done between two snapshots of the same checker.
  CheckStats operator-(const CheckStats& earlier) const;

  /// Visits every counter as (name, value, unit): the queries, the strategy
  /// counters `names` (0 for those this strategy does not declare), then
  /// edges_checked, paths_checked and check_time_s. A table that holds
  /// several strategies passes every registered one's
  /// (registry/checker_registry.h: checkCounterSpecs).
  template <class Visitor>
  void forEach(Visitor&& visit, std::span<const CounterSpec> names) const {
    QueryCounts::forEachField([&](std::string_view name, auto member, std::string_view unit) {
      visit(name, static_cast<double>(this->*member), unit);
    });
    for (const CounterSpec& counter : names)
      visit(counter.name, static_cast<double>(strategy.value(counter.name)), counter.unit);
    visit(std::string_view("edges_checked"), static_cast<double>(edges_checked), std::string_view("count"));
    visit(std::string_view("paths_checked"), static_cast<double>(paths_checked), std::string_view("count"));
    visit(std::string_view("check_time_s"), time_s, std::string_view("s"));
  }
  /// The same, with this strategy's own counters.
  template <class Visitor>
  void forEach(Visitor&& visit) const {
    forEach(visit, strategy.declared());
  }
};

}  // namespace prmkit
