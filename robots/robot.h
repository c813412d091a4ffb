#pragma once
// A robot is a configuration space plus rigid collision links.
#include "shapes/convex_hull.h"
#include "shapes/mesh.h"
#include "shapes/sphere_set.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <fcl/narrowphase/collision_object.h>
#include "base/random.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

using Config = Eigen::VectorXd;

/// A quaternion read from outside whose norm is within this of 1 is
/// normalised (six printed digits lose about 1e-6); farther, it is refused:
/// a norm of 2 is not a rotation someone meant.
inline constexpr double kQuaternionNormTolerance = 1e-3;
/// How far from 1 the norm of a canonical quaternion may be (interpolation
/// and sampling round off about 1e-16).
inline constexpr double kCanonicalNormTolerance = 1e-9;

/// The unit quaternion of (x, y, z, w) read from outside: normalised when its
/// norm is within kQuaternionNormTolerance of 1; throws std::invalid_argument
/// (what is wrong) when it is zero or farther from unit norm.
Eigen::Quaterniond unitQuaternion(const Eigen::Vector4d& xyzw);

/// A rigid collision body of a robot, with its mesh in the link's own frame.
struct Link {
  std::string name;
  Mesh mesh;
  std::shared_ptr<BvhModel> bvh;
  ConvexCover cover;  // convex pieces containing the mesh (empty for a flat mesh)
  SolidInfo solid;
  double radius = 0.0;  // largest distance from the link frame's origin to the mesh
  /// An FCL collision object of `bvh`, made with the link, that checkers copy
  /// for their own: FCL's constructor recomputes the geometry's local bounds
  /// in place (its radius passes through 0 and its square), so making one on
  /// the shared BVH while another thread's checker reads those bounds gave
  /// that checker a link box of radius 0, which meets no obstacle.
  std::shared_ptr<const fcl::CollisionObjectd> object;
  /// Spheres (link frame) that stand for the link in the `spheres` strategy,
  /// as a spherized URDF gives them (approximate: they need not contain the
  /// mesh); empty when none were given (that strategy then fits its own).
  std::vector<Sphere> spheres;

  Link(std::string name, Mesh mesh);
};

/// Bounds of the bounded coordinates: translation for rigid bodies, joints for chains.
struct CoordinateBounds {
  Eigen::VectorXd lower, upper;
};

class Robot {
 public:
  virtual ~Robot() = default;

  /// "rigid2d", "rigid3d", "planar_chain" or "urdf".
  virtual std::string kind() const = 0;
  /// Degrees of freedom (6 for SE(3), whose configuration has 7 numbers).
  virtual std::size_t dof() const = 0;
  std::size_t configSize() const { return coordinateNames_.size(); }
  /// One name per number of a configuration (the header of path files).
  const std::vector<std::string>& coordinateNames() const { return coordinateNames_; }
  const CoordinateBounds& bounds() const { return bounds_; }
  /// True when the robot moves in the xy plane (pictures are drawn from above).
  virtual bool planar() const = 0;
  /// The bounded coordinates are the body's position in the world (m), as
  /// for a free-flying body, rather than joint values: the bounds are part of
  /// the scene's extent.
  virtual bool boundsArePositions() const { return false; }
  /// The configuration that places a free-flying body in SE(3) at `pose`;
  /// nullopt for robots whose configurations are not poses.
  virtual std::optional<Config> configAtPose(const Transform& pose) const {
    (void)pose;
    return std::nullopt;
  }

  /// Puts a configuration that comes from outside (a file, the command line,
  /// another library) in the canonical form every pose and motion bound is
  /// computed from: unit quaternions, angles in [-pi, pi). The one function
  /// every reader calls, so that a motion bound can never see a different
  /// rotation than the poses do. Throws std::invalid_argument (what is wrong)
  /// for a configuration of the wrong size, a non-finite number, a zero
  /// quaternion, or one whose norm is farther than kQuaternionNormTolerance from 1.
  void canonicalize(Config& q) const;
  /// The canonical configuration nearest a computed one (a step taken in
  /// coordinates leaves a quaternion off the unit sphere): the quaternion
  /// divided by its norm, whatever it is, then canonicalize. For the
  /// planner's own arithmetic, never for input. Throws std::invalid_argument
  /// for a wrong size, a non-finite number or a zero quaternion.
  void normalize(Config& q) const;
  /// The configuration is in canonical form, as checkers require (a unit
  /// quaternion to within kCanonicalNormTolerance).
  virtual bool canonical(const Config& q) const {
    (void)q;
    return true;
  }
  /// Finite, right size, within bounds.
  bool inBounds(const Config& q) const;
  virtual void sampleUniform(Random& rng, Config& out) const = 0;

