#pragma once
// Strict reading of YAML problem files: every value is type-checked, every
// unknown key is an error, and every error names file:line:column.
#include "base/input_file.h"

#include <Eigen/Core>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace prmkit {

/// Bad input: the message already says where and what was expected. Exit code 2.
struct InputError : InvalidInput {
  using InvalidInput::InvalidInput;
};

/// The largest YAML file read (bytes); anything larger is refused before it is read.
inline constexpr std::uintmax_t kMaxYamlFileBytes = 64ull << 20;
/// The most nodes a document may hold: counted from the parser's events
/// before yaml-cpp builds its tree, which takes about 550 bytes and 4 us a
/// node (3 million nodes: 1.7 GB and 11 s), and again counting a node once
/// per alias that reaches it (so that a few nested aliases cannot make a walk
/// explode). A million nodes hold a 300 000-triangle inline mesh.
inline constexpr std::size_t kMaxYamlNodes = 1'000'000;

/// Throws InputError, naming `source` and both places, when a map in the
/// document has the same key twice (yaml-cpp keeps both and reads the
/// first), or when it has more than kMaxYamlNodes nodes. No recursion.
void requireUniqueKeys(const YAML::Node& root, const std::string& source);

class YamlReader {
 public:
  /// Parses `file`; throws InputError on a missing file or a syntax error.
  explicit YamlReader(std::filesystem::path file);
  /// A document built in memory from `file` (another format); `located`
  /// gives the "file:line" of the nodes that came from somewhere in it.
  YamlReader(std::filesystem::path file, YAML::Node root, std::vector<std::pair<YAML::Node, std::string>> located);
  const std::filesystem::path& file() const { return file_; }
  YAML::Node& root() { return root_; }
  const YAML::Node& root() const { return root_; }
  /// Reads a document built in memory instead of the file's (locations then name only the file).
  void replaceRoot(YAML::Node root) { root_ = std::move(root); }

  /// Applies "a.b.c=value" (the value is YAML); throws InputError on a
  /// malformed assignment. Messages about the value name `option` (the
  /// command-line option the user typed, "--checker") or else "--set a.b.c".
  void applyOverride(const std::string& assignment, const std::string& option = {});

  /// "file:line:column" of a node, or "--set PATH" for a value given on the command line.
  std::string where(const YAML::Node& node) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const;

  /// Requires a map whose keys are all in `allowed`; `what` names it in messages.
  void requireMap(const YAML::Node& node, const std::string& what, std::initializer_list<const char*> allowed) const;
  void requireMap(const YAML::Node& node, const std::string& what, const std::vector<std::string>& allowed) const;
  YAML::Node require(const YAML::Node& map, const char* key, const std::string& what) const;

  double number(const YAML::Node& node, const std::string& what) const;
  double positive(const YAML::Node& node, const std::string& what) const;
  /// An integer in [min, max]; anything else (a fraction, a number past the
  /// range of long, out of range) fails naming the bound.
  long integer(const YAML::Node& node, const std::string& what, long min, long max) const;
  bool boolean(const YAML::Node& node, const std::string& what) const;
  std::string string(const YAML::Node& node, const std::string& what) const;
  /// A sequence of numbers; `size` 0 accepts any non-empty length.
  Eigen::VectorXd vector(const YAML::Node& node, const std::string& what, std::size_t size = 0) const;
  std::string oneOf(const YAML::Node& node, const std::string& what, const std::vector<std::string>& choices) const;
  /// A path relative to the problem file's folder.
  std::filesystem::path path(const YAML::Node& node, const std::string& what) const;

 private:
  std::filesystem::path file_;
  YAML::Node root_;
  std::vector<std::pair<YAML::Node, std::string>> overrides_;  // node -> "--set PATH" or the option
  std::vector<std::pair<YAML::Node, std::string>> located_;    // node -> where it came from
};

}  // namespace prmkit
