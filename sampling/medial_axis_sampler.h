#pragma once
// Medial-axis sampling (MAPRM: Wilmarth, Amato & Stiller, "MAPRM: A
// Probabilistic Roadmap Planner with Sampling on the Medial Axis of the Free
// Space", ICRA 1999), with the retraction of Lien, Thomas & Amato ("A
// General Framework for Sampling on the Medial Axis of the Free Space",
// ICRA 2003) that needs clearances only, not the witness directions of a
// workspace medial axis: a uniform sample (pushed out of the obstacle along
// a random C-space direction when it collides) is moved along the direction
// in which its clearance grows fastest, until the clearance stops growing:
// there it crossed the medial axis. A narrow passage's medial axis runs
// through its middle, so every sample that lands in or next to the passage
// ends up where the passage is widest for the robot, whatever its
// orientation: the C-space directions turn the body as well as move it.
//
// The clearances are exact distance lower bounds (ClearanceQuery, the
// distance cascade of `adaptive`), which the node sampler provides whatever
// the checker (SamplerKind::needs_clearance).
#include <ompl/base/StateSampler.h>
#include <ompl/base/ValidStateSampler.h>

namespace prmkit {

class MedialAxisSampler final : public ompl::base::ValidStateSampler {
 public:
  /// `step`: the first step of the retraction (C-space units), about the
  /// width of the passages to be found.
  MedialAxisSampler(const ompl::base::SpaceInformation* si, double step);
  ~MedialAxisSampler() override;

  bool sample(ompl::base::State* state) override;
  bool sampleNear(ompl::base::State* state, const ompl::base::State* near, double distance) override;

 private:
  /// `state` moved out of the obstacles (when it collides) and onto the
  /// medial axis; false when no free configuration was found on the way out.
  bool retract(ompl::base::State* state);
  /// `state` (valid, clearance `clearance`) moved along `direction_`'s line
  /// while its clearance grows.
  void climb(ompl::base::State* state, double clearance);

  ompl::base::StateSamplerPtr sampler_;
  double step_;
  ompl::base::State* direction_;  // a configuration the line of motion heads for
  ompl::base::State* probe_;
  ompl::base::State* best_;
};

}  // namespace prmkit
