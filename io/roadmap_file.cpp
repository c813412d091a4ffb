#include "io/roadmap_file.h"

#include "io/stats_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/random.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

namespace prmkit {

namespace {

constexpr std::string_view kMagic = "prmkit roadmap 1";
/// Link poses hashed at this many configurations drawn from a fixed stream:
/// two robots with the same meshes and bounds but other joints differ there.
constexpr int kFingerprintConfigurations = 3;

/// FNV-1a over everything a verdict depends on.
class Fnv1a {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) hash_ = (hash_ ^ p[i]) * 0x100000001b3ull;
  }
  void text(std::string_view s) {
    number(static_cast<double>(s.size()));
    bytes(s.data(), s.size());
  }
  void number(double x) {
    if (x == 0.0) x = 0.0;  // -0 and 0 are one value
    bytes(&x, sizeof x);
  }
  void mesh(const Mesh& mesh) {
    number(static_cast<double>(mesh.vertices.size()));
    for (const Eigen::Vector3d& v : mesh.vertices)
      for (int i = 0; i < 3; ++i) number(v[i]);
    number(static_cast<double>(mesh.triangles.size()));
    for (const auto& t : mesh.triangles)
      for (int i : t) number(i);
  }
  void pose(const Transform& pose) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) number(pose.matrix()(r, c));
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

/// One line of the file, split at spaces, each word with its column.
struct Line {
  int number = 0;
  std::vector<std::pair<std::string_view, int>> words;
};

class RoadmapReader {
 public:
  RoadmapReader(const std::filesystem::path& file, std::string text) : file_(file), text_(std::move(text)) {}

  /// The next line that is not empty; false at the end of the file.
  bool next(Line& line) {
    while (at_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', at_), text_.size());
      std::string_view row(text_.data() + at_, end - at_);
      at_ = end + 1;
      ++lineNumber_;
      if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
      line.number = lineNumber_;
      line.words.clear();
      for (std::size_t i = 0; i < row.size();) {
        if (row[i] == ' ' || row[i] == '\t') {
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < row.size() && row[j] != ' ' && row[j] != '\t') ++j;
        line.words.emplace_back(row.substr(i, j - i), static_cast<int>(i) + 1);
        i = j;
      }
      if (!line.words.empty()) return true;
    }
    return false;
  }
  Line require(const std::string& expected) {
    Line line;
    if (!next(line)) fail(lineNumber_ + 1, 1, fmt::format("the file ends where {} was expected", expected));
    return line;
  }
  [[noreturn]] void fail(int line, int column, const std::string& what) const {
    throw InputError(fmt::format("{}:{}:{}: {}", file_.string(), line, column, what));
  }
  [[noreturn]] void fail(const Line& line, std::size_t word, const std::string& what) const {
    fail(line.number, word < line.words.size() ? line.words[word].second : 1, what);
  }
  void requireWords(const Line& line, std::size_t count, const std::string& expected) const {
    if (line.words.size() != count)
      fail(line, std::min(line.words.size(), count),
           fmt::format("expected {} ({} words), got {}", expected, count, line.words.size()));
  }
  std::size_t count(const Line& line, std::size_t word, std::size_t most, const std::string& what) const {
    const std::string_view w = line.words[word].first;
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (error != std::errc() || end != w.data() + w.size())
      fail(line, word, fmt::format("expected {} (a whole number), got '{}'", what, excerpt(w)));
    if (value > most) fail(line, word, fmt::format("{} is {}; at most {} are read", what, value, most));
    return value;
  }
  double number(const Line& line, std::size_t word, const std::string& what) const {
    const std::string_view w = line.words[word].first;
    double value = 0.0;
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (error != std::errc() || end != w.data() + w.size() || !std::isfinite(value))
      fail(line, word, fmt::format("expected {} (a finite number), got '{}'", what, excerpt(w)));
    return value;
  }

 private:
  std::filesystem::path file_;
  std::string text_;
  std::size_t at_ = 0;
  int lineNumber_ = 0;
};

}  // namespace

