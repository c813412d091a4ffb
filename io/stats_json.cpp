#include "io/stats_json.h"

#include "registry/checker_registry.h"
#include "registry/planner_registry.h"

#include <fmt/format.h>

#include <sys/resource.h>

namespace prmkit {

nlohmann::ordered_json nodeSourcesJson(const std::vector<NodeSourceStats>& sources) {
  auto list = nlohmann::ordered_json::array();
  for (const NodeSourceStats& s : sources)
    list.push_back({{"source", s.source},
                    {"samples_drawn", s.samples_drawn},
                    {"static_checks", s.static_checks},
                    {"nodes", s.nodes},
                    {"static_checks_per_node", s.staticChecksPerNode()},
                    {"nodes_on_path", s.nodes_on_path}});
  return list;
}

nlohmann::ordered_json raceJson(const std::vector<RacePart>& parts) {
  auto list = nlohmann::ordered_json::array();
  for (const RacePart& part : parts)
    list.push_back({{"planner", part.planner},
                    {"started", part.started},
                    {"solved", part.solved},
                    {"won", part.won},
                    {"start_work", part.start_work},
                    {"work", part.work},
                    {"samples_drawn", part.samples_drawn},
                    {"time_s", part.time_s}});
  return list;
}

std::vector<RacePart> parseRace(const nlohmann::json& list) {
  std::vector<RacePart> parts;
  for (const auto& p : list)
    parts.push_back(RacePart{.planner = p.at("planner").get<std::string>(),
                             .started = p.at("started").get<bool>(),
                             .solved = p.at("solved").get<bool>(),
                             .won = p.at("won").get<bool>(),
                             .start_work = p.at("start_work").get<std::uint64_t>(),
                             .work = p.at("work").get<std::uint64_t>(),
                             .samples_drawn = p.at("samples_drawn").get<std::uint64_t>(),
                             .time_s = p.at("time_s").get<double>()});
  return parts;
}

nlohmann::ordered_json relaxationJson(const std::vector<RelaxedStage>& stages) {
  auto list = nlohmann::ordered_json::array();
  for (const RelaxedStage& stage : stages)
    list.push_back({{"factor", stage.factor},
                    {"solved", stage.solved},
                    {"samples_drawn", stage.samples_drawn},
                    {"guide_configs", stage.guide_configs},
                    {"static_checks", stage.static_checks},
                    {"time_s", stage.time_s}});
  return list;
}

std::vector<RelaxedStage> parseRelaxation(const nlohmann::json& list) {
  std::vector<RelaxedStage> stages;
  for (const auto& s : list)
    stages.push_back(RelaxedStage{.factor = s.at("factor").get<double>(),
                                  .solved = s.at("solved").get<bool>(),
                                  .samples_drawn = s.at("samples_drawn").get<std::uint64_t>(),
                                  .guide_configs = s.at("guide_configs").get<std::size_t>(),
                                  .static_checks = s.at("static_checks").get<std::uint64_t>(),
                                  .time_s = s.at("time_s").get<double>()});
  return stages;
}

std::vector<NodeSourceStats> parseNodeSources(const nlohmann::json& list) {
  std::vector<NodeSourceStats> sources;
  for (const auto& s : list)
    sources.push_back(NodeSourceStats{s.at("source").get<std::string>(), s.at("samples_drawn").get<std::uint64_t>(),
                                      s.at("static_checks").get<std::uint64_t>(), s.at("nodes").get<std::uint64_t>(),
                                      s.at("nodes_on_path").get<std::uint64_t>()});
  return sources;
}

std::uint64_t peakResidentBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

void addRunCounters(nlohmann::ordered_json& j, const PlannerStats& planner, const std::vector<NodeSourceStats>& sources,
                    const CheckStats& checks) {
  PlannerStats::forEachField([&](std::string_view name, auto member) { j[std::string(name)] = planner.*member; });
  j["node_sources"] = nodeSourcesJson(sources);
  // Every registered strategy's counters, 0 where this one has none: one set of keys for every run.
  checks.forEach(
      [&](std::string_view name, double value, std::string_view unit) {
        if (unit == "count")
          j[std::string(name)] = static_cast<std::uint64_t>(value);
        else
          j[std::string(name)] = value;
      },
      checkCounterSpecs());
}

namespace {
template <class Settings>
void addFields(nlohmann::ordered_json& j, Settings& settings) {
  FieldDescriptions described;
  settings.fields(described);
  for (const FieldDescription& f : described.fields)
    j[f.name] =
        f.kind == "choice" ? nlohmann::ordered_json(f.default_value) : nlohmann::ordered_json::parse(f.default_value);
}
}  // namespace

nlohmann::ordered_json settingsJson(const Problem& problem) {
  nlohmann::ordered_json planner;
  PlannerSettings p = problem.planner;
  planner["type"] = p.type;
  planner["sampler"] = p.sampler;
  if (p.verify_final_path) planner["verify_final_path"] = *p.verify_final_path;
  addFields(planner, p);
  for (RegisteredSettings& section : p.sections) {
    if (plannerKind(p.type).section && plannerKind(p.type).section->name() == section.name()) {
      nlohmann::ordered_json own;
      addFields(own, section);
      planner[section.name()] = own;
    }
  }
  if (!p.parameters.empty()) {
    planner["parameters"] = nlohmann::ordered_json::object();
    for (const auto& [name, value] : p.parameters) planner["parameters"][name] = value;
  }
  nlohmann::ordered_json checker;
  CheckerSettings c = problem.checker;
  checker["type"] = c.type;
  checker["geometry"] = c.geometry == Geometry::Convex ? "convex" : "mesh";
  forEachStrategy(c, [&](std::string_view name, auto& settings) {
    if (name != c.type) return;
    nlohmann::ordered_json own;
    addFields(own, settings);
    checker[std::string(name)] = own;
  });
  nlohmann::ordered_json j;
  j["planner"] = planner;
  j["checker"] = checker;
  j["seed"] = p.seed;
  j["limits"] = {{"time", p.time_limit_s}, {"samples", p.max_samples}};
  return j;
}

namespace {
/// What statsJson and each query of queriesStatsJson share: the outcome and the counters.
/// `reuseKeys`: roadmap_vertices_reused and earlier_queries always (every
/// query of a queries file), else only where a roadmap was reused, so that a
/// single run's file keeps its keys.
void addOutcome(nlohmann::ordered_json& j, const Problem& problem, const PlanResult& result, bool reuseKeys) {
  j["solved"] = result.solved;
  j["status"] = toString(result.status);
  if (!result.status_detail.empty()) j["status_detail"] = result.status_detail;
  j["time_s"] = result.time_s;
  j["search_time_s"] = result.search_time_s;
  j["setup_time_s"] = result.setup_time_s;
  j["time_limit_s"] = problem.planner.time_limit_s;
  j["roadmap_vertices"] = result.roadmap_vertices;
  j["roadmap_edges"] = result.roadmap_edges;
  if (reuseKeys || result.roadmap_vertices_reused > 0 || result.earlier_queries > 0) {
    j["roadmap_vertices_reused"] = result.roadmap_vertices_reused;
    j["earlier_queries"] = result.earlier_queries;
  }
  j["roadmap_bytes_per_vertex"] =
      result.roadmap_vertices > 0 ? static_cast<double>(result.roadmap_memory.vertex_bytes) / result.roadmap_vertices
                                  : 0.0;
  j["roadmap_bytes_per_edge"] =
      result.roadmap_edges > 0 ? static_cast<double>(result.roadmap_memory.edge_bytes) / result.roadmap_edges : 0.0;
}

void addPath(nlohmann::ordered_json& j, const PlanResult& result) {
  j["waypoints"] = result.path.size();
  j["path_length"] = result.path_length;
  j["path_verified"] = result.path_verified;
  addRunCounters(j, result.planner_stats, result.node_sources, result.check_stats);
  if (!result.race.empty()) j["race"] = raceJson(result.race);
  if (!result.relaxation.empty()) j["relaxation"] = relaxationJson(result.relaxation);
}

nlohmann::ordered_json runHeader(const Problem& problem, const std::string& checkerName,
                                 const std::vector<std::string>& commandLine) {
  nlohmann::ordered_json j;
  j["prmkit_version"] = PRMKIT_VERSION;
  if (!commandLine.empty()) j["command_line"] = commandLine;
  j["problem_file"] = problem.file.string();
  j["problem"] = problem.name;
  j["robot"] = problem.robot->kind();
  j["planner"] = problem.planner.type;
  j["checker"] = checkerName;
  j["seed"] = problem.planner.seed;
  return j;
}

std::string finish(nlohmann::ordered_json& j, const Problem& problem, const nlohmann::ordered_json& extra) {
  for (const auto& [key, value] : extra.items()) j[key] = value;
  j["settings"] = settingsJson(problem);
  j["problem_in_force"] = problem.description_text;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

nlohmann::ordered_json configJson(const Config& q) {
  auto list = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < q.size(); ++i) list.push_back(q[i]);
  return list;
}
}  // namespace

std::string statsJson(const Problem& problem, const std::string& checkerName, const PlanResult& result,
                      const std::vector<std::string>& commandLine, const nlohmann::ordered_json& extra) {
  nlohmann::ordered_json j = runHeader(problem, checkerName, commandLine);
  addOutcome(j, problem, result, false);
  j["peak_resident_bytes"] = peakResidentBytes();
  addPath(j, result);
  return finish(j, problem, extra);
}

std::string queriesStatsJson(const Problem& problem, const std::string& checkerName,
                             const std::vector<std::pair<Config, Config>>& queries,
                             const std::vector<PlanResult>& results, const std::vector<std::string>& commandLine,
                             const nlohmann::ordered_json& extra) {
  nlohmann::ordered_json j = runHeader(problem, checkerName, commandLine);
  auto list = nlohmann::ordered_json::array();
  std::size_t solved = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    nlohmann::ordered_json query;
    query["query"] = i + 1;
    query["start"] = configJson(queries.at(i).first);
    query["goal"] = configJson(queries.at(i).second);
    addOutcome(query, problem, results[i], true);
    addPath(query, results[i]);
    list.push_back(std::move(query));
    solved += results[i].solved;
  }
  j["queries"] = std::move(list);
  j["solved_queries"] = solved;
  j["roadmap_vertices"] = results.empty() ? 0 : results.back().roadmap_vertices;
  j["roadmap_edges"] = results.empty() ? 0 : results.back().roadmap_edges;
  j["peak_resident_bytes"] = peakResidentBytes();
  return finish(j, problem, extra);
}

std::string setupTimeLimitJson(const std::filesystem::path& file, const std::string& detail, double setupTime,
                               double timeLimit) {
  nlohmann::ordered_json j;
  j["problem_file"] = file.string();
  j["solved"] = false;
  j["status"] = "time limit";
  j["status_detail"] = detail;
  j["time_s"] = 0.0;
  j["setup_time_s"] = setupTime;
  j["time_limit_s"] = timeLimit;
  j["peak_resident_bytes"] = peakResidentBytes();
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace prmkit
