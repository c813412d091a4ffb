#include "io/yaml_reader.h"

#include "environments/input_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace prmkit {

void requireUniqueKeys(const YAML::Node& root, const std::string& source) {
  std::vector<YAML::Node> stack{root};
  std::size_t visited = 0;
  std::unordered_map<std::string, YAML::Mark> seen;
  while (!stack.empty()) {
    const YAML::Node node = stack.back();
    stack.pop_back();
    if (++visited > kMaxYamlNodes)
      throw InputError(
          fmt::format("{}: more than {} YAML nodes (counting every alias's target each time)", source, kMaxYamlNodes));
    if (node.IsSequence()) {
      for (const YAML::Node& item : node) stack.push_back(item);
    } else if (node.IsMap()) {
      seen.clear();
      for (const auto& entry : node) {
        const YAML::Node& key = entry.first;
        const std::string name = key.IsScalar() ? key.Scalar() : YAML::Dump(key);
        const auto [first, inserted] = seen.try_emplace(name, key.Mark());
        if (!inserted)
          throw InputError(fmt::format("{}:{}:{}: duplicate key '{}' (first at line {}, column {})", source,
                                       key.Mark().line + 1, key.Mark().column + 1, name, first->second.line + 1,
                                       first->second.column + 1));
        stack.push_back(entry.second);
      }
    }
  }
}

YamlReader::YamlReader(std::filesystem::path file) : file_(std::move(file)) {
  std::string text;
  try {
    text = readTextFile(file_, kMaxYamlFileBytes, "YAML file");
  } catch (const InputFileError& e) {
    throw InputError(e.what());
  }
  try {
    root_ = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(
        fmt::format("{}:{}:{}: YAML syntax error: {}", file_.string(), e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!root_.IsMap()) throw InputError(fmt::format("{}:1:1: expected a YAML map at the top level", file_.string()));
  requireUniqueKeys(root_, file_.string());
}

YamlReader::YamlReader(std::filesystem::path file, YAML::Node root,
                       std::vector<std::pair<YAML::Node, std::string>> located)
    : file_(std::move(file)), root_(std::move(root)), located_(std::move(located)) {}

void YamlReader::applyOverride(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--set {}: expected KEY.PATH=VALUE", assignment));
  if (invalidUtf8(assignment)) throw InputError(fmt::format("--set {}: not UTF-8 text", excerpt(assignment)));
  const std::string path = assignment.substr(0, eq);
  YAML::Node value;
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::ParserException& e) {
    throw InputError(fmt::format("--set {}: the value is not valid YAML: {}", assignment, e.msg));
  }
  requireUniqueKeys(value, "--set " + assignment);
  std::vector<std::string> keys;
  std::stringstream parts(path);
  for (std::string key; std::getline(parts, key, '.');) {
    if (key.empty()) throw InputError(fmt::format("--set {}: empty key in '{}'", assignment, path));
    keys.push_back(key);
  }
  // Walk with copies of the handles: a YAML::Node assignment would rebind, not write through.
  std::vector<YAML::Node> chain{root_};
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next = chain.back()[keys[i]];
    if (!next.IsDefined() || next.IsNull()) {
      chain.back()[keys[i]] = YAML::Node(YAML::NodeType::Map);
      next = chain.back()[keys[i]];
    }
    if (!next.IsMap()) throw InputError(fmt::format("--set {}: '{}' is not a map", assignment, keys[i]));
    chain.push_back(next);
  }
  chain.back()[keys.back()] = value;
  overrides_.emplace_back(chain.back()[keys.back()], path);
}

std::string YamlReader::where(const YAML::Node& node) const {
  for (const auto& [overridden, path] : overrides_)
    if (overridden.is(node)) return fmt::format("--set {}", path);
  for (const auto& [source, location] : located_)
    if (source.is(node)) return location;
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return file_.string();
  return fmt::format("{}:{}:{}", file_.string(), mark.line + 1, mark.column + 1);
}

