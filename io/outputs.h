#pragma once
// What `prmkit plan` writes besides the path (io/path_files.h): statistics
// (JSON), a picture (SVG), and the helpers the batch outputs share.
#include "io/output_folder.h"
#include "io/problem.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace prmkit {

/// Text as it may stand in HTML or SVG (XML) content and double-quoted
/// attribute values: names come from problem files, and a name must not open a tag.
std::string markupEscaped(std::string_view text);

/// A file name stem made from a name that comes from input (a problem's
/// name): letters, digits, '-', '_' and '.' kept, anything else (a '/', a
/// quote, a space) becomes '_', no leading '.', at most 100 characters, never
/// empty, so a name cannot point outside the output folder.
std::string fileStem(std::string_view name);

/// Peak resident memory of this process so far (bytes; 0 when the system does not say).
std::uint64_t peakResidentBytes();
/// A run's counters as every output writes them (stats.json, runs.jsonl):
/// each planner and checker counter under its own name, and the node sources.
void addRunCounters(nlohmann::ordered_json& j, const PlannerStats& planner, const std::vector<NodeSourceStats>& sources,
                    const CheckStats& checks);
/// stats.json: the problem, planner, checker and seed, the outcome (the same
/// keys as a sweep's runs.jsonl records: solved, status, time_s, waypoints,
/// path_length, roadmap sizes) and addRunCounters.
std::string statsJson(const Problem& problem, const std::string& checkerName, const PlanResult& result);
/// stats.json of a run whose time limit ran out during setup: no problem was
/// loaded whole, so only what is known (status "time limit", the step, the times).
std::string setupTimeLimitJson(const std::filesystem::path& file, const std::string& detail, double setupTime,
                               double timeLimit);
/// Node-source statistics as a JSON list (stats.json, runs.jsonl), and back.
nlohmann::ordered_json nodeSourcesJson(const std::vector<NodeSourceStats>& sources);
std::vector<NodeSourceStats> parseNodeSources(const nlohmann::json& list);

/// `count` configurations evenly spaced by the robot's metric along the
/// path, its first and last waypoints included (one when it has no length).
std::vector<Config> evenlySpacedOnPath(const Robot& robot, const std::vector<Config>& path, std::size_t count);
/// A point that stands for a configuration in pictures: the body origin of a
/// rigid body, the tip frame of a chain (the last link's origin).
Eigen::Vector3d referencePoint(const Robot& robot, const Config& q);

/// Top view (2D problems) or top and front views (3D problems) of obstacles,
/// roadmap, path, start and goal.
std::string sceneSvg(const Problem& problem, const PlanResult& result);

}  // namespace prmkit
