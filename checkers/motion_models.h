#pragma once
// The motion models the exact strategies bound how far a link travels over a
// piece of an edge with (Schwarzer, Saha & Latombe, IEEE T-RO 2005, Sec. 3,
// and the refinements below): the lever bound over a whole segment, the
// tent that speed bounds at a piece's ends and an acceleration bound allow,
// and the advance along a separating direction. `adaptive` asks them of its
// bisection samples, `swept` of its pieces.
#include "geometry/bvh_distance.h"
#include "robots/robot.h"

#include <cstdint>
#include <vector>

namespace prmkit {

/// One segment's bounds over its whole length: l_i per link and l_i + l_j per
/// self pair (Robot::motionBounds, the lever bound of SSL 2005, Sec. 3), and
/// per link the acceleration bound (Robot::linkAccelerationBounds: how fast a
/// point's speed may change per unit of parameter) when asked for.
struct SegmentMotion {
  std::vector<double> link, self;
  std::vector<double> acceleration;  // empty: not asked for, or the robot has none

  void compute(const Robot& robot, const Config& a, const Config& b, bool accelerations);
  bool hasAccelerations() const { return !acceleration.empty(); }
};

/// The links' twists at one configuration along each segment through it,
/// each computed once (with the configuration's link poses, from the same
/// pass over the frames), and their speed bounds as they are asked for: a
/// bisection sample usually needs one link's of many.
class SampleTwists {
 public:
  /// Forgets the twists (the entries keep their storage for the next sample).
  void clear() { used_ = 0; }
  /// Every link's twist at q, moving from a to b along segment `segment`;
  /// fills `poses` (the link poses at q) when they are empty.
  const std::vector<Robot::LinkTwist>& twists(const Robot& robot, std::uint32_t segment, const Config& a,
                                              const Config& b, const Config& q, std::vector<Transform>& poses);
  /// The link's speed bound there (Robot::linkSpeed).
  double speed(const Robot& robot, std::uint32_t segment, const Config& a, const Config& b, const Config& q,
               std::vector<Transform>& poses, std::size_t link);

 private:
  struct Entry {
    std::uint32_t segment;
    std::vector<Robot::LinkTwist> twists;
    std::vector<double> speeds;  // NaN: not computed yet
  };
  Entry& entry(const Robot& robot, std::uint32_t segment, const Config& a, const Config& b, const Config& q,
               std::vector<Transform>& poses);
  std::vector<Entry> entries_;  // the first used_ are this sample's
  std::size_t used_ = 0;
};

/// A segment of a path as the motion models see it.
struct MotionSegment {
  const Robot& robot;
  std::uint32_t index;  // the segment's number in its path (SampleTwists keys on it)
  const Config& a;
  const Config& b;
  const SegmentMotion& motion;
};

/// One end of a piece of a segment: its configuration, link poses and twists.
struct PieceEnd {
  const Config& q;
  std::vector<Transform>& poses;
  SampleTwists& twists;
};

/// How far any point of `link` may travel over a piece of parameter width
/// `width` between `start` and `end`: the segment's lever bound scaled to the
/// piece, or, with acceleration bounds, the tent the speeds at the piece's
/// ends allow (speedBoundedLength), if smaller.
double linkPieceBound(const MotionSegment& segment, std::size_t link, PieceEnd start, PieceEnd end, double width);

/// How far any point of `link` may travel from a sample over half of `width`
/// (one side of linkPieceBound's tent): the lever bound's share, or its speed
/// there and the acceleration bound, if smaller.
double linkHalfReach(const MotionSegment& segment, std::size_t link, PieceEnd at, double width);

/// A link-obstacle piece certified free by directional motion bounds
/// (conservative advancement along a separating direction, after Zhang, Kim,
/// Varadhan and Manocha, "Continuous collision detection for articulated
/// models using Taylor models and temporal culling", and "Interactive
/// continuous collision detection for non-convex polyhedra", 2006-2007): the
/// plane between the link's hull and the obstacle's at an end of the piece,
/// found by the distance query there (`a` at the start, `b` at the end), is
/// crossed only if the link advances along its normal by the gap; a link
/// sliding along a shelf board advances little though it travels far, where
/// SSL's bound (any direction) forces many splits. Needs acceleration bounds
/// and the distance queries' directions; false without them.
bool directionalCertificate(const MotionSegment& segment, std::size_t link, PieceEnd start, PieceEnd end, double width,
                            const DistanceBound& a, const DistanceBound& b);

}  // namespace prmkit
