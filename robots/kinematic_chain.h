#pragma once
// Kinematic trees of revolute and prismatic joints on a fixed base: the
// planar chain and URDF arms are both built as one of these, so they share
// forward kinematics and the motion bound.
#include "robots/robot.h"

namespace prmkit {

enum class JointType { Revolute, Prismatic, Fixed };

struct Joint {
  std::string name;
  JointType type = JointType::Fixed;
  int parent_frame = -1;                     // frame the joint hangs from
  Transform origin = Transform::Identity();  // joint frame in the parent frame at q = 0
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  double lower = 0.0, upper = 0.0;  // limits (rad or m)
};

/// A frame (URDF link) is moved by exactly one joint, except the root frame 0.
struct Frame {
  std::string name;
  int joint = -1;  // index into joints, -1 for the root
};

struct ChainDescription {
  std::string kind;
  bool planar = false;
  Transform base = Transform::Identity();
  std::vector<Frame> frames;  // parents before children; frames[0] is the root
  std::vector<Joint> joints;
  /// Collision geometry per frame (in that frame); frames without geometry are skipped.
  std::vector<std::pair<int, Mesh>> geometry;
  /// Pairs of frame names never checked against each other (e.g. an SRDF's disable_collisions).
  std::vector<std::pair<std::string, std::string>> disabled_pairs;
  /// Spheres per frame (in that frame) that stand for its link (Link::spheres).
  std::vector<std::pair<int, std::vector<Sphere>>> spheres;
};

class KinematicChain final : public Robot {
 public:
  /// Throws std::invalid_argument on an inconsistent description.
  explicit KinematicChain(ChainDescription description);
  std::string kind() const override { return description_.kind; }
  std::size_t dof() const override { return configSize(); }
  bool planar() const override { return description_.planar; }
  void sampleUniform(Random& rng, Config& out) const override;
  void interpolate(const Config& a, const Config& b, double t, Config& out) const override;
  double distance(const Config& a, const Config& b) const override;
  bool euclideanMetric() const override { return true; }
  double maxExtent() const override;
  void linkPoses(const Config& q, std::vector<Transform>& out) const override;
  /// l_i = sum over joints j moving link i of r_ji |dq_j| (revolute: r_ji bounds
  /// the distance from joint j's axis to any point of link i along the edge)
  /// or |dq_j| (prismatic), as in SSL 2005, Sec. 3; r_ji is the smaller of
  /// the all-configuration reach and the distance at either end of the edge
  /// plus what the joints between j and i can add.
  double motionBound(std::size_t link, const Config& a, const Config& b) const override;
  std::shared_ptr<Robot> scaled(double factor) const override;
  void scaleConfig(Config& q, double factor) const override;
  /// Seen from the deepest frame the two links share, the joints above it move
  /// both rigidly together: only the joints on the two branches below count.
  double relativeMotionBound(std::size_t i, std::size_t k, const Config& a, const Config& b) const override;
  void motionBounds(const Config& a, const Config& b, std::vector<double>& links,
                    std::vector<double>& selfPairs) const override;

  bool hasSpeedBounds() const override { return true; }
  /// Each frame's twist at q for the joint velocity b - a (linear
  /// interpolation), then the largest |v + omega x x| over points whose hull
  /// holds the link (x -> |v + omega x x| is convex, so its maximum over the
  /// link is at most its maximum over those points).
  void linkTwists(const Config& a, const Config& b, const Config& q, std::vector<LinkTwist>& out,
                  std::vector<Transform>* poses) const override;
  double linkSpeed(std::size_t link, const LinkTwist& twist) const override;
  double linkDirectionalSpeed(std::size_t link, const LinkTwist& twist,
                              const Eigen::Vector3d& direction) const override;
  /// Differentiating p' = sum_j dq_j u_j x (p - o_j): an axis turns with the
  /// joints above it (|u_j'| <= sum of their |dq|), and p moves relative to
  /// o_j by at most what the joints above turn it plus the joints below move
  /// it; the edge levers bound |p - o_j|.
  void linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const override;

  /// Poses of every frame (not only collision links), for pictures and tests.
  void framePoses(const Config& q, std::vector<Transform>& out) const;
  const ChainDescription& description() const { return description_; }

 private:
  std::shared_ptr<Robot> shrunkGeometry(double factor) const override;
  /// The constructor's steps, in order.
  /// Checks the frames and joints; the coordinates and their bounds.
  void readJoints();
  void computeMotionTerms();
  void computeSpeedPoints();
  /// Every pair of links except links on one frame, on frames joined by one joint, and the disabled pairs.
  void findSelfCollisionPairs();

  ChainDescription description_;
  std::vector<int> jointCoordinate_;  // per joint, index in the configuration or -1
  std::vector<int> linkFrames_;       // frame index of each collision link
  /// Per link, for each joint that moves it (from the link towards the root):
  /// its coordinate, the frame it moves (whose origin is on its axis), and a
  /// lever valid in every configuration (1 for prismatic joints).
  struct MotionTerm {
    int coordinate;
    int frame;
    double lever;
    bool prismatic;
  };
  std::vector<std::vector<MotionTerm>> motionTerms_;
  /// Per link, points whose convex hull holds the link's mesh (link frame):
  /// its vertices if it has at most 64, else the corners of the (at most 8)
  /// OBBs three levels down its BVH. The largest speed over them bounds the link's.
  std::vector<std::vector<Eigen::Vector3d>> speedPoints_;
  std::vector<double> speedReach_;  // per link: the largest |p| over its speed points (m)

  /// Levers of the link's terms valid along the edge a -> b: the static lever,
  /// tightened by the actual distance to the joint at either end.
  /// Per revolute joint from the link towards the root, an upper bound (over
  /// all configurations) on the distance of the link's points from the
  /// joint's axis: how far they move per radian of that joint.
  std::vector<double> axisDistanceLevers(std::size_t link) const;
  void edgeLevers(std::size_t link, const std::vector<Transform>& framesA, const std::vector<Transform>& framesB,
                  const Config& a, const Config& b, std::vector<double>& levers) const;
  /// sum lever |dq| over a link's terms, optionally skipping the joints it shares with `other`.
  double leverSum(std::size_t link, const std::vector<double>& levers, const Config& a, const Config& b,
                  const std::vector<MotionTerm>* other = nullptr) const;
};

}  // namespace prmkit
