#pragma once
// The path probe schedule the exact strategies share: each segment of a path
// cut into cells whose centres are probed in rounds (cell i of every segment
// before cell i + 1 of any, the resolution order Bohlin and Kavraki use for
// lazy PRM's paths; within a segment in van der Corput order), so that a
// collision anywhere on the path ends the check before free segments are paid
// for; and the memo of the cells a static probe found free.
#include "robots/robot.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace prmkit {

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