void YamlReader::fail(const YAML::Node& node, const std::string& what) const {
  throw InputError(fmt::format("{}: {}", where(node), what));
}

void YamlReader::requireMap(const YAML::Node& node, const std::string& what,
                            std::initializer_list<const char*> allowed) const {
  requireMap(node, what, std::vector<std::string>(allowed.begin(), allowed.end()));
}

void YamlReader::requireMap(const YAML::Node& node, const std::string& what,
                            const std::vector<std::string>& allowed) const {
  if (!node.IsMap()) fail(node, fmt::format("expected '{}' to be a map", what));
  for (const auto& entry : node) {
    const auto key = entry.first.as<std::string>();
    bool known = false;
    for (const std::string& a : allowed) known = known || key == a;
    if (!known)
      throw InputError(fmt::format("{}: unknown key '{}' in '{}' (expected one of: {})", where(entry.first),
                                   excerpt(key), what, fmt::join(allowed, ", ")));
  }
}

YAML::Node YamlReader::require(const YAML::Node& map, const char* key, const std::string& what) const {
  if (!map.IsMap()) fail(map, fmt::format("expected '{}' to be a map", what));
  YAML::Node value = map[key];
  if (!value.IsDefined() || value.IsNull()) fail(map, fmt::format("missing required key '{}' in '{}'", key, what));
  return value;
}

double YamlReader::number(const YAML::Node& node, const std::string& what) const {
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value))
    fail(node, fmt::format("expected a number for '{}'", what));
  if (!std::isfinite(value))
    fail(node, fmt::format("expected a finite number for '{}', got {}", what, excerpt(node.Scalar())));
  return value;
}

double YamlReader::positive(const YAML::Node& node, const std::string& what) const {
  const double value = number(node, what);
  if (!(value > 0))
    fail(node, fmt::format("expected a positive number for '{}', got {}", what, excerpt(node.Scalar())));
  return value;
}

long YamlReader::integer(const YAML::Node& node, const std::string& what, long min, long max) const {
  long value = 0;
  if (!node.IsScalar() || !YAML::convert<long>::decode(node, value))
    fail(node, fmt::format("expected an integer for '{}'", what));
  if (value < min) fail(node, fmt::format("expected an integer >= {} for '{}', got {}", min, what, value));
  if (value > max) fail(node, fmt::format("expected an integer <= {} for '{}', got {}", max, what, value));
  return value;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& what) const {
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value))
    fail(node, fmt::format("expected true or false for '{}'", what));
  return value;
}

std::string YamlReader::string(const YAML::Node& node, const std::string& what) const {
  if (!node.IsScalar()) fail(node, fmt::format("expected a string for '{}'", what));
  return node.Scalar();
}

Eigen::VectorXd YamlReader::vector(const YAML::Node& node, const std::string& what, std::size_t size) const {
  if (!node.IsSequence() || node.size() == 0) fail(node, fmt::format("expected a list of numbers for '{}'", what));
  if (size != 0 && node.size() != size)
    fail(node, fmt::format("expected {} numbers for '{}', got {}", size, what, node.size()));
  Eigen::VectorXd out(static_cast<Eigen::Index>(node.size()));
  for (std::size_t i = 0; i < node.size(); ++i) out[static_cast<Eigen::Index>(i)] = number(node[i], what);
  return out;
}

std::string YamlReader::oneOf(const YAML::Node& node, const std::string& what,
                              const std::vector<std::string>& choices) const {
  const std::string value = string(node, what);
  for (const auto& c : choices)
    if (c == value) return value;
  fail(node, fmt::format("unknown {} '{}' (expected one of: {})", what, excerpt(value), fmt::join(choices, ", ")));
}

std::filesystem::path YamlReader::path(const YAML::Node& node, const std::string& what) const {
  const std::filesystem::path p(string(node, what));
  return p.is_absolute() ? p : file_.parent_path() / p;
}

}  // namespace prmkit
