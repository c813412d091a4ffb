#include "checkers/checker_factory.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace prmkit {

const std::vector<std::string>& checkerNames() {
  static const std::vector<std::string> names{"discrete", "adaptive", "budgeted"};
  return names;
}

std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene) {
  if (settings.type == "discrete") return std::make_unique<DiscreteChecker>(robot, scene, settings.discrete);
  if (settings.type == "adaptive") return std::make_unique<AdaptiveChecker>(robot, scene, settings.adaptive);
  if (settings.type == "budgeted") return std::make_unique<BudgetedChecker>(robot, scene, settings.budgeted);
  throw std::invalid_argument(
      fmt::format("unknown checker '{}' (expected one of: {})", settings.type, fmt::join(checkerNames(), ", ")));
}

}  // namespace prmkit