std::string roadmapFingerprint(const Problem& problem) {
  Fnv1a hash;
  const Robot& robot = *problem.robot;
  hash.text(robot.kind());
  for (const std::string& name : robot.coordinateNames()) hash.text(name);
  for (Eigen::Index i = 0; i < robot.bounds().lower.size(); ++i) {
    hash.number(robot.bounds().lower[i]);
    hash.number(robot.bounds().upper[i]);
  }
  for (const Link& link : robot.links()) {
    hash.text(link.name);
    hash.mesh(link.mesh);
  }
  Random rng(0x5eed);
  Config q;
  std::vector<Transform> poses;
  for (int i = 0; i < kFingerprintConfigurations; ++i) {
    robot.sampleUniform(rng, q);
    robot.linkPoses(q, poses);
    for (const Transform& pose : poses) hash.pose(pose);
  }
  for (const Obstacle& obstacle : problem.scene->obstacles()) {
    hash.text(obstacle.name);
    hash.mesh(obstacle.mesh);
    hash.pose(obstacle.pose);
    hash.number(obstacle.checkedPrimitive() ? 1.0 : 0.0);
  }
  hash.text(settingsJson(problem)["checker"].dump());
  return fmt::format("{:016x}", hash.value());
}

std::string roadmapText(const Problem& problem, const Roadmap& roadmap, const std::vector<std::string>& sourceNames) {
  const Robot& robot = *problem.robot;
  std::string out = fmt::format("{}\nrobot {} {} {}\nfingerprint {}\n", kMagic, robot.kind(), robot.configSize(),
                                fmt::join(robot.coordinateNames(), " "), roadmapFingerprint(problem));
  out += fmt::format("node_sources {}{}{}\n", sourceNames.size(), sourceNames.empty() ? "" : " ",
                     fmt::join(sourceNames, " "));
  out += fmt::format("vertices {}\n", roadmap.vertexCount());
  const RoadmapGraph& g = roadmap.graph();
  for (Vertex v = 0; v < roadmap.vertexCount(); ++v) {
    const std::size_t source = g[v].source;
    out += source < sourceNames.size() ? fmt::format("{}", source) : "-";
    for (Eigen::Index i = 0; i < g[v].q.size(); ++i) out += fmt::format(" {}", g[v].q[i]);
    out += '\n';
  }
  std::size_t edges = 0;
  for (const Edge e : boost::make_iterator_range(boost::edges(g))) edges += g[e].state != EdgeState::Colliding;
  out += fmt::format("edges {}\n", edges);
  for (const Edge e : boost::make_iterator_range(boost::edges(g)))
    if (g[e].state != EdgeState::Colliding)
      out += fmt::format("{} {} {}\n", boost::source(e, g), boost::target(e, g), edgeStateName(g[e].state));
  return out;
}