  /// The one interpolation every checker uses: linear in R^n, slerp on rotations.
  virtual void interpolate(const Config& a, const Config& b, double t, Config& out) const = 0;
  /// C-space metric, the same as OMPL's for the matching state space.
  virtual double distance(const Config& a, const Config& b) const = 0;
  /// `distance` on two arrays of configSize() coordinates, for structures that
  /// keep configurations in flat arrays (the nearest-neighbour k-d tree: a
  /// Config of its own per vertex would cost a cache miss per evaluation).
  virtual double coordinateDistance(const double* a, const double* b) const;
  /// `distance` is the Euclidean norm of the coordinates' difference, so
  /// nearest neighbours can come from a k-d tree.
  virtual bool euclideanMetric() const { return false; }
  /// Coordinates in a Euclidean space that never overestimate the metric:
  /// the distances between embed(a, 0) and embed(b, w), part by part
  /// (`embeddingParts`), sum to at most distance(a, b) for some variant w
  /// (configurations the metric identifies, as SE(3)'s q and -q, have one
  /// variant each, and every variant of b is that close to a only if b is);
  /// so does the Euclidean distance, which is at most that sum.
  /// A k-d tree over variant 0 then finds exact nearest neighbours under a
  /// metric it cannot prune on: candidates by the embedding, then the metric.
  /// 0: no embedding.
  virtual std::size_t embeddingDimension() const { return 0; }
  virtual std::size_t embeddingVariants() const { return 1; }
  /// The sizes of the embedding's consecutive parts (rigid bodies: translation, rotation).
  virtual std::vector<std::size_t> embeddingParts() const { return {embeddingDimension()}; }
  virtual void embed(const Config& /*q*/, std::size_t /*variant*/, double* /*out*/) const {}
  /// Largest distance of the space (OMPL's getMaximumExtent), the unit of C-space resolutions.
  virtual double maxExtent() const = 0;
  /// How many steps of `resolution` (a fraction of the extent) the edge a -> b
  /// needs, each group of coordinates measured against its own extent, so
  /// that no group is undersampled at any scale (on a free flyer 1 km across,
  /// a 4 mrad turn is a negligible part of distance / maxExtent). Default:
  /// distance / (resolution maxExtent).
  virtual double resolutionSteps(const Config& a, const Config& b, double resolution) const {
    return distance(a, b) / (resolution * maxExtent());
  }

  /// The same robot in a world whose lengths are all multiplied by `factor`
  /// (> 0): geometry, joint origins, the bounds of translations and of
  /// prismatic joints; angles are unchanged (a problem's `scale`).
  virtual std::shared_ptr<Robot> scaled(double factor) const = 0;
  /// Multiplies the coordinates of q that are lengths (translations, prismatic joints) by `factor`.
  virtual void scaleConfig(Config& q, double factor) const = 0;
  /// The same robot with each link's geometry (and its spheres) shrunk by
  /// `factor` (in (0, 1]) towards the centre of the link's bounding box:
  /// joints, bounds, configurations and self-collision pairs unchanged.
  /// Iterative relaxation's easier problem (Bayazit, Xie & Amato 2005):
  /// most gaps the robot passes are wider for it.
  std::shared_ptr<Robot> shrunk(double factor) const;

  const std::vector<Link>& links() const { return links_; }
  virtual void linkPoses(const Config& q, std::vector<Transform>& out) const = 0;
  /// Upper bound on the length of the path of any point of `link` along the
  /// interpolated edge a -> b (Schwarzer, Saha, Latombe 2005, Sec. 3). It bounds the
  /// speed along the whole edge, so (t1 - t0) times the edge's bound is a
  /// bound for the piece [t0, t1] (checkers rely on this).
  virtual double motionBound(std::size_t link, const Config& a, const Config& b) const = 0;
  /// Upper bound on the length of the path of any point of link k seen from
  /// link i's frame (so on how much their distance can change) along a -> b.
  /// Default: motionBound(i) + motionBound(k), valid for any two moving bodies.
  virtual double relativeMotionBound(std::size_t i, std::size_t k, const Config& a, const Config& b) const;
  /// motionBound of every link and relativeMotionBound of every
  /// self-collision pair (in selfCollisionPairs order) along a -> b, computed
  /// together so that shared work (forward kinematics) is done once.
  virtual void motionBounds(const Config& a, const Config& b, std::vector<double>& links,
                            std::vector<double>& selfPairs) const;
  /// Largest motionBound over all links.
  double maxMotionBound(const Config& a, const Config& b) const;

