#pragma once
// Mirtich's hierarchical spatial hash ("Efficient algorithms for two-phase
// collision detection", 1997, Sec. 3): boxes hashed into grids of cells
// whose size doubles from level to level, each box into the level whose
// cells are at least as large as the box, so that it covers at most two
// cells per axis whatever its size; a query visits, level by level, the
// cells its box covers. Cells are hashed (an unordered map), so an unbounded
// world costs only the cells that hold something.
#include <Eigen/Geometry>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace prmkit {

class HierarchicalHash {
 public:
  /// `finestCell` (m, > 0): the cell size of level 0, the smallest box's size being a good choice.
  explicit HierarchicalHash(double finestCell);

  /// Adds box `id` (ids are small non-negative integers, e.g. obstacle indices).
  void insert(int id, const Eigen::AlignedBox3d& box);
  /// The ids of every inserted box that overlaps `box`, each once, in
  /// ascending order (cells give candidates; their boxes decide). Counts the
  /// cells and boxes it visited into `visited`.
  void query(const Eigen::AlignedBox3d& box, std::vector<int>& out, std::uint64_t& visited) const;

 private:
  struct Level {
    double cell;
    std::unordered_map<std::uint64_t, std::vector<int>> cells;
    std::vector<int> ids;  // every box of the level, for queries that cover more cells than it has boxes
  };
  /// The hash key of cell (x, y, z) (a collision only adds candidates, which the boxes then reject).
  static std::uint64_t key(std::int64_t x, std::int64_t y, std::int64_t z);
  double finest_;
  std::vector<Level> levels_;
  std::vector<Eigen::AlignedBox3d> boxes_;  // by id
};

}  // namespace prmkit
