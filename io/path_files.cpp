#include "io/path_files.h"

#include "base/input_file.h"
#include "io/yaml_reader.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <cmath>
#include <sstream>

namespace prmkit {

std::string pathCsv(const Robot& robot, const std::vector<Config>& path) {
  std::string out = fmt::format("{}\n", fmt::join(robot.coordinateNames(), ","));
  for (const auto& q : path) {
    std::vector<std::string> cells;
    for (Eigen::Index i = 0; i < q.size(); ++i) cells.push_back(fmt::format("{:.17g}", q[i]));
    out += fmt::format("{}\n", fmt::join(cells, ","));
  }
  return out;
}

std::string queriesCsv(const Robot& robot, const std::vector<std::vector<Config>>& paths) {
  std::string out = fmt::format("query,{}\n", fmt::join(robot.coordinateNames(), ","));
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (const auto& q : paths[i]) {
      out += fmt::format("{}", i + 1);
      for (Eigen::Index c = 0; c < q.size(); ++c) out += fmt::format(",{:.17g}", q[c]);
      out += '\n';
    }
  return out;
}

namespace {
/// The cell as a finite number, or InputError at file:line:column.
double finiteNumber(const std::string& cell, const std::filesystem::path& file, int line, std::size_t column) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(cell, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != cell.size() || !std::isfinite(value))
    throw InputError(
        fmt::format("{}:{}:{}: expected a finite number, got '{}'", file.string(), line, column, excerpt(cell)));
  return value;
}

Config canonicalized(Config q, const std::function<void(Config&)>& canonicalize, const std::filesystem::path& file,
                     int line) {
  try {
    canonicalize(q);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}:{}:1: {}", file.string(), line, e.what()));
  }
  return q;
}
}  // namespace

std::vector<Config> readConfigCsv(const std::filesystem::path& file, const std::vector<std::string>& header,
                                  const std::string& what, const std::function<void(Config&)>& canonicalize) {
  std::istringstream in(readTextFile(file, kMaxTableFileBytes, what));
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    return cells;
  };
  std::string line;
  if (!std::getline(in, line)) throw InputError(fmt::format("{}:1:1: the {} file is empty", file.string(), what));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto expected = fmt::format("{}", fmt::join(header, ","));
  if (line != expected)
    throw InputError(fmt::format("{}:1:1: expected the header '{}', got '{}'", file.string(), expected, excerpt(line)));
  std::vector<Config> rows;
  for (int lineNumber = 2; std::getline(in, line); ++lineNumber) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto cells = split(line);
    if (cells.size() != header.size())
      throw InputError(
          fmt::format("{}:{}:1: expected {} numbers, got {}", file.string(), lineNumber, header.size(), cells.size()));
    Config q(static_cast<Eigen::Index>(cells.size()));
    std::size_t column = 1;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      q[static_cast<Eigen::Index>(i)] = finiteNumber(cells[i], file, lineNumber, column);
      column += cells[i].size() + 1;
    }
    rows.push_back(canonicalized(std::move(q), canonicalize, file, lineNumber));
  }
  if (rows.empty()) throw InputError(fmt::format("{}:2:1: the {} file has no rows", file.string(), what));
  return rows;
}

std::vector<Config> readPathCsv(const std::filesystem::path& file, const Robot& robot) {
  return readConfigCsv(file, robot.coordinateNames(), "path", [&](Config& q) { robot.canonicalize(q); });
}

std::string pathText(const std::vector<Config>& path) {
  std::string out;
  for (const Config& q : path) {
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      if (i > 0) out += ' ';
      out += fmt::format("{}", q[i]);
    }
    out += '\n';
  }
  return out;
}

std::vector<Config> readPathText(const std::filesystem::path& file, const Robot& robot) {
  const std::string text = readTextFile(file, kMaxTableFileBytes, "path");
  const std::size_t width = robot.coordinateNames().size();
  std::vector<Config> rows;
  std::istringstream in(text);
  std::string line;
  for (int lineNumber = 1; std::getline(in, line); ++lineNumber) {
    std::vector<std::pair<std::string, std::size_t>> cells;  // text and column
    for (std::size_t at = 0; at < line.size();) {
      if (std::isspace(static_cast<unsigned char>(line[at]))) {
        ++at;
        continue;
      }
      const std::size_t begin = at;
      while (at < line.size() && !std::isspace(static_cast<unsigned char>(line[at]))) ++at;
      cells.emplace_back(line.substr(begin, at - begin), begin + 1);
    }
    if (cells.empty()) continue;
    if (cells.size() != width)
      throw InputError(fmt::format("{}:{}:1: expected {} numbers ({}), got {}", file.string(), lineNumber, width,
                                   fmt::join(robot.coordinateNames(), " "), cells.size()));
    Config q(static_cast<Eigen::Index>(width));
    for (std::size_t i = 0; i < width; ++i)
      q[static_cast<Eigen::Index>(i)] = finiteNumber(cells[i].first, file, lineNumber, cells[i].second);
    rows.push_back(canonicalized(
        std::move(q), [&](Config& c) { robot.canonicalize(c); }, file, lineNumber));
  }
  if (rows.empty()) throw InputError(fmt::format("{}:1:1: the path file has no states", file.string()));
  return rows;
}

std::vector<Config> readPath(const std::filesystem::path& file, const Robot& robot) {
  const std::string extension = file.extension().string();
  return extension == ".path" || extension == ".txt" ? readPathText(file, robot) : readPathCsv(file, robot);
}

}  // namespace prmkit
