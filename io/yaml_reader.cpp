#include "io/yaml_reader.h"

#include "base/input_file.h"
#include "base/names.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <fmt/ranges.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace prmkit {

namespace {

/// Counts a document's nodes from the parser's events, before yaml-cpp
/// builds its tree (hundreds of bytes a node): a 64 MiB file of one-byte
/// scalars would otherwise hold gigabytes. Stops at the first problem.
class NodeCounter : public YAML::EventHandler {
 public:
  explicit NodeCounter(std::string source) : source_(std::move(source)) {}
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1)
      throw InputError(fmt::format("{}:{}:{}: a second YAML document ('---'); a problem file holds one", source_,
                                   mark.line + 1, mark.column + 1));
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    count(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    count(mark);
  }
  void OnMapEnd() override {}

 private:
  void count(const YAML::Mark& mark) {
    if (++nodes_ > kMaxYamlNodes)
      throw InputError(
          fmt::format("{}:{}:{}: more than {} YAML nodes", source_, mark.line + 1, mark.column + 1, kMaxYamlNodes));
  }
  std::string source_;
  std::size_t documents_ = 0, nodes_ = 0;
};

/// The one document of `text`, after NodeCounter; throws InputError with the
/// place of a syntax error.
YAML::Node loadOneDocument(const std::string& text, const std::string& source) {
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    NodeCounter counter(source);
    while (parser.HandleNextDocument(counter)) {
    }
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(fmt::format("{}:{}:{}: YAML syntax error: {}", source, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

}  // namespace

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
        // Every key prmkit reads is a name; yaml-cpp would say only "bad conversion".
        if (!key.IsScalar())
          throw InputError(fmt::format("{}:{}:{}: a {} used as a key; expected a name", source, key.Mark().line + 1,
                                       key.Mark().column + 1, key.IsSequence() ? "sequence" : "map"));
        const std::string& name = key.Scalar();
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
  root_ = loadOneDocument(text, file_.string());
  if (!root_.IsMap()) throw InputError(fmt::format("{}:1:1: expected a YAML map at the top level", file_.string()));
  requireUniqueKeys(root_, file_.string());
}

YamlReader::YamlReader(std::filesystem::path file, YAML::Node root,
                       std::vector<std::pair<YAML::Node, std::string>> located)
    : file_(std::move(file)), root_(std::move(root)), located_(std::move(located)) {}

void YamlReader::applyOverride(const std::string& assignment, const std::string& option) {
  // Messages quote the assignment cut short (excerpt): a value may be a whole file.
  const std::string shown = excerpt(assignment);
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(fmt::format("--set {}: expected KEY.PATH=VALUE", shown));
  if (invalidUtf8(assignment)) throw InputError(fmt::format("--set {}: not UTF-8 text", shown));
  const std::string path = assignment.substr(0, eq);
  const std::string source = option.empty() ? fmt::format("--set {}", excerpt(path)) : option;
  YAML::Node value;
  try {
    value = loadOneDocument(assignment.substr(eq + 1), source);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{} (the value is read as YAML)", e.what()));
  }
  requireUniqueKeys(value, source);
  std::vector<std::string> keys;
  std::stringstream parts(path);
  for (std::string key; std::getline(parts, key, '.');) {
    if (key.empty()) throw InputError(fmt::format("--set {}: empty key in '{}'", shown, excerpt(path)));
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
    if (!next.IsMap()) throw InputError(fmt::format("--set {}: '{}' is not a map", shown, excerpt(keys[i])));
    chain.push_back(next);
  }
  chain.back()[keys.back()] = value;
  // The keys the --set added (not in the file: no mark) are located at it
  // too, so that an unknown one is reported there.
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (const auto& entry : chain[i])
      if (entry.first.Mark().is_null() && entry.first.as<std::string>() == keys[i])
        overrides_.emplace_back(entry.first, source);
  // Every node of the value is located at the --set, not at a line of the
  // problem file (its marks count lines of the value).
  std::vector<YAML::Node> stack{chain.back()[keys.back()]};
  while (!stack.empty()) {
    const YAML::Node node = stack.back();
    stack.pop_back();
    overrides_.emplace_back(node, source);
    if (node.IsSequence())
      for (const YAML::Node& item : node) stack.push_back(item);
    else if (node.IsMap())
      for (const auto& entry : node) {
        stack.push_back(entry.first);
        stack.push_back(entry.second);
      }
  }
}

std::string YamlReader::where(const YAML::Node& node) const {
  for (const auto& [overridden, source] : overrides_)
    if (overridden.is(node)) return source;
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
    if (known) continue;
    const std::string closest = closestName(key, allowed);
    throw InputError(fmt::format("{}: unknown key '{}' in '{}' ({}expected one of: {})", where(entry.first),
                                 excerpt(key), what, closest.empty() ? "" : fmt::format("did you mean '{}'? ", closest),
                                 fmt::join(allowed, ", ")));
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
  fail(node, unknownNameMessage(what, excerpt(value), choices));
}

std::filesystem::path YamlReader::path(const YAML::Node& node, const std::string& what) const {
  const std::filesystem::path p(string(node, what));
  return p.is_absolute() ? p : file_.parent_path() / p;
}

}  // namespace prmkit
