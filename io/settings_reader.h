#pragma once
// The settings sections of a problem file: `planner`, `limits` and `seed`
// into PlannerSettings, `checker` into CheckerSettings (each strategy's
// section read by walking its fields, checkers/settings_fields.h).
#include "checkers/checker_registry.h"
#include "io/yaml_reader.h"
#include "planner/planner.h"

namespace prmkit {

/// Reads `planner`, `limits` and `seed` of a problem file where given; fails with the key's location.
void readPlanner(const YamlReader& in, const YAML::Node& root, PlannerSettings& settings);
/// Reads `checker` (type, geometry and every strategy's section) where given.
void readChecker(const YamlReader& in, const YAML::Node& root, CheckerSettings& settings);

}  // namespace prmkit
