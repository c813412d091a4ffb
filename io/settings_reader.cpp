#include "io/settings_reader.h"

#include "planner/sampler.h"
#include "planner/planner_registry.h"

#include <fmt/format.h>

#include <limits>
#include <set>
#include <string>
#include <vector>

namespace prmkit {

namespace {

void readPlannerSection(const YamlReader& in, const YAML::Node& p, PlannerSettings& s) {
  in.requireMap(p, "planner",
                {"type", "k", "radius", "batch", "batch_fraction", "enhance", "sampler", "sampler_sigma", "expand",
                 "expand_bounces", "expand_step", "path_check", "skip_same_component", "shortcut", "shortcut_attempts",
                 "min_confidence", "verify_final_path", "threads"});
  if (p["min_confidence"]) {
    s.min_confidence = in.number(p["min_confidence"], "planner.min_confidence (%)");
    if (s.min_confidence < 0 || s.min_confidence > 100)
      in.fail(p["min_confidence"], "planner.min_confidence is a percentage in [0, 100]");
  }
  if (p["verify_final_path"]) s.verify_final_path = in.boolean(p["verify_final_path"], "planner.verify_final_path");
  if (p["type"]) s.type = in.oneOf(p["type"], "planner", plannerNames());
  if (p["k"]) s.k = static_cast<std::size_t>(in.integer(p["k"], "planner.k", 1, kMaxNeighbours));
  if (p["radius"]) s.radius = in.positive(p["radius"], "planner.radius");
  if (p["batch"]) s.batch = static_cast<std::size_t>(in.integer(p["batch"], "planner.batch", 1, kMaxBatch));
  if (p["threads"]) {
    s.threads = static_cast<std::size_t>(
        in.integer(p["threads"], "planner.threads (0: every core)", 0, static_cast<long>(kMaxPlannerThreads)));
  }
  if (p["sampler"]) {
    s.sampler = in.string(p["sampler"], "planner.sampler");
    try {
      parseSamplerMix(s.sampler);
    } catch (const std::invalid_argument& e) {
      in.fail(p["sampler"], e.what());
    }
  }
  auto fraction = [&](const char* key, double& value) {
    if (!p[key]) return;
    value = in.number(p[key], fmt::format("planner.{}", key));
    if (!(value >= 0 && value <= 1)) in.fail(p[key], fmt::format("planner.{} is a fraction in [0, 1]", key));
  };
  fraction("sampler_sigma", s.sampler_sigma);
  if (p["sampler_sigma"] && s.sampler_sigma == 0) in.fail(p["sampler_sigma"], "planner.sampler_sigma must be positive");
  fraction("enhance", s.enhance);
  fraction("batch_fraction", s.batch_fraction);
  fraction("expand", s.expand);
  fraction("expand_step", s.expand_step);
  if (p["expand_step"] && s.expand_step == 0) in.fail(p["expand_step"], "planner.expand_step must be positive");
  if (p["expand_bounces"])
    s.expand_bounces =
        static_cast<std::size_t>(in.integer(p["expand_bounces"], "planner.expand_bounces", 1, kMaxExpandBounces));
  if (p["path_check"])
    s.path_check = in.oneOf(p["path_check"], "planner.path_check", {"first_collision", "whole_path"}) == "whole_path"
                       ? PlannerSettings::PathCheck::WholePath
                       : PlannerSettings::PathCheck::FirstCollision;
  if (p["skip_same_component"])
    s.skip_same_component = in.boolean(p["skip_same_component"], "planner.skip_same_component");
  if (p["shortcut"]) s.shortcut = in.boolean(p["shortcut"], "planner.shortcut");
  if (p["shortcut_attempts"])
    s.shortcut_attempts = static_cast<std::size_t>(
        in.integer(p["shortcut_attempts"], "planner.shortcut_attempts", 1, kMaxShortcutAttempts));
}

void readLimitsAndSeed(const YamlReader& in, const YAML::Node& root, PlannerSettings& s) {
  if (const YAML::Node l = root["limits"]) {
    in.requireMap(l, "limits", {"time", "samples"});
    if (l["time"]) s.time_limit_s = in.positive(l["time"], "limits.time (s)");
    if (l["samples"])
      s.max_samples = static_cast<std::size_t>(in.integer(l["samples"], "limits.samples", 1, kMaxSamples));
  }
  if (root["seed"]) {
    s.seed = static_cast<std::uint32_t>(in.integer(root["seed"], "seed", 0, std::numeric_limits<std::uint32_t>::max()));
  }
}

/// Reads a strategy's section by walking its fields (checkers/settings_fields.h):
/// the section's keys, their types and ranges all come from that one list.
class YamlFields {
 public:
  YamlFields(const YamlReader& in, const YAML::Node& section, std::string path)
      : in_(in), section_(section), path_(std::move(path)) {}
  void number(std::string_view name, double& value, const NumberRange& range) {
    if (const YAML::Node node = given(name)) {
      value = in_.number(node, what(name, range));
      if (!range.contains(value)) in_.fail(node, fmt::format("{}.{} must be {}", path_, name, range.describe()));
    }
  }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange& range) {
    if (const YAML::Node node = given(name)) {
      const long read =
          in_.integer(node, what(name, range), std::numeric_limits<long>::min(), std::numeric_limits<long>::max());
      if (!range.contains(static_cast<double>(read)))
        in_.fail(node, fmt::format("{}.{} must be {}", path_, name, range.describe()));
      value = static_cast<Integer>(read);
    }
  }
  template <class T, class Choices>
  void choice(std::string_view name, T& value, const Choices& choices) {
    if (const YAML::Node node = given(name)) {
      std::vector<std::string> names;
      for (const auto& choice : choices) names.emplace_back(choice.name);
      const std::string chosen = in_.oneOf(node, fmt::format("{}.{}", path_, name), names);
      for (const auto& choice : choices)
        if (chosen == choice.name) value = choice.value;
    }
  }
  void boolean(std::string_view name, bool& value) {
    if (const YAML::Node node = given(name)) value = in_.boolean(node, fmt::format("{}.{}", path_, name));
  }
  void geometry(Geometry&) {}
  const std::set<std::string>& keys() const { return keys_; }

