#pragma once
// What the benchmark programs share: a problem loaded with the command
// line's key.path=value overrides (its start and goal unchecked: the
// benchmarks draw their own configurations), and configurations drawn
// uniformly from its robot with a seed.
#include "setup/build_problem.h"

#include "base/random.h"

#include <cstdint>
#include <vector>

namespace prmkit::bench {

/// The problem in argv[1], with argv[firstOverride..argc) as overrides.
inline Problem loadWithOverrides(int argc, char** argv, int firstOverride) {
  LoadOptions options;
  for (int i = firstOverride; i < argc; ++i) options.overrides.emplace_back(argv[i]);
  options.checkEndpoints = false;
  return loadProblem(argv[1], options);
}

/// `count` configurations drawn uniformly from the robot's space.
inline std::vector<Config> uniformConfigs(const Robot& robot, std::size_t count, std::uint32_t seed) {
  std::vector<Config> configs(count);
  Random rng(seed);
  for (Config& q : configs) robot.sampleUniform(rng, q);
  return configs;
}

}  // namespace prmkit::bench
