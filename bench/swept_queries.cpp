// The cost of a swept-hull query against a basic one, on the same pairs in
// the same run: the counterpart of Xavier 1997, Table 1 (basic distance D and
// interference I against swept-body distance DS and interference IS; the
// paper: swept queries cost up to 30-50% more, swept interference about half
// a basic distance). Every (link, obstacle) pair of a problem whose bodies
// are convex hulls or primitives, at random steps of random edges between
// valid configurations: D and I at the step's start, DS and IS over the step
// (the link's hull at both ends, as the `swept` checker tests it).
//
//   prmkit_swept_queries PROBLEM.yaml [STEPS] [STEP_FRACTION]
//
// STEPS (default 2000) steps of STEP_FRACTION (default 0.01) of the C-space
// extent; the four loops run over the same queries, three times in turn, and
// the fastest round of each counts (these machines are noisy).
#include "checkers/check_stats.h"
#include "geometry/collision_queries.h"
#include "geometry/swept_hull.h"
#include "setup/build_problem.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

using namespace prmkit;

namespace {

struct Query {
  const ConvexHull* hull;  // the link's
  Transform from, to;      // the link's pose at the step's two ends
  const Obstacle* obstacle;
};

/// One loop over every query; returns the time (s) and the sum of the gaps
/// (so that the optimiser keeps the work).
std::pair<double, double> timeLoop(const std::vector<Query>& queries, bool swept, double enough, CheckStats& stats) {
  const auto start = std::chrono::steady_clock::now();
  double sum = 0.0;
  for (const Query& q : queries) {
    const Transform& to = swept ? q.to : q.from;
    const SweptHull moving{*q.hull, q.from, to};
    const Primitive* primitive = q.obstacle->checkedPrimitive();
    sum += primitive ? sweptHullGap(moving, *primitive, q.obstacle->pose, enough, stats)
                     : sweptHullGap(moving, SweptHull{*q.obstacle->cover.hull, q.obstacle->pose, q.obstacle->pose},
                                    enough, stats);
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), sum};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: prmkit_swept_queries PROBLEM.yaml [STEPS] [STEP_FRACTION]\n");
    return 2;
  }
  try {
    const Problem problem = loadProblem(argv[1]);
    const int steps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2000;
    const double fraction = argc > 3 ? std::atof(argv[3]) : 0.01;
    const Robot& robot = *problem.robot;
    CollisionQueries collision(problem.robot, problem.scene, Geometry::Convex);
    CheckStats ignored;
    Random rng(1);
    std::vector<Query> queries;
    std::vector<Transform> posesFrom, posesTo;
    Config a, b, from, to;
    for (int s = 0; s < steps;) {
      robot.sampleUniform(rng, a);
      robot.sampleUniform(rng, b);
      if (collision.inCollision(a, ignored)) continue;
      // A step of `fraction` of the extent from a towards b.
      const double length = robot.distance(a, b);
      if (!(length > 0.0)) continue;
      const double t = std::min(1.0, fraction * robot.maxExtent() / length);
      from = a;
      robot.interpolate(a, b, t, to);
      robot.linkPoses(from, posesFrom);
      robot.linkPoses(to, posesTo);
      for (std::size_t link = 0; link < robot.links().size(); ++link) {
        const ConvexCover& cover = robot.links()[link].cover;
        if (cover.empty()) continue;
        for (const Obstacle& obstacle : problem.scene->obstacles())
          if (obstacle.checkedPrimitive() || !obstacle.cover.empty())
            queries.push_back({cover.hull.get(), posesFrom[link], posesTo[link], &obstacle});
      }
      ++s;
    }
    const double infinity = std::numeric_limits<double>::infinity();
    // D, I, DS, IS; the fastest of three rounds each.
    double best[4] = {infinity, infinity, infinity, infinity};
    double checksum = 0.0;
    CheckStats counted[4];
    for (int round = 0; round < 3; ++round)
      for (int kind = 0; kind < 4; ++kind) {
        CheckStats stats;
        const auto [seconds, sum] = timeLoop(queries, kind >= 2, kind % 2 == 0 ? infinity : 0.0, stats);
        best[kind] = std::min(best[kind], seconds);
        checksum += sum;
        counted[kind] = stats;
      }
    const double n = static_cast<double>(queries.size());
    auto ns = [&](int kind) { return 1e9 * best[kind] / n; };
    auto iterations = [&](int kind) { return static_cast<double>(counted[kind].gjk_iterations) / n; };
    fmt::print("problem {}: {} queries ({} steps of {:g} of the C-space extent), checksum {:.6g} m\n", problem.name,
               queries.size(), steps, fraction, checksum);
    fmt::print("| problem | D: ns | I: ns | DS: ns | IS: ns | DS / D | IS / I | IS / D | GJK iterations D / DS |\n");
    fmt::print("| {} | {:.0f} | {:.0f} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} / {:.2f} |\n",
               problem.name, ns(0), ns(1), ns(2), ns(3), ns(2) / ns(0), ns(3) / ns(1), ns(3) / ns(0), iterations(0),
               iterations(2));
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  }
}
