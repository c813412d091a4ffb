#pragma once
// `budgeted`: edges are discretized like `discrete`, and each sample is a
// time-budgeted static check (BvttTraversal, Lin & Li). Consecutive samples
// share the traversal's cut (temporal coherence). An edge is Colliding if a
// sample collides, Free if every sample's check completed (exact), else
// Unknown with the lowest confidence of its samples.
#include "geometry/bvtt_traversal.h"
#include "checkers/checker.h"
#include "geometry/collision_queries.h"
#include "checkers/discrete_checker.h"

namespace prmkit {

struct BudgetedSettings {
  TraversalSettings traversal{400, TraversalOrder::Coherence, 8, 0.5, 100.0};
  /// Where the edge is sampled (space, resolution, eps); the order is always
  /// sequential, so that each sample's cut seeds the next one's.
  DiscreteSettings sampling;

  template <class Fields>
  void fields(Fields& f) {
    traversal.fields(f);
    sampling.samplingFields(f);
    f.geometry(sampling.geometry);
  }
  void afterRead(const std::set<std::string>& given) { sampling.afterRead(given); }
};

class BudgetedChecker final : public Checker {
 public:
  using Settings = BudgetedSettings;
  static constexpr std::string_view kName = "budgeted";
  BudgetedChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, BudgetedSettings settings);
  std::string name() const override { return std::string(kName); }
  std::string description() const override;
  bool confidenceBased() const override { return true; }
  bool exact() const override { return false; }
  std::unique_ptr<Checker> clone() const override;
  const BudgetedSettings& settings() const { return settings_; }

 private:
  std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const override;
  BudgetedChecker(const BudgetedChecker& other);
  /// Static checks (roadmap vertices) are exact: no budget.
  bool doIsValid(const Config& q) override;
  EdgeResult doCheckEdge(const Config& a, const Config& b) override;
  void meshPairs(const Config& q);

  BudgetedSettings settings_;
  CollisionQueries collision_;
  BvttTraversal traversal_;
  std::vector<Transform> poses_;
  std::vector<MeshPair> pairs_;
};

}  // namespace prmkit
