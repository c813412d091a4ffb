#include "scene/spatial_hash.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prmkit {

namespace {
/// Cell index of a coordinate (coordinates are within 1e9 m, cells at least
/// 1e-9 m, so the quotient fits in 64 bits).
std::int64_t cellOf(double coordinate, double cell) { return static_cast<std::int64_t>(std::floor(coordinate / cell)); }
}  // namespace

HierarchicalHash::HierarchicalHash(double finestCell) : finest_(std::max(finestCell, 1e-9)) {
  if (!std::isfinite(finestCell) || !(finestCell > 0.0))
    throw std::invalid_argument("a spatial hash needs a positive, finite cell size");
}

std::uint64_t HierarchicalHash::key(std::int64_t x, std::int64_t y, std::int64_t z) {
  // The large odd multipliers of a common spatial hash (Teschner et al. 2003), on 64 bits.
  return static_cast<std::uint64_t>(x) * 73856093ULL ^ static_cast<std::uint64_t>(y) * 19349663ULL ^
         static_cast<std::uint64_t>(z) * 83492791ULL;
}

void HierarchicalHash::insert(int id, const Eigen::AlignedBox3d& box) {
  if (id < 0) throw std::invalid_argument("spatial hash ids must be non-negative");
  if (static_cast<std::size_t>(id) >= boxes_.size()) boxes_.resize(static_cast<std::size_t>(id) + 1);
  boxes_[static_cast<std::size_t>(id)] = box;
  // The level whose cells are at least the box's largest side: it covers at most two cells per axis.
  const double size = box.sizes().maxCoeff();
  std::size_t level = 0;
  while (finest_ * std::ldexp(1.0, static_cast<int>(level)) < size && level < 200) ++level;
  while (levels_.size() <= level)
    levels_.push_back({finest_ * std::ldexp(1.0, static_cast<int>(levels_.size())), {}, {}});
  Level& l = levels_[level];
  l.ids.push_back(id);
  for (std::int64_t x = cellOf(box.min().x(), l.cell); x <= cellOf(box.max().x(), l.cell); ++x)
    for (std::int64_t y = cellOf(box.min().y(), l.cell); y <= cellOf(box.max().y(), l.cell); ++y)
      for (std::int64_t z = cellOf(box.min().z(), l.cell); z <= cellOf(box.max().z(), l.cell); ++z)
        l.cells[key(x, y, z)].push_back(id);
}

void HierarchicalHash::query(const Eigen::AlignedBox3d& box, std::vector<int>& out, std::uint64_t& visited) const {
  out.clear();
  if (box.isEmpty()) return;
  auto consider = [&](int id) {
    ++visited;
    if (boxes_[static_cast<std::size_t>(id)].intersects(box)) out.push_back(id);
  };
  for (const Level& l : levels_) {
    if (l.ids.empty()) continue;
    const std::int64_t x0 = cellOf(box.min().x(), l.cell), x1 = cellOf(box.max().x(), l.cell);
    const std::int64_t y0 = cellOf(box.min().y(), l.cell), y1 = cellOf(box.max().y(), l.cell);
    const std::int64_t z0 = cellOf(box.min().z(), l.cell), z1 = cellOf(box.max().z(), l.cell);
    // A query box that covers more cells than the level has boxes reads the boxes directly.
    const double cells = double(x1 - x0 + 1) * double(y1 - y0 + 1) * double(z1 - z0 + 1);
    if (cells > static_cast<double>(l.ids.size())) {
      for (const int id : l.ids) consider(id);
      continue;
    }
    for (std::int64_t x = x0; x <= x1; ++x)
      for (std::int64_t y = y0; y <= y1; ++y)
        for (std::int64_t z = z0; z <= z1; ++z) {
          ++visited;
          const auto found = l.cells.find(key(x, y, z));
          if (found == l.cells.end()) continue;
          for (const int id : found->second) consider(id);
        }
  }
  // A box spanning several cells (or a key collision) is found more than once.
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace prmkit
