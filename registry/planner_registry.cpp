#include "registry/planner_registry.h"

#include "base/registry.h"

#include "planner/lazy_prm.h"
#include "ompl/ompl_planner.h"
#include "planner/prm.h"
#include "planner/rrt_connect.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace prmkit {

namespace {
Registry<PlannerKind>& registry() {
  // The compiled-in families, one line each; each family's file pair lists its kinds.
  static Registry<PlannerKind> planners("planner", [] {
    std::vector<PlannerKind> compiled;
    // Lazy PRM's race rivals are made here, by name, like any planner.
    const PlannerFactory makeRival = [](const PlannerSettings& settings) { return makePlanner(settings); };
    for (auto&& family : {Prm::kinds(), LazyPrm::kinds(makeRival), RrtConnect::kinds(), OmplPlanner::kinds()})
      compiled.insert(compiled.end(), family.begin(), family.end());
    return compiled;
  }());
  return planners;
}
const std::vector<PlannerKind>& kinds() { return registry().all(); }
}  // namespace

std::vector<std::string> sharedPlannerKeys() {
  std::vector<std::string> keys{"type", "sampler", "verify_final_path", "parameters"};
  for (std::string& name : fieldNames(PlannerSettings{})) keys.push_back(std::move(name));
  return keys;
}

namespace {
/// A section's fields may also be written directly under `planner:`, so a
/// field name must say which section it belongs to: none may repeat a
/// shared key, a section's name or another section's field.
void checkSectionFits(const PlannerKind& kind) {
  const std::vector<std::string> shared = sharedPlannerKeys();
  std::set<std::string> taken(shared.begin(), shared.end());
  std::map<std::string, std::vector<std::string>> fieldsOf;
  for (const PlannerKind& k : kinds()) {
    if (!k.section) continue;
    taken.insert(k.section->name());
    fieldsOf[k.section->name()] = fieldNames(*k.section);
  }
  const std::string& name = kind.section->name();
  if (const auto same = fieldsOf.find(name); same != fieldsOf.end()) {
    if (same->second != fieldNames(*kind.section))
      throw std::invalid_argument(fmt::format("planner section '{}' is already registered with other fields", name));
  } else {
    if (taken.count(name) != 0)
      throw std::invalid_argument(fmt::format("planner section name '{}' is already a key of planner:", name));
    for (const auto& [section, fields] : fieldsOf)
      for (const std::string& field : fields) taken.insert(field);
    for (const std::string& field : fieldNames(*kind.section))
      if (taken.count(field) != 0)
        throw std::invalid_argument(
            fmt::format("planner section '{}' field '{}' is already a key of planner:", name, field));
  }
}
}  // namespace

void registerPlanner(PlannerKind kind) {
  registry().add(std::move(kind), [](const PlannerKind& k) {
    if (!k.make) throw std::invalid_argument(fmt::format("planner '{}' needs a way to make it", k.name));
    if (k.section) checkSectionFits(k);
  });
}

std::vector<RegisteredSettings> plannerSectionDefaults() {
  std::vector<RegisteredSettings> sections;
  for (const PlannerKind& kind : kinds()) {
    if (!kind.section) continue;
    const bool seen = std::any_of(sections.begin(), sections.end(),
                                  [&](const RegisteredSettings& s) { return s.name() == kind.section->name(); });
    if (!seen) sections.push_back(*kind.section);
  }
  return sections;
}

const std::vector<PlannerKind>& plannerKinds() { return kinds(); }

const PlannerKind& plannerKind(std::string_view name) { return registry().get(name); }

std::vector<std::string> plannerNames() { return registry().names(); }

std::unique_ptr<Planner> makePlanner(const PlannerSettings& settings) {
  const PlannerKind& kind = plannerKind(settings.type);
  return kind.make(settings, kind.capabilities);
}

std::vector<std::string> omplAppPlannersRun() {
  std::vector<std::string> names;
  for (const PlannerKind& kind : plannerKinds())
    for (const std::string& name : kind.capabilities.omplapp_names)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

std::vector<std::string> prmkitPlannersFor(const std::string& omplAppPlanner) {
  std::vector<std::string> runners;
  for (const PlannerKind& kind : plannerKinds()) {
    const auto& names = kind.capabilities.omplapp_names;
    if (std::find(names.begin(), names.end(), omplAppPlanner) != names.end()) runners.push_back(kind.name);
  }
  return runners;
}

}  // namespace prmkit
