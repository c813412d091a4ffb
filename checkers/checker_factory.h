#pragma once
#include "checkers/adaptive_checker.h"
#include "checkers/budgeted_checker.h"
#include "checkers/checker.h"
#include "checkers/discrete_checker.h"

namespace prmkit {

/// Settings of every strategy; `type` picks one.
struct CheckerSettings {
  std::string type = "adaptive";  // exact by default; discrete stays for comparison
  DiscreteSettings discrete;
  AdaptiveSettings adaptive;
  BudgetedSettings budgeted;
};

/// Throws std::invalid_argument on an unknown type or invalid settings.
std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene);
const std::vector<std::string>& checkerNames();

}  // namespace prmkit
