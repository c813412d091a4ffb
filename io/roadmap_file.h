#pragma once
// Roadmap files (docs/roadmap-format.md): a planner's roadmap written after
// its queries and read back for the next run, so that PRM's many queries on
// one roadmap span runs. Text, one vertex or edge per line, every error
// naming file:line:column.
#include "io/problem.h"
#include "roadmap/roadmap.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace prmkit {

/// Largest roadmap file read: about ten million vertices of a 7-joint arm.
inline constexpr std::uintmax_t kMaxRoadmapFileBytes = std::uintmax_t{1} << 30;
/// Most vertices and edges read (a roadmap takes about 150 bytes a vertex
/// and 70 an edge: these hold it under 4 GB, where a file of the largest
/// size holding short lines alone would need tens of GB), and node source names.
inline constexpr std::size_t kMaxRoadmapVertices = 10'000'000;
inline constexpr std::size_t kMaxRoadmapEdges = 40'000'000;
inline constexpr std::size_t kMaxNodeSourceNames = 64;

/// What a roadmap's verdicts were found under: the robot (coordinates,
/// bounds, link meshes, link poses at fixed configurations), the scene's
/// obstacles (meshes, poses, primitives) and the checker with its settings,
/// as 16 hex digits (FNV-1a, 64 bits). Two problems with the same
/// fingerprint give every vertex and edge the same verdict.
std::string roadmapFingerprint(const Problem& problem);

/// The roadmap as a roadmap file: its vertices (with the node source that
/// drew each, by `sourceNames`) and its edges with their states.
std::string roadmapText(const Problem& problem, const Roadmap& roadmap, const std::vector<std::string>& sourceNames);

struct LoadedRoadmap {
  std::unique_ptr<Roadmap> roadmap;
  std::vector<std::string> source_names;
  /// The file's fingerprint is the problem's: vertices and edge states are
  /// taken as written. Otherwise every vertex was checked again (`valid`)
  /// and every edge is unchecked.
  bool verdicts_kept = false;
  std::size_t vertices_dropped = 0;  // invalid under this problem (only when the fingerprints differ)
  std::size_t edges_dropped = 0;     // at a dropped vertex
};

/// Reads a roadmap file for `problem` (its robot's kind and coordinates
/// must be the file's). `valid` is asked of every vertex when the
/// fingerprints differ. Throws InputError with file:line:column.
LoadedRoadmap readRoadmapFile(const std::filesystem::path& file, const Problem& problem,
                              const std::function<bool(const Config&)>& valid);

}  // namespace prmkit
