#pragma once
// scene.html: an interactive 3D view of a planning result (obstacles, the
// robot at start and goal and moving along the path, the roadmap with its
// edges coloured by verdict, the configurations found in collision), as one
// self-contained page that works offline: three.js (Debian's libjs-three) is
// embedded in the binary at build time, the data in the page as JSON.
#include "io/problem.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace prmkit {

/// Most path frames the page animates (poses of every link per frame).
inline constexpr std::size_t kViewerFrames = 240;
/// Most configurations found in collision the page draws (whole robots).
inline constexpr std::size_t kViewerWitnesses = 60;
/// Most roadmap edges the page draws; above it every n-th edge is drawn and
/// the legend says so, so the page stays a few megabytes.
inline constexpr std::size_t kViewerRoadmapEdges = 60000;

/// What the page draws, as the checkers see it: each link's collision mesh
/// in its own frame and its pose (column-major 4x4, metres) at start, goal
/// and every animation frame, computed by Robot::linkPoses; obstacles as
/// primitives (box, sphere, cylinder) or meshes with their poses; roadmap
/// vertices at their reference point (the last link's origin) and edges
/// with their states; the legend's rows, every number with its unit.
nlohmann::ordered_json viewerData(const Problem& problem, const std::string& checkerName, const PlanResult& result);

/// The page of a path judged by `verify` (eval/verify.h's verdict, passed
/// in pieces so that io does not depend on eval): the path animated, no
/// roadmap, and `collision` (the first colliding configuration) drawn in
/// red and named in the legend.
nlohmann::ordered_json pathViewerData(const Problem& problem, const std::vector<Config>& path,
                                      std::vector<std::array<std::string, 2>> legend,
                                      const std::optional<Config>& collision);

/// The page itself: `data` (viewerData) embedded with the viewer and three.js.
std::string viewerPage(const nlohmann::ordered_json& data);

}  // namespace prmkit