  /// First- and second-order bounds, much tighter than motionBound on short
  /// pieces of an edge (motionBound sums every joint's worst case; these
  /// follow the actual velocity): along the edge a -> b, parameter t in
  /// [0, 1], linkSpeeds bounds |dp/dt| of every point p of each link at the
  /// edge's configuration q, and linkAccelerationBounds bounds |d2p/dt2|
  /// anywhere on the edge. Robots that have them say so in hasSpeedBounds;
  /// the others throw std::logic_error.
  virtual bool hasSpeedBounds() const { return false; }
  /// Every link's speed bound at q (linkTwists, then linkSpeed per link).
  void linkSpeeds(const Config& a, const Config& b, const Config& q, std::vector<double>& out) const;
  /// The velocity of each link's frame at q along the edge (per unit of edge
  /// parameter), in the link's own frame: the shared part of the speed
  /// bounds, one forward-kinematics pass for all links. With `poses`, also
  /// the link poses at q (linkPoses) from that same pass.
  struct LinkTwist {
    Eigen::Vector3d angular = Eigen::Vector3d::Zero();
    Eigen::Vector3d linear = Eigen::Vector3d::Zero();  // of the frame's origin
  };
  virtual void linkTwists(const Config& a, const Config& b, const Config& q, std::vector<LinkTwist>& out,
                          std::vector<Transform>* poses) const;
  /// The link's speed bound for its twist: max |v + w x p| over points p
  /// whose hull contains the link. Checkers that need few links call this
  /// per link instead of linkSpeeds.
  virtual double linkSpeed(std::size_t link, const LinkTwist& twist) const;
  /// The link's speed bound along one direction: max <u, v + w x p> over
  /// points p whose hull contains the link, for a unit direction u in the
  /// link's own frame; how fast the link can approach a plane of normal u.
  /// It can be negative (the whole link moves away). Within a small margin
  /// above the exact value, for rounding.
  virtual double linkDirectionalSpeed(std::size_t link, const LinkTwist& twist, const Eigen::Vector3d& direction) const;
  virtual void linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const;
  /// linkAccelerationBounds is available (all robots with speed bounds, and
  /// rigid bodies, whose points accelerate only by turning). A piece of the
  /// edge of width w keeps every point within A w^2 / 8 of the straight
  /// segment between its positions at the piece's ends (the interpolation
  /// error of a C2 curve), which is what swept convex hulls are grown by.
  virtual bool hasAccelerationBounds() const { return hasSpeedBounds(); }

  const std::vector<std::pair<int, int>>& selfCollisionPairs() const { return selfCollisionPairs_; }
  /// A copy of this robot whose self-collision pairs are those of `keep`
  /// that are its own, in its order (a checker that leaves the other pairs
  /// to another strategy).
  std::shared_ptr<Robot> withSelfCollisionPairs(const std::vector<std::pair<int, int>>& keep) const;

 protected:
  /// Sets the configuration bounds; std::invalid_argument unless every
  /// bound is finite, within kMaxCoordinate and lower < upper.
  void setBounds(Eigen::VectorXd lower, Eigen::VectorXd upper);
  /// The robot-specific part of canonicalize; q has the right size and is finite.
  virtual void doCanonicalize(Config& q) const { (void)q; }
  /// normalize's scaling of the robot's quaternions before canonicalize (none by default).
  virtual void scaleQuaternionsToUnit(Config& q) const { (void)q; }

  std::vector<std::string> coordinateNames_;
  CoordinateBounds bounds_;
  std::vector<Link> links_;
  std::vector<std::pair<int, int>> selfCollisionPairs_;

 private:
  /// shrunk's robot before its self-collision pairs are set.
  virtual std::shared_ptr<Robot> shrunkGeometry(double factor) const = 0;
};

/// Upper bound on the path length of a point over a parameter interval of
/// `width` whose speed is at most `speedStart` and `speedEnd` at the two ends
/// and changes by at most `acceleration` per unit of parameter: the integral
/// of min(speedStart + acceleration s, speedEnd + acceleration (width - s)).
double speedBoundedLength(double speedStart, double speedEnd, double acceleration, double width);

/// The same for a signed speed along a direction: over a parameter interval
/// [0, width] whose directional speed is at most `speedStart` and `speedEnd`
/// at the two ends and changes by at most `acceleration` per unit of
/// parameter, an upper bound on how far any point advances along the
/// direction between `from` and `to` (0 <= from <= to <= width): the integral
/// of max(0, min(speedStart + acceleration s, speedEnd + acceleration (width - s))).
double directionalTravel(double speedStart, double speedEnd, double acceleration, double width, double from, double to);

}  // namespace prmkit
