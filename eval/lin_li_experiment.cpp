#include "eval/lin_li_experiment.h"

#include "setup/build_problem.h"
#include "io/yaml_reader.h"
#include "geometry/collision_queries.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace prmkit {

LinLiExperiment loadLinLiExperiment(const std::filesystem::path& file) {
  YamlReader in(file);
  const YAML::Node root = in.root();
  in.requireMap(root, "experiment",
                {"name", "problem", "roadmap", "resolution", "budgets", "table2_budget", "traversal", "seed"});
  LinLiExperiment e;
  e.name = in.string(in.require(root, "name", "experiment"), "name");
  e.problem = in.path(in.require(root, "problem", "experiment"), "problem");
  if (const YAML::Node r = root["roadmap"]) {
    in.requireMap(r, "roadmap", {"samples", "k"});
    if (r["samples"])
      e.samples = static_cast<std::size_t>(in.integer(r["samples"], "roadmap.samples", 2, kMaxExperimentSamples));
    if (r["k"]) e.k = static_cast<std::size_t>(in.integer(r["k"], "roadmap.k", 1, kMaxNeighbours));
  }
  if (root["resolution"]) {
    e.resolution = in.positive(root["resolution"], "resolution");
    if (e.resolution > 1) in.fail(root["resolution"], "resolution is a fraction of the C-space extent, in (0, 1]");
  }
  if (const YAML::Node b = root["budgets"]) {
    if (!b.IsSequence() || b.size() == 0) in.fail(b, "expected 'budgets' to be a list of BV-test counts");
    if (b.size() > kMaxExperimentBudgets)
      in.fail(b, fmt::format("at most {} budgets (each is a run of the whole experiment)", kMaxExperimentBudgets));
    e.budgets.clear();
    for (const auto& item : b)
      e.budgets.push_back(static_cast<std::uint64_t>(in.integer(item, "budgets (BV tests)", 1, kMaxBudgetBvTests)));
  }
  if (root["table2_budget"])
    e.table2_budget =
        static_cast<std::uint64_t>(in.integer(root["table2_budget"], "table2_budget (BV tests)", 1, kMaxBudgetBvTests));
  if (std::find(e.budgets.begin(), e.budgets.end(), e.table2_budget) == e.budgets.end())
    in.fail(root["table2_budget"] ? root["table2_budget"] : root, "table2_budget must be one of the budgets");
  if (const YAML::Node t = root["traversal"]) {
    in.requireMap(t, "traversal", {"group_size", "depth_deviation_threshold", "initial_confidence"});
    if (t["group_size"])
      e.traversal.group_size =
          static_cast<std::size_t>(in.integer(t["group_size"], "traversal.group_size", 2, kMaxGroupSize));
    if (t["depth_deviation_threshold"])
      e.traversal.depth_deviation_threshold =
          in.number(t["depth_deviation_threshold"], "traversal.depth_deviation_threshold");
    if (t["initial_confidence"])
      e.traversal.initial_confidence = in.number(t["initial_confidence"], "traversal.initial_confidence (%)");
  }
  if (root["seed"])
    e.seed = static_cast<std::uint32_t>(in.integer(root["seed"], "seed", 0, std::numeric_limits<std::uint32_t>::max()));
  return e;
}

namespace {
constexpr std::size_t kBuckets = 11;  // [0, 10), ..., [90, 100), and exactly 100

std::size_t bucketOf(double confidence) {
  if (confidence >= 100.0) return kBuckets - 1;
  return std::min<std::size_t>(static_cast<std::size_t>(confidence / 10.0), kBuckets - 2);
}

/// The experiment's roadmap and the traversal runs over its edges.
class LinLiRun {
 public:
  explicit LinLiRun(const LinLiExperiment& experiment)
      : experiment_(experiment),
        problem_(loadProblem(experiment.problem)),
        robot_(*problem_.robot),
        oracle_(problem_.robot, problem_.scene, Geometry::Mesh) {
    buildRoadmap();
    truth_.resize(edges_.size());
  }

  std::size_t edgeCount() const { return edges_.size(); }

  /// One traversal order (run 0: coherence, 1: depth-first) at one budget
  /// over every edge's samples, counted into row and, at Table 2's budget,
  /// into table2.
  void runOrder(std::uint64_t budget, int run, LinLiRow& row, std::vector<LinLiBucket>& table2) {
    TraversalSettings settings = experiment_.traversal;
    settings.budget_bv_tests = budget;
    settings.order = run == 0 ? TraversalOrder::Coherence : TraversalOrder::DepthFirst;
    BvttTraversal traversal(settings);
    CheckStats stats;
    std::size_t checks = 0;
    double confidenceSum = 0.0;
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      const Config& a = nodes_[edges_[e].first];
      const Config& b = nodes_[edges_[e].second];
      const std::size_t n = sampleCount(e);
      truth_[e].resize(n, -1);
      // As the budgeted checker: the sequence starts with an exact check of the valid endpoint.
      traversal.forget();
      robot_.linkPoses(a, poses_);
      robotMeshPairs(robot_, *problem_.scene, poses_, pairs_);
      traversal.check(pairs_, stats, 0);
      for (std::size_t i = 1; i < n; ++i) {
        robot_.interpolate(a, b, static_cast<double>(i) / static_cast<double>(n), q_);
        robot_.linkPoses(q_, poses_);
        robotMeshPairs(robot_, *problem_.scene, poses_, pairs_);
        const TraversalResult check = traversal.check(pairs_, stats);
        ++checks;
        if (truth_[e][i] < 0) truth_[e][i] = oracle_.inCollision(q_, oracleStats_) ? 1 : 0;
        if (!check.complete) {
          ++row.incomplete[run];
          confidenceSum += check.confidence;
          if (budget == experiment_.table2_budget) {
            LinLiBucket& bucket = table2[bucketOf(check.confidence)];
            ++(truth_[e][i] ? bucket.colliding[run] : bucket.free[run]);
          }
        }
        if (check.colliding) break;  // a checker stops at the first collision found
      }
    }
    row.mean_confidence[run] =
        row.incomplete[run] > 0 ? confidenceSum / static_cast<double>(row.incomplete[run]) : 100.0;
    row.checks = std::max(row.checks, checks);
  }

