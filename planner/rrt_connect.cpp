#include "planner/rrt_connect.h"

#include "roadmap/component_join.h"

#include <algorithm>

namespace prmkit {

namespace {
/// Tree steps between looks at the limits and the counters.
constexpr std::size_t kStepsPerRound = 64;
}  // namespace

RrtConnect::RrtConnect(const PlannerSettings& settings, const PlannerCapabilities& capabilities)
    : Planner(settings, capabilities, Connection::Nearest), own_(settings.section<RrtConnectSettings>()) {}

std::optional<std::vector<Vertex>> RrtConnect::search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                      PlanResult& result) {
  const std::size_t source = nodeSource(result, "rrt_connect");
  ComponentJoinContext context = joinContext(checker, roadmap, rng_, result, source);
  const double extent = checker.robot().maxExtent();
  const ComponentJoinOptions options{.range = own_.range * extent,
                                     .source = source,
                                     .max_candidates = 0,
                                     .balanced = true,
                                     .domain_radius = own_.domain_radius * extent};
  const auto searchPath = [&] { return shortestConfirmedPath(checker, roadmap, query, result); };
  // The straight move first: a query whose ends see each other needs no tree.
  if (query.start == query.goal) return std::vector<Vertex>{query.start};
  if (const auto accepted = checkCounted(checker, roadmap.config(query.start), roadmap.config(query.goal), result)) {
    roadmap.addEdge(query.start, query.goal, *accepted);
    if (auto path = searchPath()) return path;
  }
  std::unique_ptr<ComponentJoin> join;
  for (;;) {
    if (outOfTime()) {
      result.status = PlanStatus::TimeLimit;
      return std::nullopt;
    }
    if (sampleLimitReached(result)) return std::nullopt;
    if (!join) {
      // The trees: the vertices joined to start and to goal (a vertex whose
      // edges a rejected path removed leaves them).
      const std::vector<std::size_t>& labels = roadmap.componentLabels();
      std::vector<Vertex> startTree, goalTree;
      for (Vertex v = 0; v < roadmap.vertexCount(); ++v) {
        if (roadmap.excluded(v)) continue;
        if (labels[v] == labels[query.start]) startTree.push_back(v);
        if (labels[v] == labels[query.goal]) goalTree.push_back(v);
      }
      // The smaller tree extends first (a start in a trap grows out of it).
      const bool startFirst = startTree.size() <= goalTree.size();
      join = std::make_unique<ComponentJoin>(context, startFirst ? startTree : goalTree,
                                             startFirst ? goalTree : startTree, options);
    }
    const std::uint64_t checksBefore = checker.stats().static_queries;
    const ComponentJoinResult joined = join->grow(kStepsPerRound);
    result.node_sources[source].static_checks += checker.stats().static_queries - checksBefore;
    result.node_sources[source].nodes += joined.added.size();
    result.planner_stats.edges_attempted += joined.edges_attempted;
    result.planner_stats.edges_colliding += joined.edges_colliding;
    if (joined.met) {
      if (auto path = searchPath()) return path;
      join.reset();  // a rejected path may have split the trees
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
