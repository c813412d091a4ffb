#include "checkers/path_probes.h"

#include "checkers/checker.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace prmkit {

int probeCellCount(const Robot& robot, const Config& a, const Config& b, int most, double step) {
  int count = std::max(most, 1);
  if (step > 0.0) {
    const double steps = robot.distance(a, b) / (step * robot.maxExtent());
    if (steps < count) count = std::max(1, static_cast<int>(std::ceil(steps)));
  }
  return count;
}

const std::vector<int>& ProbeSchedule::order(std::size_t cells) {
  if (orders_.size() <= cells) orders_.resize(cells + 1);
  std::vector<int>& order = orders_[cells];
  if (order.empty()) order = spreadOrder(cells);
  return order;
}

std::string configKey(const Config& q) {
  return std::string(reinterpret_cast<const char*>(q.data()), sizeof(double) * static_cast<std::size_t>(q.size()));
}

std::optional<ProbeHit> staticProbes(ProbeSchedule& schedule, const Robot& robot, std::span<const Config> path,
                                     const std::vector<std::size_t>& cells, CollisionQueries& collision,
                                     CheckStats& stats, Config& scratch, StaticFreeCells* memo,
                                     std::size_t memoCapacity) {
  const std::size_t segments = cells.size();
  std::vector<std::string> keys(memo ? segments : 0);
  std::vector<std::uint64_t> freeCells(segments, 0);
  if (memo)
    for (std::size_t s = 0; s < segments; ++s) {
      keys[s] = StaticFreeCells::key(path[s], path[s + 1]);
      freeCells[s] = memo->known(keys[s], cells[s]);
    }
  const auto hit = schedule.inRounds(
      segments, [&](std::size_t s) { return cells[s]; },
      [&](std::size_t s, std::size_t cell) -> std::optional<ProbeHit> {
        const std::uint64_t bit = std::uint64_t{1} << cell;
        if (freeCells[s] & bit) {
          stats.strategy.add("static_probes_reused", 1);
          return std::nullopt;
        }
        const double t = cellCentre(cell, cells[s]);
        robot.interpolate(path[s], path[s + 1], t, scratch);
        if (collision.inCollision(scratch, stats)) return ProbeHit{s, t};
        freeCells[s] |= bit;
        return std::nullopt;
      });
  if (memo)
    for (std::size_t s = 0; s < segments; ++s)
      if (!hit || hit->segment != s) memo->keep(std::move(keys[s]), cells[s], freeCells[s], memoCapacity);
  return hit;
}

int uncoveredStretches(const ProbedPair& pair, std::size_t cells, const double* lowers, double unitBound) {
  int uncovered = 0;
  double tPrevious = 0.0, lowerPrevious = pair.node_lower_a;
  for (std::uint64_t rest = pair.measured;; rest &= rest - 1) {
    const bool last = rest == 0;
    const auto cell = static_cast<std::size_t>(std::countr_zero(rest));
    const double t = last ? 1.0 : cellCentre(cell, cells);
    const double lower = last ? pair.node_lower_b : lowers[cell];
    uncovered += certifiesFree(lowerPrevious, lower, unitBound * (t - tPrevious)) ? 0 : 1;
    if (last) return uncovered;
    tPrevious = t;
    lowerPrevious = lower;
  }
}

MeasuredNeighbours measuredNeighbours(const ProbedPair& pair, std::size_t cell,
                                      const std::vector<std::uint32_t>& cellSamples, const double* lowers,
                                      std::uint32_t nodeA, std::uint32_t nodeB) {
  const std::size_t cells = cellSamples.size();
  MeasuredNeighbours n{nodeA, nodeB, 0.0, 1.0, pair.node_lower_a, pair.node_lower_b};
  // Bits below the cell, and above it (2 << 63 wraps to 0, leaving none above the last cell).
  if (const std::uint64_t below = pair.measured & ((std::uint64_t{1} << cell) - 1); below != 0) {
    const auto left = static_cast<std::size_t>(63 - std::countl_zero(below));
    n.left = cellSamples[left];
    n.t_left = cellCentre(left, cells);
    n.lower_left = lowers[left];
  }
  if (const std::uint64_t above = pair.measured & ~((std::uint64_t{2} << cell) - 1); above != 0) {
    const auto right = static_cast<std::size_t>(std::countr_zero(above));
    n.right = cellSamples[right];
    n.t_right = cellCentre(right, cells);
    n.lower_right = lowers[right];
  }
  return n;
}

std::string StaticFreeCells::key(const Config& a, const Config& b) { return configKey(a) + configKey(b); }

std::uint64_t StaticFreeCells::known(const std::string& key, std::size_t cells) const {
  if (const auto found = cells_.find(key); found != cells_.end() && found->second.count == cells)
    return found->second.cells;
  // The edge checked the other way: cell k is cell cells - 1 - k there (the
  // centres coincide up to the interpolation's rounding, which a shortcut to
  // a collision may ignore). The key is the two ends' bytes; the other way
  // round it is the halves swapped.
  const std::size_t half = key.size() / 2;
  if (const auto found = cells_.find(key.substr(half) + key.substr(0, half));
      found != cells_.end() && found->second.count == cells) {
    std::uint64_t mirrored = 0;
    for (std::size_t k = 0; k < cells; ++k)
      if (found->second.cells >> k & 1u) mirrored |= std::uint64_t{1} << (cells - 1 - k);
    return mirrored;
  }
  return 0;
}

void StaticFreeCells::keep(std::string key, std::size_t cells, std::uint64_t freeCells, std::size_t capacity) {
  if (freeCells == 0) return;
  if (cells_.size() >= capacity) cells_.clear();
  cells_[std::move(key)] = Cells{freeCells, static_cast<std::uint32_t>(cells)};
}

}  // namespace prmkit
