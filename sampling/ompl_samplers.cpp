#include "sampling/ompl_samplers.h"

#include "sampling/ompl_space.h"

#include <utility>

namespace prmkit {

namespace ob = ompl::base;

namespace {
/// One OMPL sampler as prmkit's: its attempts set per call, its state read back as a configuration.
class OmplValidStateSampler final : public ConfigurationSampler {
 public:
  OmplValidStateSampler(const ob::SpaceInformation* si, ob::ValidStateSamplerPtr sampler)
      : si_(si), sampler_(std::move(sampler)), state_(si->allocState()) {}
  ~OmplValidStateSampler() override { si_->freeState(state_); }
  OmplValidStateSampler(const OmplValidStateSampler&) = delete;
  OmplValidStateSampler& operator=(const OmplValidStateSampler&) = delete;

  bool sample(Config& out, unsigned int attempts) override {
    sampler_->setNrAttempts(attempts);
    if (!sampler_->sample(state_)) return false;
    out = si_->getStateSpace()->as<RobotStateSpace>()->toConfig(state_);
    return true;
  }

 private:
  const ob::SpaceInformation* si_;
  ob::ValidStateSamplerPtr sampler_;
  ob::State* state_;
};
}  // namespace

OmplSamplingSpace::OmplSamplingSpace(Checker& checker, std::uint32_t seed, std::atomic<std::uint64_t>& drawn,
                                     ClearanceFunction clearance) {
  auto space = std::make_shared<RobotStateSpace>(checker.robot(), seed, drawn);
  si_ = std::make_shared<ob::SpaceInformation>(space);
  si_->setStateValidityChecker(std::make_shared<CheckerValidityChecker>(si_, checker, std::move(clearance)));
  // Obstacle-based sampling stops a motion before the obstacle with the
  // checker's own edge check (OMPL's checkMotion with lastValid).
  si_->setMotionValidator(std::make_shared<CheckerMotionValidator>(si_, checker, 100.0));
  si_->setup();
}

void OmplSamplingSpace::restartStreams(std::uint32_t stream) {
  si_->getStateSpace()->as<RobotStateSpace>()->restartStreams(stream);
}

std::unique_ptr<ConfigurationSampler> OmplSamplingSpace::adapt(ob::ValidStateSamplerPtr sampler) {
  return std::make_unique<OmplValidStateSampler>(si_.get(), std::move(sampler));
}

std::function<std::unique_ptr<ConfigurationSampler>(SamplingContext&)> omplSampler(OmplSamplerFactory factory) {
  return [factory = std::move(factory)](SamplingContext& context) {
    OmplSamplingSpace& space = context.ompl();
    return space.adapt(factory(space.si(), context.sigma()));
  };
}

SamplingContext::SamplingContext(Checker& checker, double sigma, std::uint32_t seed, std::atomic<std::uint64_t>& drawn,
                                 ClearanceFunction clearance, QueryCounts& queries)
    : checker_(checker),
      sigma_(sigma),
      seed_(seed),
      drawn_(drawn),
      clearance_(std::move(clearance)),
      queries_(queries) {}

SamplingContext::~SamplingContext() = default;

OmplSamplingSpace& SamplingContext::ompl() {
  if (!ompl_) ompl_ = std::make_unique<OmplSamplingSpace>(checker_, seed_, drawn_, clearance_);
  return *ompl_;
}

void SamplingContext::restartOmplStreams(std::uint32_t stream) {
  if (ompl_) ompl_->restartStreams(stream);
}

}  // namespace prmkit
