#pragma once
// stats.json, and the counters every output that records runs writes the same way (runs.jsonl).
#include "io/problem.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace prmkit {

/// Peak resident memory of this process so far (bytes; 0 when the system does not say).
std::uint64_t peakResidentBytes();
/// A run's counters as every output writes them (stats.json, runs.jsonl):
/// each planner and checker counter under its own name, and the node sources.
void addRunCounters(nlohmann::ordered_json& j, const PlannerStats& planner, const std::vector<NodeSourceStats>& sources,
                    const CheckStats& checks);
/// stats.json: the problem, planner, checker and seed, the outcome (the same
/// keys as a sweep's runs.jsonl records: solved, status, time_s, waypoints,
/// path_length, roadmap sizes) and addRunCounters.
/// It also records prmkit's version, `commandLine` (when given: the
/// arguments after the program's name) and every setting in force (the
/// planner's shared fields, its family's section and parameters, the
/// checker's geometry and its strategy's section), so that a run can be
/// reproduced from its outputs.
/// `extra` (an object) adds its keys before the settings.
std::string statsJson(const Problem& problem, const std::string& checkerName, const PlanResult& result,
                      const std::vector<std::string>& commandLine = {},
                      const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());
/// stats.json of `plan --queries`: the problem, planner, checker and seed as
/// statsJson writes them, then `queries`, one object per query (its `start`
/// and `goal`, then the keys of a single run's outcome and counters), the
/// roadmap's final sizes and `solved_queries`.
std::string queriesStatsJson(const Problem& problem, const std::string& checkerName,
                             const std::vector<std::pair<Config, Config>>& queries,
                             const std::vector<PlanResult>& results, const std::vector<std::string>& commandLine = {},
                             const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());
/// The settings in force for a problem's run, as statsJson records them.
nlohmann::ordered_json settingsJson(const Problem& problem);
/// stats.json of a run whose time limit ran out during setup: no problem was
/// loaded whole, so only what is known (status "time limit", the step, the times).
std::string setupTimeLimitJson(const std::filesystem::path& file, const std::string& detail, double setupTime,
                               double timeLimit);
/// Node-source statistics as a JSON list (stats.json, runs.jsonl), and back.
nlohmann::ordered_json nodeSourcesJson(const std::vector<NodeSourceStats>& sources);
std::vector<NodeSourceStats> parseNodeSources(const nlohmann::json& list);
/// The planners of a race (PlanResult::race) as a JSON list (stats.json's and runs.jsonl's `race`), and back.
nlohmann::ordered_json raceJson(const std::vector<RacePart>& parts);
std::vector<RacePart> parseRace(const nlohmann::json& list);
/// Lazy PRM's relaxed stages (PlanResult::relaxation) as a JSON list (stats.json's and
/// runs.jsonl's `relaxation`), and back.
nlohmann::ordered_json relaxationJson(const std::vector<RelaxedStage>& stages);
std::vector<RelaxedStage> parseRelaxation(const nlohmann::json& list);

}  // namespace prmkit
