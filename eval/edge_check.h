#pragma once
// `prmkit check`: a checker run on a list of edges, one verdict per edge,
// optionally against a dense ground truth. This is how checkers are compared
// edge by edge, and how the adaptive checker's zero-miss claim is measured.
#include "checkers/checker.h"
#include "scene/scene.h"
#include "robots/robot.h"

#include <memory>

#include <filesystem>
#include <optional>

namespace prmkit {

struct EdgeCase {
  Config a, b;
};

/// `count` edges between valid configurations (exact static check), drawn with
/// `seed`; each is at most `maxLength` long in C-space (0: any length). The
/// same problem and seed give the same edges whatever checker runs them.
std::vector<EdgeCase> randomEdges(const std::shared_ptr<const Robot>& robot, const std::shared_ptr<const Scene>& scene,
                                  std::size_t count, double maxLength, std::uint32_t seed);

/// An edge file: header `a.<coordinate>..., b.<coordinate>...`, one edge per row.
std::vector<EdgeCase> readEdgesCsv(const std::filesystem::path& file, const Robot& robot);

struct EdgeVerdict {
  bool endpoints_valid = true;  // false: the edge was not checked
  EdgeResult result;
  bool unresolved = false;  // Colliding because a segment fell below eta (no witness)
  double time_s = 0.0;      // the checker's own time on this edge (its stats' time_s)
  /// Ground truth, when asked for: a dense workspace check says it collides.
  std::optional<bool> truth_colliding;
  /// The independent truth, when asked for (IndependentCheck): it collides.
  std::optional<bool> independent_colliding;
  /// A Colliding verdict's witness configuration is in collision for FCL.
  std::optional<bool> witness_confirmed;
};

struct EdgeCheckReport {
  std::vector<EdgeVerdict> edges;
  CheckStats stats;                     // of the checker under test only
  double truth_eps = 0.0;               // m; 0 when no ground truth was computed
  double independent_resolution = 0.0;  // fraction of the extent; 0 when no independent truth was computed
  std::size_t free = 0, colliding = 0, unknown = 0, invalid_endpoints = 0, unresolved = 0;
  std::size_t misses = 0;        // Free while a ground truth (either, when both ran) collides
  std::size_t conservative = 0;  // Colliding while every ground truth that ran is free
  /// The independent truth collides where the motion-bound truth is free: one
  /// of them is wrong (an error of prmkit's bounds when it is the latter).
  std::size_t truth_disagreements = 0;
  std::size_t unconfirmed_witnesses = 0;  // Colliding, not unresolved, witness not in collision
};

/// Checks every edge with `checker` (and clones of it on `jobs` threads). With
/// `truthEps` > 0, also runs the dense ground truth: sequential samples such
/// that no robot point moves more than truthEps (m) between them. With
/// `independentResolution` > 0, also the independent truth (IndependentCheck
/// at that fraction of the C-space extent), which shares no bound with it.
EdgeCheckReport checkEdges(const std::shared_ptr<const Robot>& robot, const std::shared_ptr<const Scene>& scene,
                           Checker& checker, const std::vector<EdgeCase>& edges, double truthEps, std::size_t jobs,
                           double independentResolution = 0.0);

/// Median of the checker's time per checked edge (s); 0 when none was checked.
double medianEdgeTime(const EdgeCheckReport& report);

/// One row per edge: index, verdict, confidence, witness_t, unresolved,
/// time_us, and truth and witness_confirmed when the ground truth was computed.
std::string edgeVerdictsCsv(const EdgeCheckReport& report);

}  // namespace prmkit
