#pragma once
// The benchmark programs' clock: the fastest of a few rounds of the same
// work counts, since these machines are noisy and noise only adds time.
#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>

namespace prmkit::bench {

/// Seconds of the fastest of `rounds` runs of `work`.
inline double fastestOf(int rounds, const std::function<void()>& work) {
  double best = std::numeric_limits<double>::infinity();
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace prmkit::bench
