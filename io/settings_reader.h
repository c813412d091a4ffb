#pragma once
// The settings sections of a problem file: `planner`, `limits` and `seed`
// into PlannerSettings, `checker` into CheckerSettings (each strategy's
// section read by walking its fields, checkers/settings_fields.h).
#include "registry/checker_registry.h"
#include "io/yaml_reader.h"
#include "planner/planner.h"

#include <optional>

namespace prmkit {

/// Reads `planner`, `limits` and `seed` of a problem file where given; fails with the key's location.
void readPlanner(const YamlReader& in, const YAML::Node& root, PlannerSettings& settings);
/// Reads `checker` (type, geometry and every strategy's section) where given.
void readChecker(const YamlReader& in, const YAML::Node& root, CheckerSettings& settings);
/// Multiplies every length of every strategy's settings by `factor` (a problem's `scale`).
void scaleCheckerLengths(CheckerSettings& checker, double factor);
/// A problem's `scale`, where given, checked (in [1e-9, 1e9]).
std::optional<double> readScale(const YamlReader& in, const YAML::Node& root);
/// What `scale` may have pushed out of range (the sections were checked
/// field by field as they were read), and a planner made once to validate
/// its settings; fails at `root`.
void validateSettings(const YamlReader& in, const YAML::Node& root, CheckerSettings& checker,
                      const PlannerSettings& planner);

}  // namespace prmkit
