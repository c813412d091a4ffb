#pragma once
// Retraction of colliding samples (Zhang & Manocha, "An Efficient
// Retraction-based RRT Planner", ICRA 2008): a configuration in collision
// is moved out along its penetration, the shortest way out, until it is
// free. A sample that lands in an obstacle beside a narrow passage comes out
// on the passage's side when that is the shallower one; the node lies on the
// obstacle's boundary, where the passage's free configurations are.
//
// Zhang & Manocha retract with generalized penetration depth; this uses
// FCL's triangle contacts (geometry/penetration.h) and the robot's
// kinematics: each contact's point, carried by its link, must move along
// its normal out of the obstacle by its depth. Coordinate by coordinate,
// how far a small change moves each contact point along its normal gives
// the Jacobian J (forward kinematics only, no collision query); the step
// is the Jacobian-transpose direction g = J^T d scaled to the depths
// (the least-squares length along g), somewhat past them. Translations and
// rotations move alike, so a body turns out of a wall as well as backs out.
#include "geometry/penetration.h"
#include "sampling/configuration_sampler.h"

namespace prmkit {

class RetractionSampler final : public ConfigurationSampler {
 public:
  static constexpr std::string_view kName = "retraction";
  explicit RetractionSampler(SamplingContext& context);
  /// A free configuration retracted from a colliding uniform draw; a draw
  /// that is free is not a node of this strategy (it lies nowhere in particular).
  bool sample(Config& out, unsigned int attempts) override;
  void restart(std::uint32_t stream) override;
  /// Moves the colliding `q` out along its penetration; true when it ends
  /// free and in bounds (each step's check counted by the checker).
  bool retract(Config& q);

 private:
  SamplingContext& context_;
  Random random_;
  std::vector<Transform> poses_, nudgedPoses_;
  std::vector<PenetrationContact> contacts_;
  std::vector<Eigen::Vector3d> localPoints_;
  Config nudged_, step_;
};

}  // namespace prmkit
