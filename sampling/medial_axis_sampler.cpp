#include "sampling/medial_axis_sampler.h"

#include <ompl/base/SpaceInformation.h>

#include <algorithm>

namespace prmkit {

namespace ob = ompl::base;

namespace {
/// Steps of `step` a colliding sample is walked along before giving up on
/// that direction (Lien et al. 2003 push colliding samples out the same way).
constexpr int kEscapeSteps = 64;
/// Random directions tried from the free sample; the one whose first step
/// gains the most clearance stands for the clearance's gradient.
constexpr int kDirections = 6;
/// Growing steps along the line before the clearance must have stopped
/// growing, and halvings of the last step that place the sample nearer its peak.
constexpr int kLineSteps = 24;
constexpr int kRefinements = 3;
constexpr double kStepGrowth = 1.5;
}  // namespace

MedialAxisSampler::MedialAxisSampler(const ob::SpaceInformation* si, double step)
    : ob::ValidStateSampler(si), sampler_(si->allocStateSampler()), step_(step) {
  name_ = "medial_axis";
  direction_ = si_->allocState();
  probe_ = si_->allocState();
  best_ = si_->allocState();
}

MedialAxisSampler::~MedialAxisSampler() {
  si_->freeState(direction_);
  si_->freeState(probe_);
  si_->freeState(best_);
}

bool MedialAxisSampler::sample(ob::State* state) {
  for (unsigned int attempt = 0; attempt < attempts_; ++attempt) {
    sampler_->sampleUniform(state);
    if (retract(state)) return true;
  }
  return false;
}

bool MedialAxisSampler::sampleNear(ob::State* state, const ob::State* near, double distance) {
  for (unsigned int attempt = 0; attempt < attempts_; ++attempt) {
    sampler_->sampleUniformNear(state, near, distance);
    if (retract(state)) return true;
  }
  return false;
}

bool MedialAxisSampler::retract(ob::State* state) {
  const ob::StateValidityChecker& validity = *si_->getStateValidityChecker();
  const ob::StateSpace& space = *si_->getStateSpace();
  double clearance = 0.0;
  if (!validity.isValid(state, clearance)) {
    sampler_->sampleUniform(direction_);
    const double length = si_->distance(state, direction_);
    if (!(length > 0.0)) return false;
    bool escaped = false;
    for (int i = 1; i <= kEscapeSteps && !escaped; ++i) {
      const double t = std::min(1.0, i * step_ / length);
      space.interpolate(state, direction_, t, probe_);
      escaped = validity.isValid(probe_, clearance);
      if (t >= 1.0) break;
    }
    if (!escaped) return false;
    si_->copyState(state, probe_);
  }
  // The direction of steepest ascent among a few random ones; its first step
  // is kept in best_ and its target in direction_.
  double bestClearance = clearance;
  bool ascending = false;
  for (int k = 0; k < kDirections; ++k) {
    sampler_->sampleUniform(probe_);
    const double length = si_->distance(state, probe_);
    if (!(length > 0.0)) continue;
    si_->copyState(best_, probe_);  // keep the target while probe_ takes the step
    space.interpolate(state, best_, std::min(1.0, step_ / length), probe_);
    double stepped = 0.0;
    if (validity.isValid(probe_, stepped) && stepped > bestClearance) {
      bestClearance = stepped;
      si_->copyState(direction_, best_);
      ascending = true;
    }
  }
  if (ascending) climb(state, clearance);
  return true;
}

void MedialAxisSampler::climb(ob::State* state, double clearance) {
  // Along the line from `state` towards direction_, the clearance grows
  // until the line crosses the medial axis and falls after it: steps grow
  // while it grows, then the last step is halved towards the peak.
  const ob::StateValidityChecker& validity = *si_->getStateValidityChecker();
  const ob::StateSpace& space = *si_->getStateSpace();
  const double length = si_->distance(state, direction_);
  double at = 0.0, best = clearance, step = step_ / length;
  si_->copyState(best_, state);
  auto probe = [&](double t) {
    space.interpolate(state, direction_, t, probe_);
    double c = 0.0;
    if (!validity.isValid(probe_, c) || !(c > best)) return false;
    best = c;
    at = t;
    si_->copyState(best_, probe_);
    return true;
  };
  for (int i = 0; i < kLineSteps && at < 1.0; ++i) {
    if (!probe(std::min(1.0, at + step))) break;
    step *= kStepGrowth;
  }
  // The peak lies within one step on either side of `at`.
  for (int i = 0; i < kRefinements; ++i) {
    step *= 0.5;
    if (!probe(std::min(1.0, at + step))) probe(std::max(0.0, at - step));
  }
  si_->copyState(state, best_);
}

}  // namespace prmkit
