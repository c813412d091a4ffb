#pragma once
// The path probe schedule the exact strategies share: each segment of a path
// cut into cells whose centres are probed in rounds (cell i of every segment
// before cell i + 1 of any, the resolution order Bohlin and Kavraki use for
// lazy PRM's paths; within a segment in van der Corput order), so that a
// collision anywhere on the path ends the check before free segments are paid
// for; and the memo of the cells a static probe found free.
#include "checkers/check_stats.h"
#include "geometry/collision_queries.h"
#include "robots/robot.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace prmkit {

/// A configuration's bytes: the key a memo of configurations is looked up by
/// (equal keys, bit-identical configurations).
std::string configKey(const Config& q);

/// Cells of the segment a -> b: one per `step` of the robot's C-space extent
/// (a fraction; 0: no step), at least one and at most `most` (at least 1).
int probeCellCount(const Robot& robot, const Config& a, const Config& b, int most, double step);

/// The parameter of a cell's centre on its segment.
inline double cellCentre(std::size_t cell, std::size_t cells) {
  return (static_cast<double>(cell) + 0.5) / static_cast<double>(cells);
}

class ProbeSchedule {
 public:
  /// The order in which a segment of `cells` cells is probed (van der Corput), kept per count.
  const std::vector<int>& order(std::size_t cells);

  /// Calls probe(segment, cell) on every cell of `segments` segments, where
  /// cellsOf(segment) gives a segment's cell count, in rounds; the first
  /// answer it gives (an optional), or none.
  template <class CellsOf, class Probe>
  auto inRounds(std::size_t segments, CellsOf&& cellsOf, Probe&& probe)
      -> decltype(probe(std::size_t{}, std::size_t{})) {
    std::size_t most = 0;
    for (std::size_t s = 0; s < segments; ++s) most = std::max(most, cellsOf(s));
    for (std::size_t round = 0; round < most; ++round)
      for (std::size_t s = 0; s < segments; ++s)
        if (const std::size_t cells = cellsOf(s); round < cells)
          if (auto answer = probe(s, static_cast<std::size_t>(order(cells)[round]))) return answer;
    return std::nullopt;
  }

 private:
  std::vector<std::vector<int>> orders_;  // by cell count
};

/// Where a probe found a collision: the segment and the parameter on it.
struct ProbeHit {
  std::size_t segment;
  double t;
};

class StaticFreeCells;

/// What the distance probes know of one body pair on a segment cut into
/// cells: where its bound was measured, and how much of the segment SSL 2005,
/// Eq. 1 between the measured samples does not certify yet.
struct ProbedPair {
  std::uint32_t pair;
  std::uint64_t measured;  // bit k: the pair's bound was asked for at centre k
  /// Stretches between consecutive measured samples (nodes included) that
  /// SSL 2005, Eq. 1 with the lever bound does not certify.
  int uncovered;
  double node_lower_a, node_lower_b;  // its bounds at the nodes (0: unknown)
};

/// The pair's stretches between consecutive measured samples of a segment of
/// `cells` cells (the nodes, and the centres in `pair.measured` with bounds
/// `lowers`, per cell) that SSL 2005, Eq. 1 with the whole segment's bound
/// `unitBound` scaled to the stretch does not certify.
int uncoveredStretches(const ProbedPair& pair, std::size_t cells, const double* lowers, double unitBound);

/// The samples nearest a cell's centre on either side where the pair was
/// measured, or the segment's nodes, with the pair's lower bounds there (0 where unknown).
struct MeasuredNeighbours {
  std::uint32_t left, right;
  double t_left, t_right;
  double lower_left = 0.0, lower_right = 0.0;
};
/// For the cell `cell` of a segment whose cell centres are the samples
/// `cellSamples` and whose nodes are the samples `nodeA` and `nodeB`; `lowers` as for uncoveredStretches.
MeasuredNeighbours measuredNeighbours(const ProbedPair& pair, std::size_t cell,
                                      const std::vector<std::uint32_t>& cellSamples, const double* lowers,
                                      std::uint32_t nodeA, std::uint32_t nodeB);

/// Static collision checks at the centre of every cell of the path's
/// segments (`cells[s]` cells on segment s; 0: none), in the schedule's
/// rounds, with `scratch` for the configuration; the first centre in
/// collision, or none. With a `memo`, the cells it knows free are skipped
/// (counted in static_probes_reused) and the free ones found are kept in it
/// (at most `memoCapacity` segments), except on the segment found colliding:
/// it leaves the roadmap.
std::optional<ProbeHit> staticProbes(ProbeSchedule& schedule, const Robot& robot, std::span<const Config> path,
                                     const std::vector<std::size_t>& cells, CollisionQueries& collision,
                                     CheckStats& stats, Config& scratch, StaticFreeCells* memo = nullptr,
                                     std::size_t memoCapacity = 0);

/// The cells of a roadmap edge whose static probe passed in an earlier path
/// check, keyed by the edge's ends' bytes in the direction checked (found
/// the other way round too). A lazy planner's candidate paths share most edges
/// with the one before, whose check stopped at its first collision: the
/// static probes of its other edges are not repeated. Only a shortcut to a
/// collision: free segments are still certified by the strategy.
class StaticFreeCells {
 public:
  /// The key of the segment a -> b.
  static std::string key(const Config& a, const Config& b);
  /// The cells of the segment with this key (and `cells` cells) known free, as a bit set (0 if none).
  std::uint64_t known(const std::string& key, std::size_t cells) const;
  /// Records the free cells of a segment; the memo starts again once it holds `capacity` segments.
  void keep(std::string key, std::size_t cells, std::uint64_t freeCells, std::size_t capacity);

 private:
  struct Cells {
    std::uint64_t cells;  // bit k: cell k's centre was found free
    std::uint32_t count;  // the segment's cell count when it was probed
  };
  std::unordered_map<std::string, Cells> cells_;
};

}  // namespace prmkit
