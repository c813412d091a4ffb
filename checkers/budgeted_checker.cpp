#include "checkers/budgeted_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prmkit {

namespace {
const char* orderName(TraversalOrder order) {
  switch (order) {
    case TraversalOrder::DepthFirst:
      return "depth_first";
    case TraversalOrder::Coherence:
      return "coherence";
    case TraversalOrder::Overlap:
      return "overlap";
  }
  return "?";
}
}  // namespace

BudgetedChecker::BudgetedChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                                 BudgetedSettings settings)
    : Checker(robot, scene),
      settings_(settings),
      collision_(robot_, scene_, settings.sampling.geometry),
      traversal_(settings.traversal) {
  validateFields(settings_, "budgeted");
}

BudgetedChecker::BudgetedChecker(const BudgetedChecker& other)
    : BudgetedChecker(other.robot_, other.scene_, other.settings_) {}

std::unique_ptr<Checker> BudgetedChecker::clone() const { return std::unique_ptr<Checker>(new BudgetedChecker(*this)); }

std::unique_ptr<Checker> BudgetedChecker::makeForRobot(std::shared_ptr<const Robot> robot) const {
  return std::make_unique<BudgetedChecker>(std::move(robot), scene_, settings_);
}

std::string BudgetedChecker::description() const {
  const auto& sampling = settings_.sampling;
  const std::string where = sampling.space == DiscreteSettings::Space::CSpace
                                ? fmt::format("{:g}% of the C-space extent", 100 * sampling.resolution)
                                : fmt::format("eps {:g} m in workspace", sampling.eps);
  return fmt::format("budgeted ({} BV tests per sample, {} order, samples every {})",
                     settings_.traversal.budget_bv_tests, orderName(settings_.traversal.order), where);
}

bool BudgetedChecker::doIsValid(const Config& q) { return !collision_.inCollision(q, stats_); }

void BudgetedChecker::meshPairs(const Config& q) {
  robot_->linkPoses(q, poses_);
  robotMeshPairs(*robot_, *scene_, poses_, pairs_);
}

EdgeResult BudgetedChecker::doCheckEdge(const Config& a, const Config& b) {
  const std::size_t n = segmentCount(*robot_, settings_.sampling, a, b);
  // The sequence starts at the valid endpoint a: its check carries no budget,
  // so the first sample inherits a complete cut and confidence 100.
  traversal_.forget();
  meshPairs(a);
  ++stats_.static_queries;
  traversal_.check(pairs_, stats_, 0);
  EdgeResult result;
  Config q;
  double lowest = 100.0;
  for (std::size_t i = 1; i < n; ++i) {
    robot_->interpolate(a, b, static_cast<double>(i) / static_cast<double>(n), q);
    meshPairs(q);
    ++stats_.static_queries;
    const TraversalResult sample = traversal_.check(pairs_, stats_);
    // The traversal sees primitives through their enclosing meshes: a touch
    // of one is confirmed on the primitives themselves before the edge is
    // called colliding (an exact static check, so the sample is then known).
    if (sample.colliding && (scene_->checkedPrimitiveCount() == 0 || collision_.inCollision(q, stats_)))
      return EdgeResult{Verdict::Colliding, 100.0, static_cast<double>(i) / static_cast<double>(n)};
    if (sample.colliding) continue;
    lowest = std::min(lowest, sample.confidence);
  }
  if (lowest < 100.0) result = EdgeResult{Verdict::Unknown, lowest};
  return result;
}

}  // namespace prmkit
