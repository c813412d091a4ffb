#include "eval/edge_check.h"

#include "eval/independent_check.h"
#include "eval/static_check.h"

#include "io/path_files.h"
#include "io/yaml_reader.h"
#include "geometry/collision_queries.h"
#include "checkers/discrete_checker.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <thread>

namespace prmkit {

namespace {
std::vector<std::string> edgeHeader(const Robot& robot) {
  std::vector<std::string> header;
  for (const char* end : {"a.", "b."})
    for (const auto& name : robot.coordinateNames()) header.push_back(end + name);
  return header;
}
}  // namespace

std::vector<EdgeCase> randomEdges(const std::shared_ptr<const Robot>& robotPointer,
                                  const std::shared_ptr<const Scene>& scene, std::size_t count, double maxLength,
                                  std::uint32_t seed) {
  const Robot& robot = *robotPointer;
  CollisionQueries oracle(robotPointer, scene, Geometry::Mesh);
  CheckStats ignored;  // the oracle's work is not the checker's
  Random rng(seed);
  auto valid = [&](const Config& q) { return robot.inBounds(q) && !oracle.inCollision(q, ignored); };
  const std::size_t attemptsPerEdge = 100000;
  std::vector<EdgeCase> edges;
  edges.reserve(count);
  Config a, target, b;
  while (edges.size() < count) {
    std::size_t attempts = 0;
    do {
      if (++attempts > attemptsPerEdge)
        throw std::invalid_argument(fmt::format("no valid configuration found in {} samples", attemptsPerEdge));
      robot.sampleUniform(rng, a);
    } while (!valid(a));
    attempts = 0;
    do {
      if (++attempts > attemptsPerEdge)
        throw std::invalid_argument(fmt::format("no valid edge end found in {} samples", attemptsPerEdge));
      robot.sampleUniform(rng, target);
      const double length = robot.distance(a, target);
      if (maxLength > 0.0 && length > maxLength)
        robot.interpolate(a, target, maxLength / length, b);
      else
        b = target;
    } while (!valid(b));
    edges.push_back({a, b});
  }
  return edges;
}

std::vector<EdgeCase> readEdgesCsv(const std::filesystem::path& file, const Robot& robot) {
  const auto size = static_cast<Eigen::Index>(robot.configSize());
  std::vector<EdgeCase> edges;
  auto canonicalize = [&](Config& row) {
    for (const auto& [end, offset] : {std::pair{"a", Eigen::Index{0}}, std::pair{"b", size}}) {
      Config q = row.segment(offset, size);
      try {
        robot.canonicalize(q);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("edge end {}: {}", end, e.what()));
      }
      row.segment(offset, size) = q;
    }
  };
  for (const Config& row : readConfigCsv(file, edgeHeader(robot), "edges", canonicalize))
    edges.push_back({row.head(size), row.tail(size)});
  return edges;
}

namespace {
/// Checks edges [begin, end) with one checker instance (one per thread).
void checkRange(const std::shared_ptr<const Robot>& robot, const std::shared_ptr<const Scene>& scene, Checker& checker,
                const std::vector<EdgeCase>& edges, double truthEps, double independentResolution, std::size_t begin,
                std::size_t end, std::vector<EdgeVerdict>& verdicts) {
  std::optional<IndependentCheck> independent;
  if (independentResolution > 0.0) independent.emplace(*robot, *scene, independentResolution);
  CollisionQueries oracle(robot, scene, Geometry::Mesh);
  CheckStats oracleStats;
  std::optional<DiscreteChecker> truth;
  if (truthEps > 0.0) {
    DiscreteSettings dense;
    dense.space = DiscreteSettings::Space::Workspace;
    dense.eps = truthEps;
    dense.order = DiscreteSettings::Order::Sequential;
    truth.emplace(robot, scene, dense);
  }
  Config witness;
  for (std::size_t i = begin; i < end; ++i) {
    const EdgeCase& edge = edges[i];
    EdgeVerdict& verdict = verdicts[i];
    // Endpoint validity comes from the oracle, so the checker's stats count edge work only.
    verdict.endpoints_valid = robot->inBounds(edge.a) && robot->inBounds(edge.b) &&
                              !oracle.inCollision(edge.a, oracleStats) && !oracle.inCollision(edge.b, oracleStats);
    if (!verdict.endpoints_valid) continue;
    const CheckStats before = checker.stats();
    verdict.result = checker.checkEdge(edge.a, edge.b);
    verdict.unresolved =
        checker.stats().strategy.value("unresolved_as_colliding") > before.strategy.value("unresolved_as_colliding");
    verdict.time_s = checker.stats().time_s - before.time_s;
    if (verdict.result.verdict == Verdict::Colliding && !verdict.unresolved) {
      robot->interpolate(edge.a, edge.b, verdict.result.witness_t, witness);
      verdict.witness_confirmed = oracle.inCollision(witness, oracleStats);
    }
    if (truth) verdict.truth_colliding = truth->checkEdge(edge.a, edge.b).verdict == Verdict::Colliding;
    if (independent) verdict.independent_colliding = independent->firstCollision(edge.a, edge.b).has_value();
  }
}
/// Refuses, before any edge is checked, truths too dense for some edge (a
/// thread that failed on edge 900 000 would throw away the work before it).
void requireFeasibleTruths(const Robot& robot, const std::vector<EdgeCase>& edges, double truthEps,
                           double independentResolution) {
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const EdgeCase& edge = edges[i];
    if (truthEps > 0.0) {
      const double samples = robot.maxMotionBound(edge.a, edge.b) / truthEps;
      if (!(samples <= static_cast<double>(kMaxSegments)))
        throw InputError(
            fmt::format("the ground truth's step ({:g} m) is too small: edge {} would need {:.3g} "
                        "samples (at most {:g})",
                        truthEps, i + 1, samples, static_cast<double>(kMaxSegments)));
    }
    if (independentResolution > 0.0) {
      const double steps = robot.resolutionSteps(edge.a, edge.b, independentResolution);
      if (!(steps <= static_cast<double>(kMaxSegments)))
        throw InputError(
            fmt::format("the independent truth's step ({:g} of the C-space extent) is too small: edge "
                        "{} would need {:.3g} steps (at most {:g})",
                        independentResolution, i + 1, steps, static_cast<double>(kMaxSegments)));
    }
  }
}
}  // namespace

