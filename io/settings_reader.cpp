#include "io/settings_reader.h"

#include "io/problem.h"
#include "registry/planner_registry.h"
#include "sampling/sampler.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace prmkit {

namespace {

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
      if (!range.contains(value)) outOfRange(node, name, range);
    }
  }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange& range) {
    if (const YAML::Node node = given(name)) {
      const long read =
          in_.integer(node, what(name, range), std::numeric_limits<long>::min(), std::numeric_limits<long>::max());
      if (!range.contains(static_cast<double>(read))) outOfRange(node, name, range);
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
  [[noreturn]] void outOfRange(const YAML::Node& node, std::string_view name, const NumberRange& range) const {
    in_.fail(node, fmt::format("{}.{} must be {}, got {}", path_, name, range.describe(), node.Scalar()));
  }
  std::string what(std::string_view name, const NumberRange& range) const {
    return range.unit.empty() ? fmt::format("{}.{}", path_, name) : fmt::format("{}.{} ({})", path_, name, range.unit);
  }
  const YamlReader& in_;
  const YAML::Node& section_;
  std::string path_;
  std::set<std::string> keys_;
};

/// Most entries of `planner.parameters` (each is checked by making a planner).
constexpr std::size_t kMaxPlannerParameters = 100;

/// `planner.parameters`: the planner's own library's parameters, each name
/// and value checked by the planner's kind (so an error has its line).
void readPlannerParameters(const YamlReader& in, const YAML::Node& given, PlannerSettings& s) {
  const PlannerKind& kind = plannerKind(s.type);
  // A map made by --set has no location; its first value has the option's.
  const YAML::Node at = given.IsMap() && given.size() > 0 ? given.begin()->second : given;
  if (!kind.parameter_names || !kind.parameter_error)
    in.fail(at, fmt::format("planner.parameters: planner {} takes no parameters of another library's (OMPL's "
                            "planners by name, ompl:NAME, take OMPL's)",
                            s.type));
  if (!given.IsMap()) in.fail(given, "expected planner.parameters to be a map of parameter names to values");
  if (given.size() > kMaxPlannerParameters)
    in.fail(given, fmt::format("planner.parameters holds at most {} entries", kMaxPlannerParameters));
  for (const auto& entry : given) {
    const std::string name = in.string(entry.first, "planner.parameters key");
    const std::string what = "planner.parameters." + name;
    if (!entry.second.IsScalar()) in.fail(entry.second, fmt::format("expected {} to be a single value", what));
    const std::string value = entry.second.Scalar();
    // Located at the value: a key given by --set has no location of its own.
    if (const std::string error = kind.parameter_error(name, value); !error.empty()) in.fail(entry.second, error);
    s.parameters.emplace_back(name, value);
  }
  if (kind.parameter_set_error)
    if (const std::string error = kind.parameter_set_error(s.parameters); !error.empty()) in.fail(at, error);
}

void readPlannerSection(const YamlReader& in, const YAML::Node& p, PlannerSettings& s) {
  // The shared fields and each family's section (`planner.lazy_prm: {batch:
  // ...}`); a section's fields may also be written directly under `planner:`
  // (registerPlanner keeps every field name unique), the form every problem
  // file used before sections and the shortest on the command line.
  std::vector<std::string> keys = sharedPlannerKeys();
  for (RegisteredSettings& section : s.sections) {
    keys.push_back(section.name());
    for (std::string& field : fieldNames(section)) keys.push_back(std::move(field));
  }
  in.requireMap(p, "planner", keys);
  if (p["type"]) s.type = in.oneOf(p["type"], "planner", plannerNames());
  if (p["verify_final_path"]) s.verify_final_path = in.boolean(p["verify_final_path"], "planner.verify_final_path");
  if (p["parameters"]) readPlannerParameters(in, p["parameters"], s);
  if (p["sampler"]) {
    s.sampler = in.string(p["sampler"], "planner.sampler");
    try {
      parseSamplerMix(s.sampler);
    } catch (const std::invalid_argument& e) {
      in.fail(p["sampler"], e.what());
    }
  }
  YamlFields shared(in, p, "planner");
  s.fields(shared);
  for (RegisteredSettings& section : s.sections) {
    const std::string path = fmt::format("planner.{}", section.name());
    std::set<std::string> given;
    if (const YAML::Node own = p[section.name()]) {
      in.requireMap(own, path, fieldNames(section));
      YamlFields reader(in, own, path);
      section.fields(reader);
      given = reader.keys();
    }
    YamlFields flat(in, p, "planner");
    section.fields(flat);
    for (const std::string& field : flat.keys()) {
      if (given.count(field) != 0)
        in.fail(p[field], fmt::format("planner.{} is also given as {}.{}", field, path, field));
      given.insert(field);
    }
    section.afterRead(given);
  }
}

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

void scaleCheckerLengths(CheckerSettings& checker, double factor) {
  LengthScaler lengths{factor};
  forEachStrategy(checker, [&](std::string_view, auto& settings) { settings.fields(lengths); });
}

std::optional<double> readScale(const YamlReader& in, const YAML::Node& root) {
  if (!root["scale"]) return std::nullopt;
  const double factor = in.positive(root["scale"], "scale");
  if (!(factor >= 1e-9 && factor <= 1e9)) in.fail(root["scale"], "scale must lie in [1e-9, 1e9]");
  return factor;
}

void validateSettings(const YamlReader& in, const YAML::Node& root, CheckerSettings& checker,
                      const PlannerSettings& planner) {
  try {
    forEachStrategy(checker, [&](std::string_view name, auto& settings) {
      validateFields(settings, fmt::format("checker.{}", name));
    });
    makePlanner(planner);
  } catch (const std::invalid_argument& e) {
    in.fail(root, e.what());
  }
}

Problem withRunSettings(const Problem& problem, const LoadOptions& options) {
  // yaml-cpp's reads are not thread-safe (iterating a map fills caches of its
  // own), and Python plans one loaded problem from several threads at once:
  // one reader of any problem's settings at a time, on a copy of its own after.
  static std::mutex sourceMutex;
  YAML::Node root;
  {
    const std::lock_guard lock(sourceMutex);
    root = problem.settings_source.IsMap() ? YAML::Clone(problem.settings_source) : YAML::Node(YAML::NodeType::Map);
  }
  YamlReader in(problem.file, root, {});
  auto refuseOtherKeys = [&](const std::string& assignment, const std::string& option) {
    const std::string key = assignment.substr(0, assignment.find_first_of(".="));
    if (std::find_if(kRunSettingKeys.begin(), kRunSettingKeys.end(), [&](const char* k) { return key == k; }) ==
        kRunSettingKeys.end())
      throw InputError(fmt::format(
          "{}: '{}' is not a run setting (one of {}): it changes the problem, so give it "
          "when the problem is loaded",
          option.empty() ? "--set " + excerpt(assignment) : option, excerpt(key), fmt::join(kRunSettingKeys, ", ")));
  };
  for (const auto& o : options.overrides) {
    refuseOtherKeys(o, {});
    in.applyOverride(o);
  }
  for (const auto& [option, assignment] : options.options) {
    refuseOtherKeys(assignment, option);
    in.applyOverride(assignment, option);
  }
  try {
    Problem result = problem;
    result.planner = PlannerSettings{};
    result.checker = CheckerSettings{};
    readPlanner(in, in.root(), result.planner);
    readChecker(in, in.root(), result.checker);
    if (const auto factor = readScale(in, in.root())) scaleCheckerLengths(result.checker, *factor);
    validateSettings(in, in.root(), result.checker, result.planner);
    // reset, not assignment: a yaml-cpp Node assigned to rebinds the node it
    // shares with `problem`, which would change the loaded problem's settings.
    result.settings_source.reset(in.root());
    return result;
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: {}", problem.file.string(), e.msg));
  }
}

}  // namespace prmkit
