// The roadmap's nearest-neighbour queries as a PRM makes them: each new
// vertex is added, then its k nearest (itself among them) are asked for.
// prmkit's NearestVertices (a k-d tree on the robot's embedding, the metric
// deciding) against OMPL's GNAT with the robot's metric (what OMPL's PRM
// uses), on the same configurations in one run; the answers are compared
// distance by distance, so a faster structure cannot be a wrong one.
//
//   prmkit_nearest_vertices PROBLEM [VERTICES] [K] [SEED] [key.path=value ...]
//
// VERTICES (default 100000) configurations drawn uniformly (seed SEED,
// default 1), K (default 11) nearest per query. The fastest of three rounds
// counts (these machines are noisy). ROUNDS=1 PEER=0 in the environment: one
// round of prmkit's structure alone (for callgrind's instruction counts).
#include "bench/fastest_of.h"
#include "bench/sampled_problem.h"
#include "roadmap/nearest_vertices.h"

#include <fmt/format.h>
#include <ompl/datastructures/NearestNeighborsGNATNoThreadSafety.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace prmkit;

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: prmkit_nearest_vertices PROBLEM [VERTICES] [K] [SEED] [key.path=value ...]\n");
    return 2;
  }
  try {
    const auto count = static_cast<std::size_t>(argc > 2 ? std::max(1, std::atoi(argv[2])) : 100000);
    const auto k = static_cast<std::size_t>(argc > 3 ? std::max(1, std::atoi(argv[3])) : 11);
    const auto seed = argc > 4 ? static_cast<std::uint32_t>(std::strtoul(argv[4], nullptr, 10)) : 1u;
    const Problem problem = bench::loadWithOverrides(argc, argv, 5);
    const Robot& robot = *problem.robot;
    const std::vector<Config> configs = bench::uniformConfigs(robot, count, seed);
    const auto config = [&](std::size_t v) -> const Config& { return configs[v]; };

    const char* roundsSetting = std::getenv("ROUNDS");
    const int rounds = roundsSetting ? std::max(1, std::atoi(roundsSetting)) : 3;
    const char* peerSetting = std::getenv("PEER");
    const bool peer = !peerSetting || std::string(peerSetting) != "0";
    std::vector<std::vector<std::size_t>> ours(count), theirs(count);
    std::string structure;
    std::size_t evaluations = 0;
    const double oursSeconds = bench::fastestOf(rounds, [&] {
      NearestVertices nearest(robot, config);
      for (std::size_t v = 0; v < count; ++v) {
        nearest.add(v, configs[v]);
        nearest.nearestK(v, k, ours[v]);
      }
      structure = nearest.structure();
      evaluations = nearest.metricEvaluations();
    });
    // Metric evaluations are counted on an embedding, where the tree prunes and the metric decides.
    const auto evaluationsNote = [&] {
      return evaluations == 0 ? std::string()
                              : fmt::format(" ({:.1f} metric evaluations per query)",
                                            static_cast<double>(evaluations) / static_cast<double>(count));
    };
    if (!peer) {
      fmt::print("{}: {} vertices, {} nearest each; prmkit ({}) {:.2f} us per vertex{}\n", problem.name, count, k,
                 structure, 1e6 * oursSeconds / static_cast<double>(count), evaluationsNote());
      return 0;
    }
    const double theirsSeconds = bench::fastestOf(rounds, [&] {
      ompl::NearestNeighborsGNATNoThreadSafety<std::size_t> gnat;
      gnat.setDistanceFunction(
          [&](const std::size_t& a, const std::size_t& b) { return robot.distance(configs[a], configs[b]); });
      for (std::size_t v = 0; v < count; ++v) {
        gnat.add(v);
        gnat.nearestK(v, k, theirs[v]);
      }
    });
    // Ties may order different vertices at the same distance: compare distances.
    std::size_t differ = 0;
    for (std::size_t v = 0; v < count; ++v) {
      bool same = ours[v].size() == theirs[v].size();
      for (std::size_t i = 0; same && i < ours[v].size(); ++i)
        same = robot.distance(configs[v], configs[ours[v][i]]) == robot.distance(configs[v], configs[theirs[v][i]]);
      differ += same ? 0 : 1;
    }
    fmt::print(
        "{}: {} vertices, {} nearest each, {} answers differ from GNAT's; prmkit ({}) {:.2f} us per vertex{}, "
        "OMPL GNAT {:.2f} us per vertex; prmkit / GNAT time {:.3f}\n",
        problem.name, count, k, differ, structure, 1e6 * oursSeconds / static_cast<double>(count), evaluationsNote(),
        1e6 * theirsSeconds / static_cast<double>(count), oursSeconds / theirsSeconds);
    return differ == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "prmkit_nearest_vertices: {}\n", e.what());
    return 2;
  }
}
