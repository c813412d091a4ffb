#include "checkers/path_probes.h"

#include "checkers/checker.h"

#include <algorithm>
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

std::string StaticFreeCells::key(const Config& a, const Config& b) {
  const auto bytes = [](const Config& q) {
    return std::string(reinterpret_cast<const char*>(q.data()), sizeof(double) * static_cast<std::size_t>(q.size()));
  };
  return bytes(a) + bytes(b);
}

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
