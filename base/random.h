#pragma once
// prmkit's random numbers: a Mersenne Twister (std::mt19937) and the uniform
// and normal draws made from it. For the same seed it gives the draws OMPL's
// RNG gives (the same engine, distributions and formulas), which the tests
// check draw by draw, so that the robots, samplers and planners need no OMPL
// and every seeded result stayed what it was when they drew with OMPL's.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace prmkit {

class Random {
 public:
  explicit Random(std::uint32_t seed = 1) : engine_(seed) {}

  /// Starts the stream of `seed` again, as a new Random(seed) would.
  void reseed(std::uint32_t seed) {
    engine_.seed(seed);
    uniform_.reset();
    normal_.reset();
  }
  /// In [0, 1).
  double uniform01() { return uniform_(engine_); }
  /// In [lower, upper).
  double uniformReal(double lower, double upper) { return (upper - lower) * uniform_(engine_) + lower; }
  /// In [lower, upper], each integer alike.
  int uniformInt(int lower, int upper) {
    const auto r = static_cast<int>(std::floor(uniformReal(lower, static_cast<double>(upper) + 1.0)));
    return r > upper ? upper : r;
  }
  /// Standard normal.
  double gaussian01() { return normal_(engine_); }
  double gaussian(double mean, double standardDeviation) { return normal_(engine_) * standardDeviation + mean; }
  /// A unit quaternion (x, y, z, w) uniform on SO(3) (Shoemake, "Uniform
  /// random rotations", Graphics Gems III, 1992).
  void quaternion(double value[4]) {
    const double x0 = uniform_(engine_);
    const double r1 = std::sqrt(1.0 - x0), r2 = std::sqrt(x0);
    const double t1 = 2.0 * std::numbers::pi * uniform_(engine_), t2 = 2.0 * std::numbers::pi * uniform_(engine_);
    value[0] = std::sin(t1) * r1;
    value[1] = std::cos(t1) * r1;
    value[2] = std::sin(t2) * r2;
    value[3] = std::cos(t2) * r2;
  }

 private:
  std::mt19937 engine_;
  std::uniform_real_distribution<> uniform_{0.0, 1.0};
  std::normal_distribution<> normal_{0.0, 1.0};
};

}  // namespace prmkit
