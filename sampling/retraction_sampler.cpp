#include "sampling/retraction_sampler.h"

#include <cmath>

namespace prmkit {

namespace {
/// Retraction steps before a draw is given up (each a contact query and a check).
constexpr int kRetractionSteps = 8;
/// Contacts kept per (link, obstacle) pair: enough to average a pair's normals.
constexpr std::size_t kContactsPerPair = 8;
/// Each step goes this far past the depths it was scaled to: a contact's
/// depth is its triangle pair's, often short of the whole overlap.
constexpr double kOvershoot = 1.5;
/// The coordinate change of the numerical Jacobian, relative to the robot's maximum extent.
constexpr double kRelativeNudge = 1e-6;
}  // namespace

RetractionSampler::RetractionSampler(SamplingContext& context) : context_(context), random_(context.seed()) {}

void RetractionSampler::restart(std::uint32_t stream) { random_.reseed(context_.seed() ^ (stream * 2654435761u)); }

bool RetractionSampler::sample(Config& out, unsigned int attempts) {
  const Robot& robot = context_.checker().robot();
  for (unsigned int attempt = 0; attempt < attempts; ++attempt) {
    robot.sampleUniform(random_, out);
    ++context_.drawn();
    if (context_.checker().isValid(out)) continue;
    if (retract(out)) return true;
  }
  return false;
}

bool RetractionSampler::retract(Config& q) {
  Checker& checker = context_.checker();
  const Robot& robot = checker.robot();
  const auto coordinates = static_cast<Eigen::Index>(robot.configSize());
  const double nudge = kRelativeNudge * robot.maxExtent();
  for (int stepCount = 0; stepCount < kRetractionSteps; ++stepCount) {
    robot.linkPoses(q, poses_);
    penetrationContacts(robot, checker.scene(), poses_, kContactsPerPair, context_.queries(), contacts_);
    if (contacts_.empty()) return false;  // inside a solid, or against itself: no way out to follow
    // a[c][j]: how far coordinate j moves contact c out of its obstacle, per unit.
    // Each contact point in its link's frame, carried along by the nudged poses.
    localPoints_.clear();
    for (const PenetrationContact& contact : contacts_)
      localPoints_.push_back(poses_[contact.link].inverse() * contact.point);
    Eigen::MatrixXd outward(static_cast<Eigen::Index>(contacts_.size()), coordinates);
    for (Eigen::Index j = 0; j < coordinates; ++j) {
      nudged_ = q;
      nudged_[j] += nudge;
      robot.normalize(nudged_);
      robot.linkPoses(nudged_, nudgedPoses_);
      for (std::size_t c = 0; c < contacts_.size(); ++c) {
        const PenetrationContact& contact = contacts_[c];
        const Eigen::Vector3d moved = nudgedPoses_[contact.link] * localPoints_[c];
        outward(static_cast<Eigen::Index>(c), j) = -contact.normal.dot(moved - contact.point) / nudge;
      }
    }
    Eigen::VectorXd depths(static_cast<Eigen::Index>(contacts_.size()));
    for (std::size_t c = 0; c < contacts_.size(); ++c) depths[static_cast<Eigen::Index>(c)] = contacts_[c].depth;
    const Eigen::VectorXd direction = outward.transpose() * depths;
    const Eigen::VectorXd along = outward * direction;
    const double scale = depths.dot(along) / along.squaredNorm();
    if (!(scale > 0.0) || !std::isfinite(scale)) return false;
    step_ = kOvershoot * scale * direction;
    q += step_;
    robot.normalize(q);
    if (!robot.inBounds(q)) return false;
    if (checker.isValid(q)) return true;
  }
  return false;
}

}  // namespace prmkit
