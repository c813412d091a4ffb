#include "registry/checker_registry.h"

#include <algorithm>

#include "base/registry.h"
#include "checkers/adaptive_checker.h"
#include "checkers/budgeted_checker.h"
#include "checkers/discrete_checker.h"
#include "checkers/spheres_checker.h"
#include "checkers/swept_checker.h"

#include <fmt/format.h>

namespace prmkit {

namespace {
Registry<CheckerKind>& registry() {
  // The compiled-in strategies, one line each.
  static Registry<CheckerKind> strategies("checker", {
                                                         checkerKindOf<DiscreteChecker>(),
                                                         checkerKindOf<AdaptiveChecker>(),
                                                         checkerKindOf<BudgetedChecker>(),
                                                         checkerKindOf<SweptChecker>(),
                                                         checkerKindOf<SpheresChecker>(),
                                                     });
  return strategies;
}

/// The section with the checker-wide geometry applied, then made.
std::unique_ptr<Checker> make(const CheckerKind& kind, RegisteredSettings own, Geometry geometry,
                              std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene) {
  GeometrySetter setter{geometry};
  own.fields(setter);
  return kind.make(own, std::move(robot), std::move(scene));
}

/// The settings' section for `kind`, or its defaults if these settings predate its registration.
const RegisteredSettings& sectionFor(const CheckerSettings& settings, const CheckerKind& kind) {
  for (const RegisteredSettings& read : settings.strategies)
    if (read.name() == kind.name) return read;
  return kind.defaults;
}
}  // namespace

void registerChecker(CheckerKind kind) {
  registry().add(std::move(kind), [](const CheckerKind& k) {
    if (!k.make) throw std::invalid_argument(fmt::format("checker '{}' needs a way to make it", k.name));
    if (k.defaults.name() != k.name)
      throw std::invalid_argument(
          fmt::format("checker '{}' has the settings of another name ('{}')", k.name, k.defaults.name()));
  });
}

const std::vector<CheckerKind>& checkerKinds() { return registry().all(); }

std::vector<std::string> checkerNames() { return registry().names(); }

std::vector<CounterSpec> checkCounterSpecs() {
  std::vector<CounterSpec> counters;
  for (const CheckerKind& kind : registry().all())
    for (const CounterSpec& counter : kind.counters)
      if (std::none_of(counters.begin(), counters.end(),
                       [&](const CounterSpec& known) { return known.name == counter.name; }))
        counters.push_back(counter);
  return counters;
}

std::span<const CounterSpec> strategyCounters(std::string_view name) {
  const CheckerKind* kind = registry().find(name);
  return kind ? kind->counters : std::span<const CounterSpec>{};
}

std::vector<RegisteredSettings> CheckerSettings::strategyDefaults() {
  std::vector<RegisteredSettings> defaults;
  for (const CheckerKind& kind : registry().all()) defaults.push_back(kind.defaults);
  return defaults;
}

RegisteredSettings& CheckerSettings::section(std::string_view name) {
  for (RegisteredSettings& strategy : strategies)
    if (strategy.name() == name) return strategy;
  throw std::invalid_argument(fmt::format("these checker settings hold no section '{}'", name));
}

std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene) {
  const CheckerKind& kind = registry().get(settings.type);
  return make(kind, sectionFor(settings, kind), settings.geometry, std::move(robot), std::move(scene));
}

std::unique_ptr<Checker> makeVerifier(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                      std::shared_ptr<const Scene> scene) {
  const CheckerKind& kind = registry().get(AdaptiveChecker::kName);
  return make(kind, sectionFor(settings, kind), settings.geometry, std::move(robot), std::move(scene));
}

}  // namespace prmkit
