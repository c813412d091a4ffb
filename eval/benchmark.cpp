#include "eval/benchmark.h"

#include "eval/planning_run.h"

#include "io/stats_json.h"
#include "eval/verify.h"
#include "registry/checker_registry.h"
#include "registry/planner_registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>

namespace prmkit {

namespace {

std::string shortName(const std::string& keyPath) {
  const auto dot = keyPath.rfind('.');
  return dot == std::string::npos ? keyPath : keyPath.substr(dot + 1);
}

std::string csvCell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

double quantile(std::vector<double> values, double p) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double h = p * static_cast<double>(values.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(h));
  const std::size_t upper = std::min(lower + 1, values.size() - 1);
  return values[lower] + (h - static_cast<double>(lower)) * (values[upper] - values[lower]);
}

std::string RunSpec::combination() const {
  // A planner that checks edges its own way is named alone: the checker does not make its runs.
  const std::string shown = planner_name.empty() ? planner : planner_name;
  std::string name = plannerKind(planner).capabilities.checks_edges_with_checker ? shown + "+" + checker : shown;
  if (parameters.empty()) return name;
  std::vector<std::string> items;
  for (const auto& [key, value] : parameters) items.push_back(shortName(key) + "=" + value);
  return fmt::format("{}[{}]", name, fmt::join(items, ","));
}

std::string RunSpec::key() const {
  std::vector<std::string> items;
  for (const auto& [key, value] : parameters) items.push_back(key + "=" + value);
  const std::string named = planner_name.empty() ? planner : fmt::format("{} named {}", planner, planner_name);
  return fmt::format("{}|{}|{}|{}|seed={}", problem_id, named, checker, fmt::join(items, ","), seed);
}

std::vector<std::string> RunSpec::overrides() const {
  std::vector<std::string> out = problem_overrides;
  // One thread per run unless the grid says otherwise: runs go in parallel
  // by worker processes (--jobs), and a run's result does not depend on it
  // (but one thread never races a second planner: planner.lazy_prm.race).
  out.insert(out.end(), {"planner.type=" + planner, "checker.type=" + checker, fmt::format("seed={}", seed),
                         fmt::format("limits.time={}", time_limit_s), "planner.threads=1"});
  for (const auto& [key, value] : parameters) out.push_back(key + "=" + value);
  return out;
}

RunRecord runPlanning(const RunSpec& spec) {
  RunRecord record;
  record.spec = spec;
  record.problem = defaultProblemName(spec.problem_file);
  try {
    PlanningRun run = setUpPlanningRun(spec.problem_file, {spec.overrides(), true});
    const Problem& problem = run.problem;
    record.problem = problem.name;
    const PlanResult result = run.solve();
    record.solved = result.solved;
    record.status = result.status_detail.empty() ? std::string(toString(result.status)) : result.status_detail;
    record.time_s = result.time_s;
    record.search_time_s = result.search_time_s;
    record.path_length = result.path_length;
    record.waypoints = result.path.size();
    record.path_verified = result.path_verified;
    record.roadmap_vertices = result.roadmap_vertices;
    record.roadmap_edges = result.roadmap_edges;
    record.planner_stats = result.planner_stats;
    record.node_sources = result.node_sources;
    record.check_stats = result.check_stats;
    record.race = result.race;
    record.relaxation = result.relaxation;
    if (result.solved) {
      const VerifyResult verdict = verifyPath(problem, result.path, defaultVerifyEps(problem));
      record.unsafe = !verdict.valid;
      record.verify_message = verdict.message;
    }
  } catch (const InputError& e) {
    record.status = "failed";
    record.failure = std::string(kInvalidInput) + e.what();
  } catch (const std::exception& e) {
    record.status = "failed";
    record.failure = e.what();
  }
  return record;
}

std::string recordJson(const RunRecord& r) {
  nlohmann::ordered_json j;
  j["prmkit_version"] = PRMKIT_VERSION;
  j["key"] = r.spec.key();
  j["problem_id"] = r.spec.problem_id;
  j["problem_file"] = r.spec.problem_file.string();
  j["problem"] = r.problem;
  j["planner"] = r.spec.planner;
  if (!r.spec.planner_name.empty()) j["planner_name"] = r.spec.planner_name;
  j["checker"] = r.spec.checker;
  j["combination"] = r.spec.combination();
  j["parameters"] = nlohmann::ordered_json::array();
  for (const auto& [key, value] : r.spec.parameters) j["parameters"].push_back({key, value});
  if (!r.spec.problem_overrides.empty()) j["problem_overrides"] = r.spec.problem_overrides;
  j["seed"] = r.spec.seed;
  j["time_limit_s"] = r.spec.time_limit_s;
  j["solved"] = r.solved;
  j["status"] = r.status;
  j["failure"] = r.failure;
  j["time_s"] = r.time_s;
  j["search_time_s"] = r.search_time_s;
  j["path_length"] = r.path_length;
  j["waypoints"] = r.waypoints;
  j["path_verified"] = r.path_verified;
  j["unsafe"] = r.unsafe;
  j["verify_message"] = r.verify_message;
  j["roadmap_vertices"] = r.roadmap_vertices;
  j["roadmap_edges"] = r.roadmap_edges;
  addRunCounters(j, r.planner_stats, r.node_sources, r.check_stats);
  if (!r.race.empty()) j["race"] = raceJson(r.race);
  if (!r.relaxation.empty()) j["relaxation"] = relaxationJson(r.relaxation);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

RunRecord parseRecordJson(const std::string& line, const std::string& where) {
  try {
    const auto j = nlohmann::json::parse(line);
    RunRecord r;
    r.spec.problem_id = j.at("problem_id").get<std::string>();
    r.spec.problem_file = j.at("problem_file").get<std::string>();
    r.spec.planner = j.at("planner").get<std::string>();
    r.spec.planner_name = j.value("planner_name", std::string());
    r.spec.checker = j.at("checker").get<std::string>();
    for (const auto& p : j.at("parameters"))
      r.spec.parameters.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
    if (j.contains("problem_overrides"))
      r.spec.problem_overrides = j.at("problem_overrides").get<std::vector<std::string>>();
    r.spec.seed = j.at("seed").get<std::uint32_t>();
    r.spec.time_limit_s = j.at("time_limit_s").get<double>();
    r.problem = j.at("problem").get<std::string>();
    r.solved = j.at("solved").get<bool>();
    r.status = j.at("status").get<std::string>();
    r.failure = j.at("failure").get<std::string>();
    r.time_s = j.at("time_s").get<double>();
    r.search_time_s = j.value("search_time_s", 0.0);  // absent from records written before it was measured
    r.path_length = j.at("path_length").get<double>();
    r.waypoints = j.at("waypoints").get<std::size_t>();
    r.path_verified = j.at("path_verified").get<bool>();
    r.unsafe = j.at("unsafe").get<bool>();
    r.verify_message = j.at("verify_message").get<std::string>();
    r.roadmap_vertices = j.at("roadmap_vertices").get<std::size_t>();
    r.roadmap_edges = j.at("roadmap_edges").get<std::size_t>();
    PlannerStats::forEachField([&](std::string_view name, auto member) {
      // Counters added after a runs file was written read as 0 (resumable sweeps).
      r.planner_stats.*member = j.value(std::string(name), std::uint64_t{0});
    });
    if (j.contains("node_sources")) r.node_sources = parseNodeSources(j.at("node_sources"));
    if (j.contains("race")) r.race = parseRace(j.at("race"));
    if (j.contains("relaxation")) r.relaxation = parseRelaxation(j.at("relaxation"));
    r.check_stats = CheckStats(strategyCounters(r.spec.checker));
    QueryCounts::forEachField([&](std::string_view name, auto member, std::string_view) {
      r.check_stats.*member = j.at(std::string(name)).get<std::uint64_t>();
    });
    const auto declared = r.check_stats.strategy.declared();
    for (std::size_t i = 0; i < declared.size(); ++i)
      r.check_stats.strategy[i] = j.value(std::string(declared[i].name), std::uint64_t{0});
    r.check_stats.edges_checked = j.at("edges_checked").get<std::uint64_t>();
    r.check_stats.paths_checked = j.at("paths_checked").get<std::uint64_t>();
    r.check_stats.time_s = j.at("check_time_s").get<double>();
    if (j.at("key").get<std::string>() != r.spec.key())
      throw InputError(fmt::format("{}: the key does not match the run's settings", where));
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a run record: {}", where, e.what()));
  }
}

std::string recordsCsv(const std::vector<RunRecord>& records) {
  std::vector<std::string> header{"problem", "planner",          "checker",      "combination", "parameters",
                                  "seed",    "time_limit_s",     "solved",       "status",      "failure",
                                  "time_s",  "search_time_s",    "path_length",  "waypoints",   "path_verified",
                                  "unsafe",  "roadmap_vertices", "roadmap_edges"};
  PlannerStats::forEachField([&](std::string_view name, auto) { header.emplace_back(name); });
  const std::vector<CounterSpec> strategyCounters = checkCounterSpecs();
  CheckStats{}.forEach([&](std::string_view name, double, std::string_view) { header.emplace_back(name); },
                       strategyCounters);
  std::string out = fmt::format("{}\n", fmt::join(header, ","));
  for (const auto& r : records) {
    std::vector<std::string> parameters;
    for (const auto& [key, value] : r.spec.parameters) parameters.push_back(key + "=" + value);
    std::vector<std::string> cells{csvCell(r.problem),
                                   r.spec.planner,
                                   r.spec.checker,
                                   csvCell(r.spec.combination()),
                                   csvCell(fmt::format("{}", fmt::join(parameters, ";"))),
                                   std::to_string(r.spec.seed),
                                   fmt::format("{}", r.spec.time_limit_s),
                                   r.solved ? "1" : "0",
                                   csvCell(r.status),
                                   csvCell(r.failure),
                                   fmt::format("{:.6f}", r.time_s),
                                   fmt::format("{:.6f}", r.search_time_s),
                                   fmt::format("{:.6g}", r.path_length),
                                   std::to_string(r.waypoints),
                                   r.path_verified ? "1" : "0",
                                   r.unsafe ? "1" : "0",
                                   std::to_string(r.roadmap_vertices),
                                   std::to_string(r.roadmap_edges)};
    PlannerStats::forEachField(
        [&](std::string_view, auto member) { cells.push_back(std::to_string(r.planner_stats.*member)); });
    r.check_stats.forEach(
        [&](std::string_view, double value, std::string_view unit) {
          cells.push_back(unit == "s" ? fmt::format("{:.6f}", value) : fmt::format("{:.0f}", value));
        },
        strategyCounters);
    out += fmt::format("{}\n", fmt::join(cells, ","));
  }
  return out;
}

}  // namespace prmkit
