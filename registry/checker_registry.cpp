#include "registry/checker_registry.h"

#include "base/names.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace prmkit {

namespace {
template <class CheckerType>
std::unique_ptr<Checker> make(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                              std::shared_ptr<const Scene> scene) {
  typename CheckerType::Settings own = settings.of<CheckerType>();
  GeometrySetter geometry{settings.geometry};
  own.fields(geometry);
  return std::make_unique<CheckerType>(std::move(robot), std::move(scene), own);
}

std::vector<RegisteredStrategy>& registry() {
  static std::vector<RegisteredStrategy> strategies;
  return strategies;
}
}  // namespace

void registerStrategy(RegisteredStrategy strategy) {
  const std::vector<std::string> taken = checkerNames();
  if (std::find(taken.begin(), taken.end(), strategy.defaults.name()) != taken.end())
    throw std::invalid_argument(fmt::format("a checker named '{}' is already registered", strategy.defaults.name()));
  registry().push_back(std::move(strategy));
}

const std::vector<RegisteredStrategy>& registeredStrategies() { return registry(); }

std::vector<RegisteredSettings> registeredDefaults() {
  std::vector<RegisteredSettings> defaults;
  for (const RegisteredStrategy& strategy : registry()) defaults.push_back(strategy.defaults);
  return defaults;
}

std::vector<std::string> checkerNames() {
  std::vector<std::string> all;
  CheckerSettings settings;
  forEachStrategy(settings, [&](std::string_view name, auto&) { all.emplace_back(name); });
  return all;
}

std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene) {
  std::unique_ptr<Checker> checker;
  [&]<class... Checkers>(std::tuple<Checkers...>*) {
    // The first strategy whose name matches is made; the others are not tried.
    static_cast<void>(
        ((settings.type == Checkers::kName && (checker = make<Checkers>(settings, robot, scene))) || ...));
  }(static_cast<CheckerTypes*>(nullptr));
  if (checker) return checker;
  for (const RegisteredStrategy& strategy : registry()) {
    if (strategy.defaults.name() != settings.type) continue;
    // Settings read for it, or its defaults if this CheckerSettings predates its registration.
    RegisteredSettings own = strategy.defaults;
    for (const RegisteredSettings& read : settings.registered)
      if (read.name() == settings.type) own = read;
    GeometrySetter geometry{settings.geometry};
    own.fields(geometry);
    return strategy.make(own, std::move(robot), std::move(scene));
  }
  throw std::invalid_argument(unknownNameMessage("checker", settings.type, checkerNames()));
}

std::unique_ptr<Checker> makeVerifier(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                      std::shared_ptr<const Scene> scene) {
  return make<AdaptiveChecker>(settings, std::move(robot), std::move(scene));
}

}  // namespace prmkit
