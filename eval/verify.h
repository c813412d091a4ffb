#pragma once
#include "io/problem.h"

#include <nlohmann/json.hpp>

namespace prmkit {

struct VerifyResult {
  bool valid = true;
  std::string message;                 // what is wrong, for people
  std::optional<std::size_t> segment;  // first colliding segment
  double t = 0.0;                      // its parameter
  /// The independent check found a collision the motion-bound check missed:
  /// one of the two is wrong, which is an error of prmkit, not of the path.
  bool disagreement = false;
  /// Configurations the independent check tested (0 when it did not run).
  std::uint64_t independent_configurations = 0;
};

/// Dense check of a path: it must start at the problem's start and end at its
/// goal, every waypoint must be valid, and along each segment no robot point
/// moves more than `eps` (m) between checked configurations (motion bounds).
/// With `independentResolution`, every segment is also stepped at that
/// fraction of the C-space extent with plain FCL (IndependentCheck); a
/// collision found only by that check makes the path invalid and sets `disagreement`.
VerifyResult verifyPath(const Problem& problem, const std::vector<Config>& path, double eps,
                        std::optional<double> independentResolution = std::nullopt);

/// The default eps: 1e-3 of the robot's largest link (its bounding box's
/// diagonal) or of the scene, whichever is smaller. The scene alone would let
/// one far-away obstacle coarsen the judge until it steps over a wall.
double defaultVerifyEps(const Problem& problem);

/// The viewer page's data (io/viewer_page.h) for a verified path: the
/// verdict in the legend, and the first colliding configuration drawn.
nlohmann::ordered_json verifyViewerData(const Problem& problem, const std::vector<Config>& path,
                                        const VerifyResult& verdict, double eps);

}  // namespace prmkit
