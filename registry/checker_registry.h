#pragma once
// The strategies prmkit knows: the ones compiled in, in one list, and the
// ones registered at run time (registerChecker: a plug-in, or a test's own
// strategy). Everything that names or configures a strategy (the problem
// reader, the CLI's name lists, `compare`, the verifier, the docs test)
// reads it from here; adding a strategy is its file pair, one entry in
// CheckerTypes (or one registerChecker call) and one in the conformance
// suite's type list (docs/adding-a-checker.md).
#include "checkers/adaptive_checker.h"
#include "checkers/budgeted_checker.h"
#include "checkers/checker.h"
#include "checkers/discrete_checker.h"
#include "checkers/registered_settings.h"
#include "checkers/swept_checker.h"

#include <functional>
#include <string_view>
#include <tuple>

namespace prmkit {

/// Every strategy. Each class has `using Settings` (a struct with a
/// `fields(Fields&)` list, checkers/settings_fields.h) and a `kName`.
using CheckerTypes = std::tuple<DiscreteChecker, AdaptiveChecker, BudgetedChecker, SweptChecker>;

namespace detail {
template <class Tuple>
struct SettingsOf;
template <class... Checkers>
struct SettingsOf<std::tuple<Checkers...>> {
  using type = std::tuple<typename Checkers::Settings...>;
};
}  // namespace detail

/// A strategy registered at run time: its name, its default settings and how to make it.
struct RegisteredStrategy {
  RegisteredSettings defaults;
  std::function<std::unique_ptr<Checker>(const RegisteredSettings&, std::shared_ptr<const Robot>,
                                         std::shared_ptr<const Scene>)>
      make;
};
/// Adds a strategy; throws std::invalid_argument when its name is taken.
/// Register before reading problems (e.g. from a static initializer):
/// CheckerSettings made earlier do not hold the new strategy's settings.
/// Not thread-safe.
void registerStrategy(RegisteredStrategy strategy);
/// The strategies registered at run time, in registration order.
const std::vector<RegisteredStrategy>& registeredStrategies();

/// Registers a checker class written as docs/adding-a-checker.md says (with
/// `Settings`, `kName` and a (robot, scene, Settings) constructor).
template <class CheckerType>
void registerChecker() {
  using Settings = typename CheckerType::Settings;
  registerStrategy(RegisteredStrategy{
      RegisteredSettings(std::string(CheckerType::kName), Settings{}),
      [](const RegisteredSettings& settings, std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene) {
        return std::unique_ptr<Checker>(
            std::make_unique<CheckerType>(std::move(robot), std::move(scene), settings.as<Settings>()));
      }});
}

/// The default settings of every registered strategy.
std::vector<RegisteredSettings> registeredDefaults();

/// Settings of every strategy; `type` picks one.
struct CheckerSettings {
  std::string type = "adaptive";  // exact by default; discrete stays for comparison
  /// What checks look at first, for every strategy (the verdicts are the same).
  Geometry geometry = Geometry::Convex;
  typename detail::SettingsOf<CheckerTypes>::type strategies;
  /// Those of the strategies registered at run time, in registration order.
  std::vector<RegisteredSettings> registered = registeredDefaults();

  template <class CheckerType>
  typename CheckerType::Settings& of() {
    return std::get<typename CheckerType::Settings>(strategies);
  }
  template <class CheckerType>
  const typename CheckerType::Settings& of() const {
    return std::get<typename CheckerType::Settings>(strategies);
  }
};

/// Calls visit(name, settings) for every strategy, in CheckerTypes' order,
/// then the registered ones (whose settings are a RegisteredSettings).
template <class Visitor>
void forEachStrategy(CheckerSettings& settings, Visitor&& visit) {
  [&]<class... Checkers>(std::tuple<Checkers...>*) {
    (visit(std::string_view(Checkers::kName), settings.of<Checkers>()), ...);
  }(static_cast<CheckerTypes*>(nullptr));
  for (RegisteredSettings& registered : settings.registered) visit(std::string_view(registered.name()), registered);
}

/// Throws std::invalid_argument on an unknown type or invalid settings.
std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene);
/// The exact checker that verifies paths (the `adaptive` settings of `settings`).
std::unique_ptr<Checker> makeVerifier(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                      std::shared_ptr<const Scene> scene);
/// Every strategy's name, in CheckerTypes' order, then the registered ones.
std::vector<std::string> checkerNames();

}  // namespace prmkit
