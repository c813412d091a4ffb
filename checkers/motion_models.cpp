#include "checkers/motion_models.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prmkit {

void SegmentMotion::compute(const Robot& robot, const Config& a, const Config& b, bool accelerations) {
  robot.motionBounds(a, b, link, self);
  acceleration.clear();
  if (accelerations) robot.linkAccelerationBounds(a, b, acceleration);
}

SampleTwists::Entry& SampleTwists::entry(const Robot& robot, std::uint32_t segment, const Config& a, const Config& b,
                                         const Config& q, std::vector<Transform>& poses) {
  const auto end = entries_.begin() + static_cast<std::ptrdiff_t>(used_);
  const auto found = std::find_if(entries_.begin(), end, [&](const Entry& e) { return e.segment == segment; });
  if (found != end) return *found;
  // An entry of an earlier sample is refilled: its vectors keep their
  // storage (a verifier makes hundreds of samples a run).
  if (used_ == entries_.size()) entries_.emplace_back();
  Entry& added = entries_[used_++];
  added.segment = segment;
  robot.linkTwists(a, b, q, added.twists, poses.empty() ? &poses : nullptr);
  added.speeds.assign(added.twists.size(), std::numeric_limits<double>::quiet_NaN());
  return added;
}

const std::vector<Robot::LinkTwist>& SampleTwists::twists(const Robot& robot, std::uint32_t segment, const Config& a,
                                                          const Config& b, const Config& q,
                                                          std::vector<Transform>& poses) {
  return entry(robot, segment, a, b, q, poses).twists;
}

double SampleTwists::speed(const Robot& robot, std::uint32_t segment, const Config& a, const Config& b, const Config& q,
                           std::vector<Transform>& poses, std::size_t link) {
  Entry& e = entry(robot, segment, a, b, q, poses);
  double& speed = e.speeds[link];
  if (std::isnan(speed)) speed = robot.linkSpeed(link, e.twists[link]);
  return speed;
}

namespace {
double speedAt(const MotionSegment& segment, std::size_t link, PieceEnd end) {
  return end.twists.speed(segment.robot, segment.index, segment.a, segment.b, end.q, end.poses, link);
}

/// The link's speed bound towards a plane of world normal `direction` (unit)
/// at `end`, moving along the segment (forward) or back (!forward).
double directionalSpeedAt(const MotionSegment& segment, std::size_t link, PieceEnd end,
                          const Eigen::Vector3d& direction, bool forward) {
  Robot::LinkTwist twist =
      end.twists.twists(segment.robot, segment.index, segment.a, segment.b, end.q, end.poses)[link];
  if (!forward) {
    twist.angular = -twist.angular;
    twist.linear = -twist.linear;
  }
  const Eigen::Vector3d local = end.poses[link].linear().transpose() * direction;
  return segment.robot.linkDirectionalSpeed(link, twist, local);
}
}  // namespace

double linkPieceBound(const MotionSegment& segment, std::size_t link, PieceEnd start, PieceEnd end, double width) {
  const double scaled = width * segment.motion.link[link];
  if (!segment.motion.hasAccelerations()) return scaled;
  return std::min(scaled, speedBoundedLength(speedAt(segment, link, start), speedAt(segment, link, end),
                                             segment.motion.acceleration[link], width));
}

double linkHalfReach(const MotionSegment& segment, std::size_t link, PieceEnd at, double width) {
  const double half = 0.5 * width;
  const double lever = half * segment.motion.link[link];
  if (!segment.motion.hasAccelerations()) return lever;
  return std::min(lever, speedAt(segment, link, at) * half + 0.5 * segment.motion.acceleration[link] * half * half);
}

bool directionalCertificate(const MotionSegment& segment, std::size_t link, PieceEnd start, PieceEnd end, double width,
                            const DistanceBound& a, const DistanceBound& b) {
  if (!segment.motion.hasAccelerations()) return false;
  const bool fromA = a.direction_gap > 0.0 && !a.direction.isZero();
  const bool fromB = b.direction_gap > 0.0 && !b.direction.isZero();
  if (!fromA && !fromB) return false;
  const double acceleration = segment.motion.acceleration[link];
  // Forward from a along a's normal (link towards obstacle), and backward
  // from b along b's: each covers the part of the piece over which its
  // link advances less than its gap (strictly, with a relative margin).
  double forwardStart = 0, forwardEnd = 0, backwardStart = 0, backwardEnd = 0;
  if (fromA) {
    const Eigen::Vector3d normal = a.direction.normalized();
    forwardStart = directionalSpeedAt(segment, link, start, normal, true);
    forwardEnd = directionalSpeedAt(segment, link, end, normal, true);
  }
  if (fromB) {
    const Eigen::Vector3d normal = b.direction.normalized();
    backwardStart = directionalSpeedAt(segment, link, start, normal, false);
    backwardEnd = directionalSpeedAt(segment, link, end, normal, false);
  }
  auto forwardCovers = [&](double to) {
    if (!(to > 0.0)) return true;
    return fromA &&
           directionalTravel(forwardStart, forwardEnd, acceleration, width, 0.0, to) * (1.0 + 1e-9) < a.direction_gap;
  };
  auto backwardCovers = [&](double from) {
    if (!(from < width)) return true;
    return fromB && directionalTravel(backwardStart, backwardEnd, acceleration, width, from, width) * (1.0 + 1e-9) <
                        b.direction_gap;
  };
  // The piece is free if some split point has its left part covered from a
  // and its right part from b; a few candidates serve.
  const double share = fromA && fromB ? a.direction_gap / (a.direction_gap + b.direction_gap) : 0.5;
  for (const double split : {width, 0.0, share * width, 0.5 * width})
    if (forwardCovers(split) && backwardCovers(split)) return true;
  return false;
}

}  // namespace prmkit
