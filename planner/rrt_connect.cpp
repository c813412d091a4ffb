#include "planner/rrt_connect.h"

#include "roadmap/component_join.h"

#include <algorithm>

namespace prmkit {

namespace {
/// Tree steps between looks at which vertices each tree holds.
constexpr std::size_t kStepsPerRound = 64;
}  // namespace

RrtConnect::RrtConnect(const PlannerSettings& settings, const PlannerCapabilities& capabilities)
    : Planner(settings, capabilities, Connection::Nearest), own_(settings.section<RrtConnectSettings>()) {}

std::optional<std::vector<Vertex>> RrtConnect::search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                      PlanResult& result) {
  const std::size_t source = nodeSource(result, "rrt_connect");
  ComponentJoinContext context = joinContext(checker, roadmap, rng_, result, source);
  const double range = own_.range * checker.robot().maxExtent();
  // The trees: the vertices joined to start and to goal (a vertex whose
  // edges a rejected path removed leaves them).
  std::vector<Vertex> startTree{query.start}, goalTree{query.goal};
  for (;;) {
    if (outOfTime()) {
      result.status = PlanStatus::TimeLimit;
      return std::nullopt;
    }
    if (sampleLimitReached(result)) return std::nullopt;
    const std::uint64_t checksBefore = checker.stats().static_queries;
    // The smaller tree extends first (a start in a trap grows out of it).
    const bool startFirst = startTree.size() <= goalTree.size();
    const ComponentJoinResult joined = joinComponents(context, startFirst ? startTree : goalTree,
                                                      startFirst ? goalTree : startTree, kStepsPerRound, range, source);
    result.node_sources[source].static_checks += checker.stats().static_queries - checksBefore;
    result.node_sources[source].nodes += joined.added.size();
    result.planner_stats.edges_attempted += joined.edges_attempted;
    result.planner_stats.edges_colliding += joined.edges_colliding;
    if (joined.met) {
      ++result.planner_stats.graph_searches;
      if (auto path = roadmap.shortestPath(query.start, query.goal)) {
        if (confirmTentative(*path, roadmap, result)) return path;
      }
    }
    // Each tree is its end's component now.
    const std::vector<std::size_t>& labels = roadmap.componentLabels();
    startTree.clear();
    goalTree.clear();
    for (Vertex v = 0; v < roadmap.vertexCount(); ++v) {
      if (roadmap.excluded(v)) continue;
      if (labels[v] == labels[query.start]) startTree.push_back(v);
      if (labels[v] == labels[query.goal]) goalTree.push_back(v);
    }
  }
}

std::vector<PlannerKind> RrtConnect::kinds() {
  PlannerCapabilities capabilities;
  capabilities.uses_node_sampler = false;
  capabilities.keeps_roadmap = false;
  return {{"rrt_connect",
           "RRT-Connect (Kuffner & LaValle 2000), prmkit's own: two trees in checked moves of `range`, no roadmap",
           capabilities,
           [](const PlannerSettings& s, const PlannerCapabilities& c) { return std::make_unique<RrtConnect>(s, c); },
           RegisteredSettings(std::string(RrtConnectSettings::kSection), RrtConnectSettings{})}};
}

}  // namespace prmkit
