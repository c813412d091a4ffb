#include "planner/planner_registry.h"

#include "planner/lazy_prm.h"
#include "planner/ompl_planner.h"
#include "planner/prm.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace prmkit {

namespace {
std::vector<PlannerKind>& kinds() {
  static std::vector<PlannerKind> all = [] {
    std::vector<PlannerKind> compiled;
    for (auto&& family : {Prm::kinds(), LazyPrm::kinds(), OmplPlanner::kinds()})
      compiled.insert(compiled.end(), family.begin(), family.end());
    return compiled;
  }();
  return all;
}
}  // namespace

void registerPlanner(PlannerKind kind) {
  if (kind.name.empty() || !kind.make) throw std::invalid_argument("a planner needs a name and a way to make it");
  if (std::any_of(kinds().begin(), kinds().end(), [&](const PlannerKind& k) { return k.name == kind.name; }))
    throw std::invalid_argument(fmt::format("a planner named '{}' is already registered", kind.name));
  kinds().push_back(std::move(kind));
}

const std::vector<PlannerKind>& plannerKinds() { return kinds(); }

const PlannerKind& plannerKind(std::string_view name) {
  for (const PlannerKind& kind : kinds())
    if (kind.name == name) return kind;
  throw std::invalid_argument(
      fmt::format("unknown planner '{}' (expected one of {})", name, fmt::join(plannerNames(), ", ")));
}

std::vector<std::string> plannerNames() {
  std::vector<std::string> names;
  for (const PlannerKind& kind : kinds()) names.push_back(kind.name);
  return names;
}

std::unique_ptr<Planner> makePlanner(const PlannerSettings& settings) {
  return plannerKind(settings.type).make(settings);
}

}  // namespace prmkit
