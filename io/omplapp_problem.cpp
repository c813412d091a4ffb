#include "io/omplapp_problem.h"

#include "io/mesh_reader.h"

#include "base/input_file.h"
#include "shapes/mesh.h"
#include "planner/planner.h"
#include "sampling/sampler_registry.h"

#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

namespace prmkit {

bool isOmplAppConfig(const std::filesystem::path& file) { return file.extension() == ".cfg"; }

namespace {

std::string_view trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

/// A .cfg file read once: every section but [planner] parsed by Boost's INI
/// reader (which refuses a repeated key, as it must in [problem]); the lines
/// of [planner], where OMPL.app repeats keys on purpose (two instances of
/// one planner), kept in order with their line numbers.
struct CfgFile {
  std::filesystem::path file;
  std::vector<std::string> lines;
  std::vector<std::string> sections;  // per line: the section it lies in
  boost::property_tree::ptree tree;
  struct Entry {
    std::string key, value;
    int line;
  };
  std::vector<Entry> planner;

  /// "file:line" of the key's line in the section (the key is the file's text, compared as it is, not a pattern).
  std::string lineOf(const std::string& section, const std::string& key) const {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (sections[i] != section) continue;
      std::string_view line = trimmed(lines[i]);
      if (!line.starts_with(key)) continue;
      line = trimmed(line.substr(key.size()));
      if (!line.empty() && (line.front() == '=' || line.front() == ':'))
        return fmt::format("{}:{}", file.string(), i + 1);
    }
    return file.string();
  }
  std::map<std::string, std::string> values(const std::string& section) const {
    std::map<std::string, std::string> out;
    if (const auto child = tree.get_child_optional(section))
      for (const auto& [key, value] : *child) out[key] = value.data();
    return out;
  }
};

CfgFile readCfg(const std::filesystem::path& file) {
  CfgFile cfg;
  cfg.file = file;
  std::string text;
  try {
    text = readTextFile(file, kMaxDescriptionFileBytes, "OMPL.app problem file");
  } catch (const InputFileError& e) {
    throw InputError(e.what());
  }
  std::istringstream in(text);
  std::string forIni;  // the text with [planner]'s lines blanked, so Boost's line numbers stay the file's
  std::string section;
  for (std::string line; std::getline(in, line);) {
    cfg.lines.push_back(line);
    const std::string_view t = trimmed(line);
    const int number = static_cast<int>(cfg.lines.size());
    if (t.size() >= 2 && t.front() == '[' && t.back() == ']') {
      section = std::string(trimmed(t.substr(1, t.size() - 2)));
    } else if (section == "planner") {
      cfg.sections.push_back(section);
      forIni += '\n';
      if (t.empty() || t.front() == ';' || t.front() == '#') continue;
      const auto equals = t.find('=');
      if (equals == std::string_view::npos || trimmed(t.substr(0, equals)).empty())
        throw InputError(fmt::format("{}:{}: expected 'planner=' or 'planner.parameter=value' in [planner], got '{}'",
                                     file.string(), number, t));
      // OMPL.app reads [planner]'s keys in lower case (its BenchmarkOptions::readOptions): so does prmkit.
      std::string key(trimmed(t.substr(0, equals)));
      std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
      cfg.planner.push_back({std::move(key), std::string(trimmed(t.substr(equals + 1))), number});
      continue;
    }
    cfg.sections.push_back(section);
    forIni += line + '\n';
  }
  try {
    std::istringstream ini(forIni);
    boost::property_tree::ini_parser::read_ini(ini, cfg.tree);
  } catch (const boost::property_tree::ini_parser_error& e) {
    throw InputError(fmt::format("{}:{}: {}", file.string(), e.line(), e.message()));
  }
  return cfg;
}

/// OMPL.app's `sampler` value as the prmkit strategy that declares its name.
std::string checkedSampler(const std::string& value, const std::string& where) {
  std::vector<std::string> known;
  for (const SamplerKind& kind : samplerKinds()) {
    if (kind.omplapp_name.empty()) continue;
    if (kind.omplapp_name == value) return kind.name;
    known.push_back(kind.omplapp_name);
  }
  throw InputError(fmt::format("{}: unknown sampler '{}' (expected one of: {})", where, value, fmt::join(known, ", ")));
}

double parsedNumber(const std::string& text, const std::string& key, const std::string& where) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size() && std::isfinite(value)) return value;
  } catch (const std::exception&) {
  }
  throw InputError(fmt::format("{}: expected a number for '{}', got '{}'", where, key, text));
}

