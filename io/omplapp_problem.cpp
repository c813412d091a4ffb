#include "io/omplapp_problem.h"

#include "environments/input_file.h"
#include "environments/mesh.h"

#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Geometry>

#include <cmath>
#include <fstream>
#include <map>
#include <string_view>
#include <set>
#include <sstream>

namespace prmkit {

bool isOmplAppConfig(const std::filesystem::path& file) { return file.extension() == ".cfg"; }

YamlReader readOmplAppConfig(const std::filesystem::path& file) {
  std::stringstream text;
  try {
    text << readInputFile(file, kMaxDescriptionFileBytes, "OMPL.app problem file");
  } catch (const InputFileError& e) {
    throw InputError(e.what());
  }
  boost::property_tree::ptree tree;
  try {
    std::istringstream in(text.str());
    boost::property_tree::ini_parser::read_ini(in, tree);
  } catch (const boost::property_tree::ini_parser_error& e) {
    throw InputError(fmt::format("{}:{}: {}", file.string(), e.line(), e.message()));
  }
  // ptree keeps no line numbers: find each key's line in the text.
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  // The key is the file's text, not a pattern: compared as it is.
  auto lineOf = [&](const std::string& key) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string_view line(lines[i]);
      line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
      if (!line.starts_with(key)) continue;
      line.remove_prefix(key.size());
      line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
      if (!line.empty() && (line.front() == '=' || line.front() == ':')) return fmt::format("{}:{}", file.string(), i + 1);
    }
    return file.string();
  };
  const auto section = tree.get_child_optional("problem");
  if (!section) throw InputError(fmt::format("{}: an OMPL.app problem needs a [problem] section", file.string()));
  std::map<std::string, std::string> values;
  for (const auto& [key, child] : *section) values[key] = child.data();

  static const std::set<std::string> known{
      "name",         "robot",        "world",        "objective",    "objective.threshold", "start.x",
      "start.y",      "start.z",      "start.theta",  "start.axis.x", "start.axis.y",        "start.axis.z",
      "goal.x",       "goal.y",       "goal.z",       "goal.theta",   "goal.axis.x",         "goal.axis.y",
      "goal.axis.z",  "volume.min.x", "volume.min.y", "volume.min.z", "volume.max.x",        "volume.max.y",
      "volume.max.z", "control"};
  for (const auto& [key, value] : values) {
    if (!known.count(key))
      throw InputError(fmt::format("{}: unknown key '{}' in [problem] (expected one of: {})", lineOf(key), key,
                                   fmt::join(known, ", ")));
  }
  if (values.count("control"))
    throw InputError(fmt::format("{}: control-based (kinodynamic) problems are not supported", lineOf("control")));
  auto require = [&](const std::string& key) -> const std::string& {
    const auto it = values.find(key);
    if (it == values.end()) throw InputError(fmt::format("{}: [problem] needs '{}'", file.string(), key));
    return it->second;
  };
  auto number = [&](const std::string& key) {
    const std::string& text = require(key);
    try {
      std::size_t used = 0;
      const double value = std::stod(text, &used);
      if (used == text.size() && std::isfinite(value)) return value;
    } catch (const std::exception&) {
    }
    throw InputError(fmt::format("{}: expected a number for '{}', got '{}'", lineOf(key), key, text));
  };
  const bool is3D = values.count("start.z") || values.count("goal.z") || values.count("start.axis.x");

  std::vector<std::pair<YAML::Node, std::string>> located;
  YAML::Node root(YAML::NodeType::Map);
  root["name"] = values.count("name") ? values["name"] : file.stem().string();
  auto meshPath = [&](const std::string& key) {
    const std::filesystem::path path = file.parent_path() / require(key);
    return std::filesystem::absolute(path).lexically_normal().string();
  };
  root["robot"]["type"] = is3D ? "rigid3d" : "rigid2d";
  root["robot"]["geometry"]["mesh"]["file"] = meshPath("robot");
  root["robot"]["geometry"]["mesh"]["center"] = true;
  located.emplace_back(root["robot"]["geometry"]["mesh"]["file"], lineOf("robot"));
  YAML::Node obstacle(YAML::NodeType::Map);
  obstacle["name"] = "world";
  obstacle["mesh"]["file"] = meshPath("world");
  located.emplace_back(obstacle["mesh"]["file"], lineOf("world"));
  root["scene"]["obstacles"].push_back(obstacle);

  const std::vector<std::string> axes = is3D ? std::vector<std::string>{"x", "y", "z"} : std::vector<std::string>{"x", "y"};
  YAML::Node lower(YAML::NodeType::Sequence), upper(YAML::NodeType::Sequence);
  const bool hasVolume = values.count("volume.min.x") > 0;
  Eigen::AlignedBox3d inferred;
  if (!hasVolume) {
    // OMPL.app infers the bounds from the world mesh, enlarged by 10 %.
    try {
      const Mesh world = loadMeshFile(meshPath("world"));
      inferred = world.bounds();
      const Eigen::Vector3d margin = 0.05 * inferred.sizes();
      inferred.extend(inferred.min() - margin);
      inferred.extend(inferred.max() + margin);
    } catch (const MeshLoadError& e) {
      throw InputError(fmt::format("{}: {}", lineOf("world"), e.what()));
    }
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    lower.push_back(hasVolume ? number("volume.min." + axes[i]) : inferred.min()[static_cast<Eigen::Index>(i)]);
    upper.push_back(hasVolume ? number("volume.max." + axes[i]) : inferred.max()[static_cast<Eigen::Index>(i)]);
  }
  root["bounds"]["lower"] = lower;
  root["bounds"]["upper"] = upper;
  if (hasVolume) {
    located.emplace_back(root["bounds"]["lower"], lineOf("volume.min.x"));
    located.emplace_back(root["bounds"]["upper"], lineOf("volume.max.x"));
  }

  for (const std::string end : {"start", "goal"}) {
    YAML::Node q(YAML::NodeType::Sequence);
    for (const auto& axis : axes) q.push_back(number(end + "." + axis));
    if (is3D) {
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
    root[end] = q;
    located.emplace_back(root[end], lineOf(end + ".x"));
  }
  return YamlReader(file, root, std::move(located));
}

}  // namespace prmkit