EdgeCheckReport checkEdges(const std::shared_ptr<const Robot>& robot, const std::shared_ptr<const Scene>& scene,
                           Checker& checker, const std::vector<EdgeCase>& edges, double truthEps, std::size_t jobs,
                           double independentResolution) {
  requireFeasibleTruths(*robot, edges, truthEps, independentResolution);
  EdgeCheckReport report;
  report.truth_eps = truthEps;
  report.independent_resolution = independentResolution;
  report.edges.resize(edges.size());
  jobs = std::max<std::size_t>(1, std::min(jobs, edges.size()));
  if (jobs == 1) {
    const CheckStats before = checker.stats();
    checkRange(robot, scene, checker, edges, truthEps, independentResolution, 0, edges.size(), report.edges);
    report.stats = checker.stats() - before;
  } else {
    std::vector<std::unique_ptr<Checker>> clones;
    for (std::size_t j = 0; j < jobs; ++j) clones.push_back(checker.clone());
    std::vector<std::exception_ptr> errors(jobs);
    std::vector<std::thread> threads;
    for (std::size_t j = 0; j < jobs; ++j) {
      threads.emplace_back([&, j] {
        try {
          checkRange(robot, scene, *clones[j], edges, truthEps, independentResolution, edges.size() * j / jobs,
                     edges.size() * (j + 1) / jobs, report.edges);
        } catch (...) {
          errors[j] = std::current_exception();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors)
      if (error) std::rethrow_exception(error);
    for (const auto& clone : clones) report.stats += clone->stats();
  }
  for (const EdgeVerdict& v : report.edges) {
    if (!v.endpoints_valid) {
      ++report.invalid_endpoints;
      continue;
    }
    const Verdict verdict = v.result.verdict;
    report.free += verdict == Verdict::Free;
    report.colliding += verdict == Verdict::Colliding;
    report.unknown += verdict == Verdict::Unknown;
    report.unresolved += v.unresolved;
    if (v.witness_confirmed && !*v.witness_confirmed) ++report.unconfirmed_witnesses;
    if (v.truth_colliding || v.independent_colliding) {
      const bool colliding = v.truth_colliding.value_or(false) || v.independent_colliding.value_or(false);
      report.misses += verdict == Verdict::Free && colliding;
      report.conservative += verdict == Verdict::Colliding && !colliding;
    }
    if (v.truth_colliding && v.independent_colliding && *v.independent_colliding && !*v.truth_colliding)
      ++report.truth_disagreements;
  }
  return report;
}

double medianEdgeTime(const EdgeCheckReport& report) {
  std::vector<double> times;
  for (const EdgeVerdict& v : report.edges)
    if (v.endpoints_valid) times.push_back(v.time_s);
  return median(std::move(times));
}

std::string edgeVerdictsCsv(const EdgeCheckReport& report) {
  const bool truth = report.truth_eps > 0.0;
  const bool independent = report.independent_resolution > 0.0;
  std::string out = "index,verdict,confidence,witness_t,unresolved,time_us";
  out += truth ? ",truth,witness_confirmed" : "";
  out += independent ? ",independent_truth\n" : "\n";
  for (std::size_t i = 0; i < report.edges.size(); ++i) {
    const EdgeVerdict& v = report.edges[i];
    const std::string verdict = v.endpoints_valid ? toString(v.result.verdict) : "invalid_endpoint";
    const std::string witness = std::isnan(v.result.witness_t) ? "" : fmt::format("{:.17g}", v.result.witness_t);
    out += fmt::format("{},{},{:g},{},{:d},{:.3f}", i, verdict, v.result.confidence, witness, v.unresolved,
                       1e6 * v.time_s);
    if (truth) {
      const std::string truthCell = v.truth_colliding ? (*v.truth_colliding ? "colliding" : "free") : "";
      const std::string confirmed = v.witness_confirmed ? fmt::format("{:d}", *v.witness_confirmed) : "";
      out += fmt::format(",{},{}", truthCell, confirmed);
    }
    if (independent) out += v.independent_colliding ? (*v.independent_colliding ? ",colliding" : ",free") : ",";
    out += '\n';
  }
  return out;
}

}  // namespace prmkit