/// The [problem] keys OMPL.app documents for geometric planning (`control`
/// selects a kinodynamic system, which prmkit refuses by name).
const std::set<std::string>& problemKeys() {
  static const std::set<std::string> keys{
      "name",         "robot",        "world",        "objective",    "objective.threshold", "sampler",
      "start.x",      "start.y",      "start.z",      "start.theta",  "start.axis.x",        "start.axis.y",
      "start.axis.z", "goal.x",       "goal.y",       "goal.z",       "goal.theta",          "goal.axis.x",
      "goal.axis.y",  "goal.axis.z",  "volume.min.x", "volume.min.y", "volume.min.z",        "volume.max.x",
      "volume.max.y", "volume.max.z", "control"};
  return keys;
}

std::map<std::string, std::string> problemValues(const CfgFile& cfg) {
  if (!cfg.tree.get_child_optional("problem"))
    throw InputError(fmt::format("{}: an OMPL.app problem needs a [problem] section", cfg.file.string()));
  auto values = cfg.values("problem");
  for (const auto& [key, value] : values)
    if (!problemKeys().count(key))
      throw InputError(fmt::format("{}: unknown key '{}' in [problem] (expected one of: {})",
                                   cfg.lineOf("problem", key), key, fmt::join(problemKeys(), ", ")));
  if (values.count("control"))
    throw InputError(
        fmt::format("{}: control-based (kinodynamic) problems are not supported", cfg.lineOf("problem", "control")));
  return values;
}

/// A [problem] section turned into the YAML problem it stands for, step by
/// step, each node located at the .cfg line it came from.
class OmplAppProblem {
 public:
  explicit OmplAppProblem(const std::filesystem::path& file)
      : file_(file), cfg_(readCfg(file)), values_(problemValues(cfg_)) {
    is3D_ = values_.count("start.z") || values_.count("goal.z") || values_.count("start.axis.x");
    axes_ = is3D_ ? std::vector<std::string>{"x", "y", "z"} : std::vector<std::string>{"x", "y"};
  }

  YamlReader build() {
    root_["name"] = values_.count("name") ? values_["name"] : file_.stem().string();
    addBodies();
    if (values_.count("sampler")) {
      root_["planner"]["sampler"] = checkedSampler(values_["sampler"], lineOf("sampler"));
      located_.emplace_back(root_["planner"]["sampler"], lineOf("sampler"));
    }
    if (values_.count("objective.threshold")) number("objective.threshold");
    addBounds();
    for (const std::string end : {"start", "goal"}) addEnd(end);
    // OMPL.app bounds its problems and benchmarks by time alone: no sample
    // limit of prmkit's own stops a run before its time is up (`--set
    // limits.samples=N` still sets one).
    root_["limits"]["samples"] = kMaxSamples;
    return YamlReader(file_, root_, std::move(located_));
  }
  const CfgFile& cfg() const { return cfg_; }

 private:
  std::string lineOf(const std::string& key) const { return cfg_.lineOf("problem", key); }
  const std::string& require(const std::string& key) const {
    const auto it = values_.find(key);
    if (it == values_.end()) throw InputError(fmt::format("{}: [problem] needs '{}'", file_.string(), key));
    return it->second;
  }
  double number(const std::string& key) const { return parsedNumber(require(key), key, lineOf(key)); }
  std::string meshPath(const std::string& key) const {
    const std::filesystem::path path = file_.parent_path() / require(key);
    return std::filesystem::absolute(path).lexically_normal().string();
  }

  void addBodies() {
    root_["robot"]["type"] = is3D_ ? "rigid3d" : "rigid2d";
    root_["robot"]["geometry"]["mesh"]["file"] = meshPath("robot");
    root_["robot"]["geometry"]["mesh"]["center"] = true;
    located_.emplace_back(root_["robot"]["geometry"]["mesh"]["file"], lineOf("robot"));
    // Without a world the robot moves in an empty workspace (OMPL.app's rule).
    root_["scene"]["obstacles"] = YAML::Node(YAML::NodeType::Sequence);
    if (values_.count("world")) {
      YAML::Node obstacle(YAML::NodeType::Map);
      obstacle["name"] = "world";
      obstacle["mesh"]["file"] = meshPath("world");
      located_.emplace_back(obstacle["mesh"]["file"], lineOf("world"));
      root_["scene"]["obstacles"].push_back(obstacle);
    }
  }