LoadedRoadmap readRoadmapFile(const std::filesystem::path& file, const Problem& problem,
                              const std::function<bool(const Config&)>& valid) {
  RoadmapReader in(file, readTextFile(file, kMaxRoadmapFileBytes, "roadmap"));
  const Robot& robot = *problem.robot;
  Line line = in.require("the header");
  if (line.words.size() != 3 || line.words[0].first != "prmkit" || line.words[1].first != "roadmap" ||
      line.words[2].first != "1")
    in.fail(line, 0, fmt::format("expected the header '{}' (a prmkit roadmap file, format 1)", kMagic));

  line = in.require("the robot line");
  const std::size_t size = robot.configSize();
  const std::string robotLine =
      fmt::format("robot {} {} {}", robot.kind(), size, fmt::join(robot.coordinateNames(), " "));
  bool sameRobot = line.words.size() == size + 3 && line.words[0].first == "robot" &&
                   line.words[1].first == robot.kind() && line.words[2].first == std::to_string(size);
  for (std::size_t i = 0; sameRobot && i < size; ++i) sameRobot = line.words[3 + i].first == robot.coordinateNames()[i];
  if (!sameRobot)
    in.fail(line, 0, fmt::format("the roadmap is not of this problem's robot: expected '{}'", excerpt(robotLine, 200)));

  line = in.require("the fingerprint line");
  in.requireWords(line, 2, "'fingerprint' and 16 hex digits");
  if (line.words[0].first != "fingerprint") in.fail(line, 0, "expected 'fingerprint'");
  LoadedRoadmap loaded;
  loaded.verdicts_kept = line.words[1].first == roadmapFingerprint(problem);

  line = in.require("the node sources line");
  if (line.words.size() < 2 || line.words[0].first != "node_sources")
    in.fail(line, 0, "expected 'node_sources', their count and their names");
  const std::size_t sources = in.count(line, 1, kMaxNodeSourceNames, "the number of node sources");
  in.requireWords(line, sources + 2, fmt::format("'node_sources {}' and {} names", sources, sources));
  for (std::size_t i = 0; i < sources; ++i) loaded.source_names.emplace_back(line.words[2 + i].first);

  line = in.require("the vertices line");
  in.requireWords(line, 2, "'vertices' and their count");
  if (line.words[0].first != "vertices") in.fail(line, 0, "expected 'vertices'");
  const std::size_t vertices = in.count(line, 1, kMaxRoadmapVertices, "the number of vertices");
  loaded.roadmap = std::make_unique<Roadmap>(robot);
  // The file's vertex index -> the roadmap's (none for a vertex dropped).
  constexpr Vertex kDropped = std::numeric_limits<Vertex>::max();
  std::vector<Vertex> vertexOf;
  vertexOf.reserve(std::min<std::size_t>(vertices, std::size_t{1} << 20));
  for (std::size_t v = 0; v < vertices; ++v) {
    line = in.require(fmt::format("vertex {} of {}", v, vertices));
    in.requireWords(line, size + 1, fmt::format("a vertex: its node source (an index or -) and {} coordinates", size));
    std::size_t source = kNoSource;
    if (line.words[0].first != "-") {
      source = in.count(line, 0, kMaxNodeSourceNames, "the vertex's node source");
      if (source >= sources)
        in.fail(line, 0, fmt::format("node source {}, but the file names {} (numbered from 0)", source, sources));
    }
    Config q(static_cast<Eigen::Index>(size));
    for (std::size_t i = 0; i < size; ++i)
      q[static_cast<Eigen::Index>(i)] = in.number(line, i + 1, robot.coordinateNames()[i]);
    try {
      robot.canonicalize(q);
    } catch (const std::invalid_argument& e) {
      in.fail(line, 1, fmt::format("vertex {}: {}", v, e.what()));
    }
    bool keep = robot.inBounds(q);
    if (!keep && loaded.verdicts_kept) in.fail(line, 1, fmt::format("vertex {} is out of the robot's bounds", v));
    if (keep && !loaded.verdicts_kept) keep = valid(q);
    if (!keep) {
      vertexOf.push_back(kDropped);
      ++loaded.vertices_dropped;
      continue;
    }
    vertexOf.push_back(loaded.roadmap->addVertex(q, source));
  }

  line = in.require("the edges line");
  in.requireWords(line, 2, "'edges' and their count");
  if (line.words[0].first != "edges") in.fail(line, 0, "expected 'edges'");
  const std::size_t edges = in.count(line, 1, kMaxRoadmapEdges, "the number of edges");
  RoadmapGraph& graph = loaded.roadmap->graph();
  for (std::size_t e = 0; e < edges; ++e) {
    line = in.require(fmt::format("edge {} of {}", e, edges));
    in.requireWords(line, 3, "an edge: two vertex indices and a state (free, unchecked, tentative or verified)");
    const std::size_t a = in.count(line, 0, vertices, "a vertex index"),
                      b = in.count(line, 1, vertices, "a vertex index");
    for (const auto& [end, word] : {std::pair{a, 0}, std::pair{b, 1}})
      if (end >= vertices)
        in.fail(line, static_cast<std::size_t>(word),
                fmt::format("vertex {} of {} (0 to {})", end, vertices, vertices - 1));
    if (a == b) in.fail(line, 1, fmt::format("an edge from vertex {} to itself", a));
    const std::string_view stateWord = line.words[2].first;
    EdgeState state = EdgeState::Unchecked;
    if (stateWord == "free")
      state = EdgeState::Free;
    else if (stateWord == "tentative")
      state = EdgeState::Tentative;
    else if (stateWord == "verified")
      state = EdgeState::Verified;
    else if (stateWord != "unchecked")
      in.fail(line, 2,
              fmt::format("expected the edge's state (free, unchecked, tentative or verified), got '{}'",
                          excerpt(stateWord)));
    if (vertexOf[a] == kDropped || vertexOf[b] == kDropped) {
      ++loaded.edges_dropped;
      continue;
    }
    if (boost::edge(vertexOf[a], vertexOf[b], graph).second)
      in.fail(line, 0, fmt::format("the edge between vertices {} and {} is listed twice", a, b));
    loaded.roadmap->addEdge(vertexOf[a], vertexOf[b], loaded.verdicts_kept ? state : EdgeState::Unchecked);
  }
  if (in.next(line)) in.fail(line, 0, fmt::format("text after the {} edges the file declares", edges));
  return loaded;
}

}  // namespace prmkit
