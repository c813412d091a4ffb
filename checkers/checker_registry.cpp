#include "checkers/checker_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
}  // namespace

const std::vector<std::string>& checkerNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    CheckerSettings settings;
    forEachStrategy(settings, [&](std::string_view name, auto&) { all.emplace_back(name); });
    return all;
  }();
  return names;
}

std::unique_ptr<Checker> makeChecker(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                     std::shared_ptr<const Scene> scene) {
  std::unique_ptr<Checker> checker;
  [&]<class... Checkers>(std::tuple<Checkers...>*) {
    // The first strategy whose name matches is made; the others are not tried.
    static_cast<void>(
        ((settings.type == Checkers::kName && (checker = make<Checkers>(settings, robot, scene))) || ...));
  }(static_cast<CheckerTypes*>(nullptr));
  if (!checker)
    throw std::invalid_argument(
        fmt::format("unknown checker '{}' (expected one of: {})", settings.type, fmt::join(checkerNames(), ", ")));
  return checker;
}

std::unique_ptr<Checker> makeVerifier(const CheckerSettings& settings, std::shared_ptr<const Robot> robot,
                                      std::shared_ptr<const Scene> scene) {
  return make<AdaptiveChecker>(settings, std::move(robot), std::move(scene));
}

}  // namespace prmkit