 private:
  YAML::Node given(std::string_view name) {
    YAML::Node node = section_[std::string(name)];
    if (node) keys_.emplace(name);
    return node;
  }
  std::string what(std::string_view name, const NumberRange& range) const {
    return range.unit.empty() ? fmt::format("{}.{}", path_, name) : fmt::format("{}.{} ({})", path_, name, range.unit);
  }
  const YamlReader& in_;
  const YAML::Node& section_;
  std::string path_;
  std::set<std::string> keys_;
};

}  // namespace

void readPlanner(const YamlReader& in, const YAML::Node& root, PlannerSettings& s) {
  if (const YAML::Node p = root["planner"]) readPlannerSection(in, p, s);
  readLimitsAndSeed(in, root, s);
}

void readChecker(const YamlReader& in, const YAML::Node& root, CheckerSettings& s) {
  const YAML::Node c = root["checker"];
  if (!c) return;
  // Each strategy's settings live in its own section, so that switching
  // `type` (e.g. --checker adaptive) keeps the other sections valid.
  std::vector<std::string> keys{"type", "geometry"};
  for (const std::string& name : checkerNames()) keys.push_back(name);
  in.requireMap(c, "checker", keys);
  if (c["geometry"])
    s.geometry =
        in.oneOf(c["geometry"], "checker.geometry", {"convex", "mesh"}) == "convex" ? Geometry::Convex : Geometry::Mesh;
  if (c["type"]) s.type = in.oneOf(c["type"], "checker", checkerNames());
  forEachStrategy(s, [&](std::string_view name, auto& settings) {
    const YAML::Node section = c[std::string(name)];
    if (!section) return;
    const std::string path = fmt::format("checker.{}", name);
    in.requireMap(section, path, fieldNames(settings));
    YamlFields reader(in, section, path);
    settings.fields(reader);
    if constexpr (requires { settings.afterRead(reader.keys()); }) settings.afterRead(reader.keys());
  });
}

}  // namespace prmkit
