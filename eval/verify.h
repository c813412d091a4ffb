#pragma once
#include "io/problem.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace prmkit {

/// How far a path's end is from the configuration it should be at: the
/// largest distance (m) and rotation (rad) between the frames of any link at
/// the two configurations (a rigid body's own frame), and the C-space distance.
struct EndpointGap {
  double position_m = 0.0;
  double angle_rad = 0.0;
  double configuration_distance = 0.0;  // C-space units (Robot::distance)
  /// The most any point of the robot moves between the two (m), bounded
  /// above: each link frame's shift plus its rotation times the link's reach.
  double movement_m = 0.0;
  /// "0.000 m and 180.0 degrees away (C-space distance 3.14)".
  std::string describe() const;
};

struct VerifyResult {
  /// Collision-free and in bounds, and, unless the endpoints were not
  /// judged, from the start to the goal.
  bool valid = true;
  bool collision_free = true;                      // every waypoint in bounds and free, every segment free
  std::string message;                             // what is wrong, for people (the first collision, else an endpoint)
  std::optional<EndpointGap> start_gap, goal_gap;  // set when the path misses its start / goal
  std::optional<std::size_t> segment;              // first colliding segment
  double t = 0.0;                                  // its parameter
  /// The independent check found a collision the motion-bound check missed:
  /// one of the two is wrong, which is an error of prmkit, not of the path.
  bool disagreement = false;
  /// Configurations the independent check tested (0 when it did not run).
  std::uint64_t independent_configurations = 0;
};

enum class Endpoints { Judged, NotJudged };

/// Dense check of a path: every waypoint must be valid, along each segment no
/// robot point moves more than `eps` (m) between checked configurations
/// (motion bounds), and (Endpoints::Judged) it must start at the problem's
/// start and end at its goal. A missed endpoint is reported with its gap and
/// never hides a collision: the collision check runs either way.
/// With `independentResolution`, every segment is also stepped at that
/// fraction of the C-space extent with plain FCL (IndependentCheck); a
/// collision found only by that check makes the path invalid and sets `disagreement`.
///
/// A path file written at print precision (OMPL.app's sample paths end
/// 2.6e-5 degrees from their goal) reaches its endpoints within
/// `endpointTolerance` (m, EndpointGap::movement_m; none: `eps`, the judge's
/// own step): such a path counts as reaching them, and the short motion
/// between the endpoint and the configuration the file gives is checked like
/// a segment, so that the tolerance never hides a collision.
VerifyResult verifyPath(const Problem& problem, const std::vector<Config>& path, double eps,
                        std::optional<double> independentResolution = std::nullopt,
                        Endpoints endpoints = Endpoints::Judged,
                        std::optional<double> endpointTolerance = std::nullopt);

/// The judge's step: `eps` when given (positive, finite and at most the
/// scene's size, since a longer step checks a path at its waypoints only),
/// else defaultVerifyEps. InputError naming `option` otherwise.
double verifyEps(const Problem& problem, std::optional<double> eps, const std::string& option);

/// The default eps: 1e-3 of the robot's largest link (its bounding box's
/// diagonal) or of the scene, whichever is smaller. The scene alone would let
/// one far-away obstacle coarsen the judge until it steps over a wall.
double defaultVerifyEps(const Problem& problem);

/// The viewer page's data (io/viewer_page.h) for a verified path: the
/// verdict in the legend, and the first colliding configuration drawn.
nlohmann::ordered_json verifyViewerData(const Problem& problem, const std::vector<Config>& path,
                                        const VerifyResult& verdict, double eps);

}  // namespace prmkit
