#pragma once
// The strategies prmkit knows, in one list. Everything that names or
// configures a strategy (the problem reader, the CLI's name lists, `compare`,
// the verifier, the docs test) reads it from here; adding a strategy is its
// file pair, one entry in CheckerTypes and one in the conformance suite's
// type list (docs/adding-a-checker.md).
#include "checkers/adaptive_checker.h"
#include "checkers/budgeted_checker.h"
#include "checkers/checker.h"
#include "checkers/discrete_checker.h"

#include <string_view>
#include <tuple>

namespace prmkit {

/// Every strategy. Each class has `using Settings` (a struct with a
/// `fields(Fields&)` list, checkers/settings_fields.h) and a `kName`.
using CheckerTypes = std::tuple<DiscreteChecker, AdaptiveChecker, BudgetedChecker>;

namespace detail {
template <class Tuple>
struct SettingsOf;
template <class... Checkers>
struct SettingsOf<std::tuple<Checkers...>> {
  using type = std::tuple<typename Checkers::Settings...>;
};
}  // namespace detail

/// Settings of every strategy; `type` picks one.
struct CheckerSettings {
  std::string type = "adaptive";  // exact by default; discrete stays for comparison
  /// What checks look at first, for every strategy (the verdicts are the same).
  Geometry geometry = Geometry::Convex;
  typename detail::SettingsOf<CheckerTypes>::type strategies;

  template <class CheckerType>
  typename CheckerType::Settings& of() {
    return std::get<typename CheckerType::Settings>(strategies);
  }
  template <class CheckerType>
  const typename CheckerType::Settings& of() const {
    return std::get<typename CheckerType::Settings>(strategies);
  }
};

/// Calls visit(name, settings) for every strategy, in CheckerTypes' order.
template <class Visitor>
void forEachStrategy(CheckerSettings& settings, Visitor&& visit) {
  [&]<class... Checkers>(std::tuple<Checkers...>*) {
    (visit(std::string_view(Checkers::kName), settings.of<Checkers>()), ...);
  }(static_cast<CheckerTypes*>(nullptr));
}

/// Throws std::invalid_argument on an unknown type or invalid settings.
std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene);
/// The exact checker that verifies paths (the `adaptive` settings of `settings`).
std::unique_ptr<Checker> makeVerifier(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                      std::shared_ptr<const Scene> scene);
/// Every strategy's name, in CheckerTypes' order.
const std::vector<std::string>& checkerNames();

}  // namespace prmkit
