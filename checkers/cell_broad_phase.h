#pragma once
// The broad phase over a segment cut into cells (the path probes' cells):
// every point of a link stays within half a cell's motion bound of where it
// is at the cell's centre (SSL 2005, Sec. 3), so the box around the link's
// enclosing sphere there, grown by that reach, holds all the link sweeps over
// the cell. An obstacle whose box meets none of a link's cell boxes is apart
// from it over the whole segment; one that meets some is near those cells
// only. One scene query per link, over the chain of its cell boxes.
#include "checkers/check_stats.h"
#include "scene/scene.h"

#include <cstdint>
#include <vector>

namespace prmkit {

class CellBroadPhase {
 public:
  /// A (link, obstacle) pair, numbered link * obstacles + obstacle, and the
  /// cells (bits) over which the link's box may meet the obstacle's.
  struct NearPair {
    std::uint32_t pair;
    std::uint64_t cells;
  };

  /// Whether the broad phase pays on this scene: with fewer than
  /// `fewestObstacles` obstacles (or none to search with) the probes'
  /// enclosing-sphere tests cost less than the queries, and every pair is near.
  static bool pays(const Scene& scene, std::size_t fewestObstacles) {
    return scene.obstacles().size() >= fewestObstacles && scene.broadPhase() != BroadPhase::None;
  }

  /// The near pairs of `links` links over `cells` cells (at most
  /// Scene::kMaxChainBoxes), where centreAt(cell, link) is the link's
  /// enclosing sphere centre at the cell's centre and grow(link) how far its
  /// box reaches from it (its radius, its reach over half a cell and any
  /// slack). Counts the scene's work into `stats`.
  template <class CentreAt, class Grow>
  const std::vector<NearPair>& find(const Scene& scene, std::size_t links, std::size_t cells, CentreAt&& centreAt,
                                    Grow&& grow, CheckStats& stats) {
    near_.clear();
    const std::size_t obstacles = scene.obstacles().size();
    for (std::size_t link = 0; link < links; ++link) {
      const Eigen::Vector3d reach = Eigen::Vector3d::Constant(grow(link));
      boxes_.clear();
      for (std::size_t cell = 0; cell < cells; ++cell) {
        const Eigen::Vector3d& centre = centreAt(cell, link);
        boxes_.emplace_back(centre - reach, centre + reach);
      }
      scene.obstaclesOverlappingChain(boxes_, overlaps_, stats.broad_phase_visits);
      stats.broad_phase_pairs += overlaps_.size();
      for (const auto& [obstacle, overlapped] : overlaps_)
        near_.push_back(
            {static_cast<std::uint32_t>(link * obstacles + static_cast<std::size_t>(obstacle)), overlapped});
    }
    return near_;
  }

 private:
  std::vector<NearPair> near_;
  std::vector<Eigen::AlignedBox3d> boxes_;
  std::vector<Scene::ChainOverlap> overlaps_;
};

}  // namespace prmkit
