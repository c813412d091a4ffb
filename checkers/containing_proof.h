#pragma once
// Proofs of "free" at VAMP's speed, for `spheres` with `certify: containing`.
// Each link is held by spheres fitted to contain its mesh (every piece of
// every triangle inside one sphere: shapes/sphere_set.h), so a configuration
// where no sphere meets an obstacle or another link's spheres is free. A
// motion is cut into intervals, each free when its centre is free with every
// link's spheres grown by how far any point of the link moves over half the
// interval (the lever bound of Schwarzer, Saha & Latombe, IEEE T-RO 2005,
// Sec. 3): each point of the link then stays inside its grown spheres over
// the interval, so the proof covers the whole motion, not just its samples.
// An interval that fails is cut in two, one SIMD batch of centres at a time
// (checkers/sphere_kernel.h). What the spheres cannot prove is left to the
// exact checks: a proof that fails says nothing about collision.
//
// Some self pairs (a wrist and a hand) are so close at most configurations
// that their spheres always meet. Those whose relative pose follows at most
// two joints are certified by a table made at construction
// (checkers/pair_table.h); of the others, those whose containing spheres
// meet at more than a fraction of sampled configurations are left to an
// exact check of those pairs alone.
#include "checkers/check_stats.h"
#include "checkers/pair_table.h"
#include "checkers/sphere_kernel.h"

#include <memory>
#include <utility>
#include <vector>

namespace prmkit {

class ContainingProof {
 public:
  /// `spheresPerLink`: spheres fitted a link; `growthStep` (m): the most a
  /// sphere grows along a motion, which sets its sample count.
  ContainingProof(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, std::size_t spheresPerLink,
                  double growthStep);
  ContainingProof(const ContainingProof& other);

  /// The robot's self pairs the spheres leave to the exact checks, not tabled.
  const std::vector<std::pair<int, int>>& nearPairs() const { return nearPairs_; }
  /// The self pairs certified by tables, not by the spheres.
  const std::vector<std::pair<int, int>>& tabledPairs() const { return tabled_->pairs; }
  /// The share of the tabled pairs' joint boxes their tables certify, and the distance queries made them.
  double tabledShare() const;
  std::uint64_t tableQueries() const { return tabled_->queries; }
  /// The configuration is free of obstacles and of every self pair but the near and the tabled ones.
  bool freeAt(const Config& q, CheckStats& stats);
  /// Every configuration of a -> b, both ends included, is free of obstacles
  /// and of every self pair but the near and the tabled ones. When not,
  /// `suspect` (if given) gets the motion parameter of a sample whose
  /// spheres met something at the finest cut, where a collision is likely.
  bool freeAlong(const Config& a, const Config& b, CheckStats& stats, double* suspect = nullptr);
  /// The tables certify every tabled pair at q, or along a -> b.
  bool tabledFreeAt(const Config& q) const;
  bool tabledFreeAlong(const Config& a, const Config& b) const;
  const std::vector<std::vector<Sphere>>& linkSpheres() const { return *spheres_; }

 private:
  std::shared_ptr<const Robot> robot_;
  std::shared_ptr<const Scene> scene_;
  double growthStep_;
  std::shared_ptr<const std::vector<std::vector<Sphere>>> spheres_;
  struct Tables {
    std::vector<std::pair<int, int>> pairs;
    std::vector<std::shared_ptr<const SelfPairTable>> tables;  // one per pair
    std::uint64_t queries = 0;
  };
  /// A table of every self pair that has one (SelfPairTable::build).
  static Tables tabulate(const Robot& robot);
  std::shared_ptr<const Tables> tabled_;
  std::vector<std::pair<int, int>> nearPairs_;
  SphereKernel kernel_;
  // Per call, kept to reuse allocations.
  std::vector<double> bounds_, selfBounds_, growth_, selfGrowth_;
  std::vector<std::size_t> intervals_, next_;
  std::array<Config, kSphereLanes> samples_;
};

/// Self pairs of `robot` (of `candidates`) whose spheres meet at more than `fraction` of
/// `configurations` configurations drawn uniformly (a fixed stream, so the
/// choice is the same in every run).
std::vector<std::pair<int, int>> alwaysNearPairs(const Robot& robot, const std::vector<std::vector<Sphere>>& spheres,
                                                 const std::vector<std::pair<int, int>>& candidates,
                                                 std::size_t configurations, double fraction);

}  // namespace prmkit