 private:
  /// Learning phase: start, goal and valid samples, each joined to its k nearest.
  void buildRoadmap() {
    nodes_ = {problem_.start, problem_.goal};
    Random rng(experiment_.seed);
    for (std::size_t attempts = 0; nodes_.size() < experiment_.samples + 2; ++attempts) {
      if (attempts > 1000 * experiment_.samples) throw std::invalid_argument("too few valid samples for the roadmap");
      robot_.sampleUniform(rng, q_);
      if (!oracle_.inCollision(q_, oracleStats_)) nodes_.push_back(q_);
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      std::vector<std::size_t> order(nodes_.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return robot_.distance(nodes_[i], nodes_[x]) < robot_.distance(nodes_[i], nodes_[y]);
      });
      for (std::size_t n = 1; n <= std::min(experiment_.k, nodes_.size() - 1); ++n) {
        const std::pair<std::size_t, std::size_t> edge{std::min(i, order[n]), std::max(i, order[n])};
        if (std::find(edges_.begin(), edges_.end(), edge) == edges_.end()) edges_.push_back(edge);
      }
    }
  }

  std::size_t sampleCount(std::size_t e) const {
    const double step = experiment_.resolution * robot_.maxExtent();
    const double length = robot_.distance(nodes_[edges_[e].first], nodes_[edges_[e].second]);
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(length / step)));
  }

  const LinLiExperiment& experiment_;
  const Problem problem_;
  const Robot& robot_;
  CollisionQueries oracle_;
  CheckStats oracleStats_;
  std::vector<Config> nodes_;
  std::vector<std::pair<std::size_t, std::size_t>> edges_;
  /// FCL's verdict at each edge sample (-1: not yet), computed once and shared by every run.
  std::vector<std::vector<signed char>> truth_;
  std::vector<Transform> poses_;
  std::vector<MeshPair> pairs_;
  Config q_;
};
}  // namespace

LinLiResult runLinLi(const LinLiExperiment& experiment) {
  LinLiRun runs(experiment);
  LinLiResult result;
  result.edges = runs.edgeCount();
  result.table2.resize(kBuckets);
  for (std::size_t b = 0; b < kBuckets; ++b)
    result.table2[b] = {
        b + 1 == kBuckets ? std::string("100") : fmt::format("{}-{}", 10 * b, 10 * (b + 1)), {0, 0}, {0, 0}};
  for (const std::uint64_t budget : experiment.budgets) {
    LinLiRow row{budget, 0, {0, 0}, {0.0, 0.0}};
    for (int run = 0; run < 2; ++run) runs.runOrder(budget, run, row, result.table2);
    result.table1.push_back(row);
  }
  return result;
}

std::string linLiTable1Csv(const LinLiResult& result) {
  std::string out =
      "budget_bv_tests,checks,bf_incomplete,df_incomplete,bf_mean_confidence_percent,df_mean_confidence_percent\n";
  for (const auto& r : result.table1)
    out += fmt::format("{},{},{},{},{:.4f},{:.4f}\n", r.budget, r.checks, r.incomplete[0], r.incomplete[1],
                       r.mean_confidence[0], r.mean_confidence[1]);
  return out;
}

std::string linLiTable2Csv(const LinLiResult& result) {
  std::string out = "confidence_percent,bf_colliding,bf_free,df_colliding,df_free\n";
  for (const auto& b : result.table2)
    out += fmt::format("{},{},{},{},{}\n", b.range, b.colliding[0], b.free[0], b.colliding[1], b.free[1]);
  return out;
}

std::string linLiMarkdown(const LinLiExperiment& experiment, const LinLiResult& result) {
  auto percent = [](std::size_t part, std::size_t all) {
    return all == 0 ? std::string("-")
                    : fmt::format("{:.2f}%", 100.0 * static_cast<double>(part) / static_cast<double>(all));
  };
  std::string out = fmt::format(
      "Table 1: mean confidence (%) of the checks that reached the budget ({} edges of a {}-sample roadmap)\n\n"
      "| budget (BV tests) | best-first | depth-first | checks that reached the budget, BF / DF |\n|---|---|---|---|\n",
      result.edges, experiment.samples);
  for (const auto& r : result.table1)
    out += fmt::format("| {} | {:.2f} | {:.2f} | {} / {} of {} |\n", r.budget, r.mean_confidence[0],
                       r.mean_confidence[1], r.incomplete[0], r.incomplete[1], r.checks);
  out += fmt::format(
      "\nTable 2: checks that reached the budget of {} BV tests, by confidence, against FCL's exact verdict\n\n"
      "| confidence (%) | BF colliding | BF free | BF collision % | DF colliding | DF free | DF collision % |\n"
      "|---|---|---|---|---|---|---|\n",
      experiment.table2_budget);
  for (const auto& b : result.table2)
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", b.range, b.colliding[0], b.free[0],
                       percent(b.colliding[0], b.colliding[0] + b.free[0]), b.colliding[1], b.free[1],
                       percent(b.colliding[1], b.colliding[1] + b.free[1]));
  return out;
}

}  // namespace prmkit
