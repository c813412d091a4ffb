#pragma once
// The checking strategies prmkit knows, in one registry (base/registry.h):
// the compiled-in ones, each a kind made from its class, and the ones
// registered at run time (registerChecker: a plug-in, or a test's own
// strategy), every one with its settings section held type-erased behind
// the field visitors (checkers/registered_settings.h). Everything that names
// or configures a strategy (the problem reader, the CLI's name lists,
// `compare`, the verifier, the docs test) reads it from here; adding a
// strategy is its file pair, one line in this registry's list and one in the
// conformance suite's type list (docs/adding-a-checker.md).
#include "checkers/checker.h"
#include "checkers/registered_settings.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

/// A strategy by name: its settings section's defaults and how to make it.
struct CheckerKind {
  std::string name;
  /// The defaults of its section (`checker.<name>`), named as the strategy.
  RegisteredSettings defaults;
  /// Makes one with these settings (the section's, the checker-wide
  /// geometry applied); throws std::invalid_argument on invalid settings.
  std::function<std::unique_ptr<Checker>(const RegisteredSettings&, std::shared_ptr<const Robot>,
                                         std::shared_ptr<const Scene>)>
      make;
  /// Its own counters (CheckStats::strategy), as its class declares them (kCounters).
  std::span<const CounterSpec> counters = {};
};

/// The kind of a checker class written as docs/adding-a-checker.md says
/// (with `Settings`, `kName` and a (robot, scene, Settings) constructor).
template <class CheckerType>
CheckerKind checkerKindOf() {
  using Settings = typename CheckerType::Settings;
  std::span<const CounterSpec> counters;
  if constexpr (requires { CheckerType::kCounters; }) counters = CheckerType::kCounters;
  return CheckerKind{
      std::string(CheckerType::kName), RegisteredSettings(std::string(CheckerType::kName), Settings{}),
      [](const RegisteredSettings& settings, std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene) {
        return std::unique_ptr<Checker>(
            std::make_unique<CheckerType>(std::move(robot), std::move(scene), settings.as<Settings>()));
      },
      counters};
}

/// Adds a strategy; throws std::invalid_argument when its name is taken or it
/// cannot be made. Register before reading problems (e.g. from a static
/// initializer): CheckerSettings made earlier do not hold the new strategy's
/// settings (makeChecker then gives it its defaults). Not thread-safe.
void registerChecker(CheckerKind kind);
template <class CheckerType>
void registerChecker() {
  registerChecker(checkerKindOf<CheckerType>());
}
/// Every strategy: the compiled-in ones, then the registered ones in registration order.
const std::vector<CheckerKind>& checkerKinds();
/// Every strategy's name, in checkerKinds() order.
std::vector<std::string> checkerNames();

/// Every strategy's own counters, each name once, in checkerKinds() order:
/// the counters of a table or a record that may hold any strategy's runs.
std::vector<CounterSpec> checkCounterSpecs();
/// The own counters of the strategy called `name` (none for a name that is
/// not registered, such as an OMPL peer's).
std::span<const CounterSpec> strategyCounters(std::string_view name);

/// Settings of every strategy; `type` picks one.
struct CheckerSettings {
  std::string type = "adaptive";  // exact by default; discrete stays for comparison
  /// What checks look at first, for every strategy (the verdicts are the same).
  Geometry geometry = Geometry::Convex;
  /// Each strategy's section, in checkerKinds() order (as it was when these settings were made).
  std::vector<RegisteredSettings> strategies = strategyDefaults();

  /// The section of strategy class CheckerType (std::invalid_argument if it is not registered).
  template <class CheckerType>
  typename CheckerType::Settings& of() {
    return section(CheckerType::kName).template as<typename CheckerType::Settings>();
  }
  template <class CheckerType>
  const typename CheckerType::Settings& of() const {
    return const_cast<CheckerSettings&>(*this).of<CheckerType>();
  }
  RegisteredSettings& section(std::string_view name);
  static std::vector<RegisteredSettings> strategyDefaults();
};

/// Calls visit(name, settings) for every strategy's section, in checkerKinds() order.
template <class Visitor>
void forEachStrategy(CheckerSettings& settings, Visitor&& visit) {
  for (RegisteredSettings& strategy : settings.strategies) visit(std::string_view(strategy.name()), strategy);
}

/// Throws std::invalid_argument on an unknown type or invalid settings.
std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene);
/// The exact checker that verifies paths (the `adaptive` settings of `settings`).
std::unique_ptr<Checker> makeVerifier(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                      std::shared_ptr<const Scene> scene);

}  // namespace prmkit
