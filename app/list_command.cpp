// `prmkit list planners|checkers|samplers`: every registered one with its
// settings (each field's default and accepted values, walked from the same
// fields() lists the problem reader reads) and, for OMPL's planners, OMPL's
// own parameters with their defaults and range suggestions.
#include "app/commands.h"
#include "app/jobs.h"

#include "ompl/ompl_named_planners.h"
#include "registry/planner_registry.h"
#include "sampling/sampler_registry.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace prmkit::cli {

namespace {

/// One entry of `prmkit list`: a name, what it is, and its settings.
struct Listed {
  std::string name, description, section;
  std::vector<FieldDescription> fields;
};

template <class Settings>
std::vector<FieldDescription> describeFields(Settings settings) {
  FieldDescriptions described;
  settings.fields(described);
  return described.fields;
}

std::vector<Listed> listed(const std::string& what) {
  std::vector<Listed> entries;
  if (what == "planners") {
    entries.push_back(
        {"(every planner)", "the settings every planner reads", "planner", describeFields(PlannerSettings{})});
    for (const PlannerKind& kind : plannerKinds()) {
      Listed entry{kind.name, kind.description, "", {}};
      if (kind.section) {
        RegisteredSettings section = *kind.section;
        entry.section = "planner." + section.name();
        entry.fields = describeFields(section);
      } else if (kind.parameter_names) {
        entry.section = "planner.parameters";
        entry.fields = omplParameterDescriptions(kind.name);
      }
      entries.push_back(std::move(entry));
    }
  } else if (what == "checkers") {
    CheckerSettings defaults;
    forEachStrategy(defaults, [&](std::string_view name, auto& settings) {
      entries.push_back({std::string(name), "collision-checking strategy", fmt::format("checker.{}", name),
                         describeFields(settings)});
    });
  } else {
    for (const SamplerKind& kind : samplerKinds()) entries.push_back({kind.name, kind.description, "", {}});
  }
  return entries;
}

}  // namespace

Command listCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    std::string what;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("list",
                                 "list the planners, checkers or samplers, with their settings, defaults and "
                                 "accepted values");
  sub->add_option("what", a->what, "planners, checkers or samplers")
      ->required()
      ->check(CLI::IsMember({"planners", "checkers", "samplers"}));
  sub->add_flag("--json", a->json, "one JSON document, for scripts");
  return {sub, [a, &out] {
            const std::vector<Listed> entries = listed(a->what);
            if (a->json) {
              nlohmann::ordered_json list = nlohmann::ordered_json::array();
              for (const Listed& e : entries) {
                nlohmann::ordered_json item{{"name", e.name}, {"description", e.description}};
                if (!e.section.empty()) item["section"] = e.section;
                item["settings"] = nlohmann::ordered_json::array();
                for (const FieldDescription& f : e.fields)
                  item["settings"].push_back({{"name", f.name},
                                              {"kind", f.kind},
                                              {"default", f.default_value},
                                              {"accepts", f.accepts},
                                              {"unit", f.unit}});
                list.push_back(std::move(item));
              }
              out << list.dump(2) << "\n";
              return kOk;
            }
            for (const Listed& e : entries) {
              out << fmt::format("{}: {}\n", e.name, e.description);
              for (const FieldDescription& f : e.fields)
                out << fmt::format("    {}{}: {} (default {}; {})\n", e.section.empty() ? "" : e.section + ".", f.name,
                                   f.kind, f.default_value.empty() ? "none" : f.default_value, f.accepts);
            }
            return kOk;
          }};
}

}  // namespace prmkit::cli