  /// OMPL.app infers the bounds from the world mesh and the start and goal
  /// positions, enlarged by 10 % (and here by the robot's size, so that a
  /// workspace without a world is not flat).
  Eigen::AlignedBox3d inferredBounds() const {
    const bool hasWorld = values_.count("world") > 0;
    Eigen::AlignedBox3d inferred;
    try {
      if (hasWorld) inferred = loadMeshFile(meshPath("world")).bounds();
      for (const std::string end : {"start", "goal"}) {
        Eigen::Vector3d p = Eigen::Vector3d::Zero();
        for (std::size_t i = 0; i < axes_.size(); ++i) p[static_cast<Eigen::Index>(i)] = number(end + "." + axes_[i]);
        inferred.extend(p);
      }
      const Mesh robot = loadMeshFile(meshPath("robot"));
      const Eigen::Vector3d margin =
          (0.05 * inferred.sizes()).cwiseMax(Eigen::Vector3d::Constant(0.5 * robot.bounds().sizes().norm()));
      inferred.extend(inferred.min() - margin);
      inferred.extend(inferred.max() + margin);
    } catch (const MeshLoadError& e) {
      throw InputError(fmt::format("{}: {}", lineOf(hasWorld ? "world" : "robot"), e.what()));
    }
    return inferred;
  }

  void addBounds() {
    const bool hasVolume = values_.count("volume.min.x") > 0;
    const Eigen::AlignedBox3d inferred = hasVolume ? Eigen::AlignedBox3d() : inferredBounds();
    YAML::Node lower(YAML::NodeType::Sequence), upper(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < axes_.size(); ++i) {
      lower.push_back(hasVolume ? number("volume.min." + axes_[i]) : inferred.min()[static_cast<Eigen::Index>(i)]);
      upper.push_back(hasVolume ? number("volume.max." + axes_[i]) : inferred.max()[static_cast<Eigen::Index>(i)]);
    }
    root_["bounds"]["lower"] = lower;
    root_["bounds"]["upper"] = upper;
    if (hasVolume) {
      located_.emplace_back(root_["bounds"]["lower"], lineOf("volume.min.x"));
      located_.emplace_back(root_["bounds"]["upper"], lineOf("volume.max.x"));
    }
  }

  void addEnd(const std::string& end) {
    YAML::Node q(YAML::NodeType::Sequence);
    for (const auto& axis : axes_) q.push_back(number(end + "." + axis));
    if (is3D_) {
      Eigen::Vector3d axis(number(end + ".axis.x"), number(end + ".axis.y"), number(end + ".axis.z"));
      const double theta = number(end + ".theta");
      Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
      if (axis.norm() > 1e-12)
        rotation = Eigen::Quaterniond(Eigen::AngleAxisd(theta, axis.normalized()));
      else if (std::abs(theta) > 1e-12)
        throw InputError(fmt::format("{}: '{}.axis' is zero but '{}.theta' is not", lineOf(end + ".axis.x"), end, end));
      for (double c : {rotation.x(), rotation.y(), rotation.z(), rotation.w()}) q.push_back(c);
    } else {
      q.push_back(number(end + ".theta"));
    }
    root_[end] = q;
    located_.emplace_back(root_[end], lineOf(end + ".x"));
  }

  std::filesystem::path file_;
  CfgFile cfg_;
  std::map<std::string, std::string> values_;
  bool is3D_ = false;
  std::vector<std::string> axes_;
  YAML::Node root_{YAML::NodeType::Map};
  std::vector<std::pair<YAML::Node, std::string>> located_;
};

