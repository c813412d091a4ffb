#pragma once
// The data-parallel core of the `spheres` strategy, after VAMP (Thomason,
// Kingston & Kavraki, ICRA 2024): a batch of configurations, one per SIMD
// lane, goes through forward kinematics and sphere tests together, in
// single precision, so that one instruction serves every lane. The robot's
// links are sets of spheres (each link first by the sphere around its set);
// boxes, spheres and cylinders are tested in closed form on the lanes, a
// mesh obstacle by FCL per lane once the link's sphere reaches its bounds.
#include "checkers/check_stats.h"
#include "scene/scene.h"
#include "robots/robot.h"
#include "shapes/sphere_set.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace prmkit {

class KinematicChain;

/// Configurations one kernel call checks together: one AVX2 register of
/// floats (narrower instruction sets take two or more per operation).
inline constexpr std::size_t kSphereLanes = 8;
/// A bit per lane.
using LaneMask = std::uint32_t;

/// The kernel's own work, declared by the `spheres` strategy as its counter 0.
inline constexpr CounterSpec kSphereTestsCounter{"sphere_tests", "count",
                                                 "sphere-against-body tests, one per configuration"};
inline constexpr std::size_t kSphereTestsIndex = 0;

struct SphereKernelOptions {
  /// The self pairs tested (a subset of the robot's; all of them when absent).
  std::optional<std::vector<std::pair<int, int>>> self_pairs;
  /// A lane also collides where a body could lie wholly inside a closed
  /// link: a point of each of the body's components (geometry's SolidInfo)
  /// within the sphere around the link's spheres. Bodies are solids for the
  /// exact strategies, and spheres that contain a link's surface need not
  /// hold its inside: with this, spheres that contain the links prove
  /// "free" in the exact strategies' sense.
  bool solid_links = false;
};

class SphereKernel {
 public:
  /// `spheres[i]` stands for link i (none: the link is never tested).
  SphereKernel(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
               const std::vector<std::vector<Sphere>>& spheres, const SphereKernelOptions& options = {});
  ~SphereKernel();

  /// Every sphere of link i grows by growth[i] (m) in the calls that follow
  /// (empty: none): spheres that contain a link at a configuration, grown by
  /// how far any of its points moves within a stretch of a motion, contain
  /// it all along that stretch. Against each other, the two links of the
  /// robot's self pair p grow by selfGrowth[p] together (how far one moves
  /// relative to the other; empty: the sum of their growths).
  void setGrowth(std::span<const double> growth, std::span<const double> selfGrowth = {});

  /// The lanes whose configuration collides (bounds are not looked at);
  /// `configs` holds kSphereLanes configurations. With `firstHit`, returns
  /// as soon as a lane is found colliding (the others may then be missed).
  /// Counts sphere_tests and pair_tests (the caller counts the distinct configurations, static_queries).
  LaneMask collidingLanes(const std::array<const Config*, kSphereLanes>& configs, bool firstHit, CheckStats& stats);

  std::size_t sphereCount() const;

 private:
  // The lanes' types depend on the instruction set the kernel is compiled
  // for (checkers/CMakeLists.txt), so they stay in its file.
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace prmkit