OmplAppBenchmark benchmarkOf(const CfgFile& cfg) {
  OmplAppBenchmark benchmark;
  auto problem = problemValues(cfg);
  if (problem.count("objective")) {
    static const std::set<std::string> objectives{"length", "max_min_clearance", "mechanical_work"};
    const std::string& objective = problem["objective"];
    if (!objectives.count(objective))
      throw InputError(fmt::format("{}: unknown objective '{}' (expected one of: {})",
                                   cfg.lineOf("problem", "objective"), objective, fmt::join(objectives, ", ")));
    if (objective == "length")
      benchmark.notes.push_back(fmt::format(
          "objective 'length'{}: OMPL's optimizing planners improve their path until {}; prmkit's own planners "
          "stop at their first path",
          problem.count("objective.threshold") ? fmt::format(" (threshold {})", problem["objective.threshold"]) : "",
          problem.count("objective.threshold") ? "it is that short or the time limit" : "the time limit"));
    else
      benchmark.notes.push_back(fmt::format(
          "objective '{}' recorded, not optimised: OMPL's optimizing planners run here optimise path length",
          objective));
  }
  // The threshold of a length objective is the optimizing planners' cost threshold.
  std::optional<std::string> lengthThreshold;
  if (problem.count("objective") && problem["objective"] == "length" && problem.count("objective.threshold"))
    lengthThreshold = problem["objective.threshold"];

  static const std::set<std::string> benchmarkKeys{"time_limit", "mem_limit", "run_count", "output", "save_paths"};
  for (const auto& [key, value] : cfg.values("benchmark")) {
    const std::string where = cfg.lineOf("benchmark", key);
    if (!benchmarkKeys.count(key))
      throw InputError(fmt::format("{}: unknown key '{}' in [benchmark] (expected one of: {})", where, key,
                                   fmt::join(benchmarkKeys, ", ")));
    if (key == "time_limit") {
      const double limit = parsedNumber(value, key, where);
      if (!(limit > 0.0)) throw InputError(fmt::format("{}: time_limit must be a positive number of seconds", where));
      benchmark.time_limit_s = limit;
    } else if (key == "run_count") {
      const double count = parsedNumber(value, key, where);
      if (!(count >= 1.0 && count <= 100000.0 && count == std::floor(count)))
        throw InputError(fmt::format("{}: run_count must be a whole number from 1 to 100000, got '{}'", where, value));
      benchmark.run_count = static_cast<std::size_t>(count);
    } else if (key == "mem_limit") {
      parsedNumber(value, key, where);
      benchmark.notes.push_back(
          fmt::format("mem_limit {} MB recorded, not enforced (peak memory is reported per run)", value));
    } else {
      benchmark.notes.push_back(fmt::format("[benchmark] {} = '{}' ignored: prmkit writes into --out", key, value));
    }
  }

  for (const auto& entry : cfg.planner) {
    const std::string where = fmt::format("{}:{}", cfg.file.string(), entry.line);
    const auto dot = entry.key.find('.');
    if (dot == std::string::npos) {
      if (!entry.value.empty())
        throw InputError(
            fmt::format("{}: a planner line is '{}=' with nothing after '=', got '{}'", where, entry.key, entry.value));
      benchmark.planners.push_back({entry.key, entry.key, entry.line, {}, {}});
      if (lengthThreshold)
        benchmark.planners.back().problem_settings.emplace_back("planner.cost_threshold", *lengthThreshold);
      continue;
    }
    const std::string owner = entry.key.substr(0, dot), parameter = entry.key.substr(dot + 1);
    if (benchmark.planners.empty())
      throw InputError(fmt::format("{}: '{}' comes before any planner line ('NAME=')", where, entry.key));
    if (owner == "problem") {
      // A problem setting for the planner instance just declared.
      auto& instance = benchmark.planners.back();
      if (parameter == "sampler")
        instance.problem_settings.emplace_back("planner.sampler", checkedSampler(entry.value, where));
      else if (parameter == "objective.threshold")
        instance.problem_settings.emplace_back("planner.cost_threshold", entry.value);
      else
        instance.parameters.emplace_back(entry.key, entry.value);
      continue;
    }
    // A parameter of the latest instance of the planner it names.
    const auto instance = std::find_if(benchmark.planners.rbegin(), benchmark.planners.rend(),
                                       [&](const auto& p) { return p.planner == owner; });
    if (instance == benchmark.planners.rend())
      throw InputError(fmt::format("{}: '{}' sets a parameter of '{}', which no planner line above declares", where,
                                   entry.key, owner));
    if (parameter == "name")
      instance->name = entry.value;
    else
      instance->parameters.emplace_back(parameter, entry.value);
  }
  return benchmark;
}

}  // namespace

OmplAppConfig readOmplAppConfig(const std::filesystem::path& file) {
  OmplAppProblem problem(file);
  YamlReader document = problem.build();
  return {std::move(document), benchmarkOf(problem.cfg())};
}

OmplAppBenchmark readOmplAppBenchmark(const std::filesystem::path& file) { return benchmarkOf(readCfg(file)); }

}  // namespace prmkit
