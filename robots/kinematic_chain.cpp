#include "robots/kinematic_chain.h"

#include "base/largest_of.h"
#include "shapes/convex_hull.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace prmkit {

KinematicChain::KinematicChain(ChainDescription description) : description_(std::move(description)) {
  readJoints();
  for (auto& [frame, mesh] : description_.geometry) {
    links_.emplace_back(description_.frames.at(frame).name, mesh);
    linkFrames_.push_back(frame);
    for (const auto& [sphereFrame, spheres] : description_.spheres)
      if (sphereFrame == frame) links_.back().spheres = spheres;
  }
  computeMotionTerms();
  computeSpeedPoints();
  findSelfCollisionPairs();
}

void KinematicChain::readJoints() {
  const auto& frames = description_.frames;
  const auto& joints = description_.joints;
  if (frames.empty() || frames[0].joint != -1)
    throw std::invalid_argument("a chain needs a root frame without a joint");
  if (!withinCoordinateLimit(description_.base))
    throw std::invalid_argument(fmt::format("the chain's base pose must be finite and within {:g} m", kMaxCoordinate));
  for (const Joint& joint : joints)
    if (!withinCoordinateLimit(joint.origin) || !joint.axis.allFinite())
      throw std::invalid_argument(fmt::format("joint '{}' has an origin or axis that is not finite or beyond {:g} m",
                                              joint.name, kMaxCoordinate));
  jointCoordinate_.assign(joints.size(), -1);
  std::vector<double> lower, upper;
  for (std::size_t j = 0; j < joints.size(); ++j) {
    if (joints[j].type == JointType::Fixed) continue;
    jointCoordinate_[j] = static_cast<int>(coordinateNames_.size());
    coordinateNames_.push_back(joints[j].name);
    lower.push_back(joints[j].lower);
    upper.push_back(joints[j].upper);
  }
  setBounds(Eigen::Map<Eigen::VectorXd>(lower.data(), static_cast<Eigen::Index>(lower.size())),
            Eigen::Map<Eigen::VectorXd>(upper.data(), static_cast<Eigen::Index>(upper.size())));
  for (std::size_t f = 1; f < frames.size(); ++f) {
    const int j = frames[f].joint;
    if (j < 0 || j >= static_cast<int>(joints.size()) || joints[j].parent_frame < 0 ||
        joints[j].parent_frame >= static_cast<int>(f))
      throw std::invalid_argument(fmt::format("frame '{}' must hang from an earlier frame", frames[f].name));
  }
}

void KinematicChain::computeMotionTerms() {
  const auto& frames = description_.frames;
  const auto& joints = description_.joints;
  // Lever arms: walking from the link's frame towards the root, `reach` is an
  // upper bound (over all configurations) on the distance from the current
  // frame's origin to any point of the link, by the triangle inequality over
  // the joint offsets (plus the full travel of prismatic joints on the way).
  motionTerms_.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) {
    double reach = links_[i].radius;
    const std::vector<double> axisLevers = axisDistanceLevers(i);
    std::size_t revolute = 0;
    for (int f = linkFrames_[i]; f > 0;) {
      const Joint& joint = joints[frames[f].joint];
      const int c = jointCoordinate_[frames[f].joint];
      if (joint.type == JointType::Revolute)
        motionTerms_[i].push_back({c, f, std::min(reach, axisLevers[revolute++]), false});
      if (joint.type == JointType::Prismatic) {
        motionTerms_[i].push_back({c, f, 1.0, true});
        reach += std::max(std::abs(joint.lower), std::abs(joint.upper));
      }
      reach += joint.origin.translation().norm();
      f = joint.parent_frame;
    }
  }
}

void KinematicChain::computeSpeedPoints() {
  for (const Link& link : links_) {
    if (link.mesh.vertices.size() <= 64) {
      speedPoints_.push_back(link.mesh.vertices);
      continue;
    }
    std::vector<int> nodes{0};
    for (int level = 0; level < 3; ++level) {
      std::vector<int> next;
      for (int node : nodes) {
        const auto& bv = link.bvh->getBV(node);
        if (bv.isLeaf())
          next.push_back(node);
        else
          next.insert(next.end(), {bv.first_child, bv.first_child + 1});
      }
      nodes = std::move(next);
    }
    std::vector<Eigen::Vector3d> corners;
    for (int node : nodes) {
      const auto& box = link.bvh->getBV(node).bv.obb;
      for (int corner = 0; corner < 8; ++corner) {
        Eigen::Vector3d point = box.To;
        for (int k = 0; k < 3; ++k) point += ((corner >> k) & 1 ? 1.0 : -1.0) * box.extent[k] * box.axis.col(k);
        corners.push_back(point);
      }
    }
    speedPoints_.push_back(std::move(corners));
  }
  // A point's speed |v + w x p| is convex in p, and a directional speed
  // linear: both are largest at a vertex of the points' hull, so the other
  // points are dropped (about half of the 64 box corners of a Panda link;
  // qhull may leave a dropped point a few ulps outside, far below the 1e-12
  // relative margin every certificate keeps).
  for (auto& points : speedPoints_) {
    Mesh cloud;
    cloud.vertices = points;
    if (const auto hull = convexHullOf(cloud)) points = hull->vertices;
  }
  for (const auto& points : speedPoints_) {
    double reach = 0.0;
    for (const Eigen::Vector3d& x : points) reach = std::max(reach, x.norm());
    speedReach_.push_back(reach);
  }
}

void KinematicChain::findSelfCollisionPairs() {
  const auto& frames = description_.frames;
  const auto& joints = description_.joints;
  std::set<std::pair<std::string, std::string>> disabled;
  for (const auto& [a, b] : description_.disabled_pairs) {
    disabled.emplace(a, b);
    disabled.emplace(b, a);
  }
  auto parentOf = [&](int f) { return f == 0 ? -1 : joints[frames[f].joint].parent_frame; };
  for (std::size_t i = 0; i < links_.size(); ++i)
    for (std::size_t k = i + 1; k < links_.size(); ++k) {
      const int fi = linkFrames_[i], fk = linkFrames_[k];
      if (fi == fk || parentOf(fi) == fk || parentOf(fk) == fi) continue;
      if (disabled.count({frames[fi].name, frames[fk].name})) continue;
      selfCollisionPairs_.emplace_back(static_cast<int>(i), static_cast<int>(k));
    }
}

void KinematicChain::sampleUniform(Random& rng, Config& out) const {
  out.resize(static_cast<Eigen::Index>(configSize()));
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = rng.uniformReal(bounds_.lower[i], bounds_.upper[i]);
}

void KinematicChain::interpolate(const Config& a, const Config& b, double t, Config& out) const {
  out = a + t * (b - a);
}

double KinematicChain::distance(const Config& a, const Config& b) const { return (b - a).norm(); }

double KinematicChain::maxExtent() const { return (bounds_.upper - bounds_.lower).norm(); }

std::vector<double> KinematicChain::axisDistanceLevers(std::size_t link) const {
  // Every point of the link is followed from the link's frame towards the
  // root as a ball (centre, radius) that holds it in every configuration of
  // the joints passed so far: a single point at first; turning the ball about
  // a revolute axis keeps it within the axis distance of its centre plus its
  // radius of the axis, so it is replaced by the ball about the centre's foot
  // on the axis with that radius; a prismatic joint widens it by half its travel
  // (about the middle of the travel). A revolute joint moves the point at most
  // its distance from the axis per radian: at most the ball's axis distance plus
  // its radius. Where only fixed joints lie between the link and a joint, the
  // ball is the point itself and the lever is exact: a hand spinning about its
  // own wrist axis moves by its radius about that axis, not by its distance
  // from the joint's origin (the reach the caller also keeps, and takes where smaller).
  const auto& frames = description_.frames;
  const auto& joints = description_.joints;
  std::vector<double> levers;
  for (int f = linkFrames_[link]; f > 0; f = joints[frames[f].joint].parent_frame)
    if (joints[frames[f].joint].type == JointType::Revolute) levers.push_back(0.0);
  for (const Eigen::Vector3d& vertex : links_[link].mesh.vertices) {
    Eigen::Vector3d centre = vertex;
    double radius = 0.0;
    std::size_t revolute = 0;
    for (int f = linkFrames_[link]; f > 0;) {
      const Joint& joint = joints[frames[f].joint];
      const Eigen::Vector3d axis = joint.axis.normalized();
      if (joint.type == JointType::Revolute) {
        const Eigen::Vector3d foot = centre.dot(axis) * axis;
        const double fromAxis = (centre - foot).norm() + radius;
        // Rounding of the products above, relative to the point's magnitude.
        levers[revolute] = std::max(levers[revolute], fromAxis * (1.0 + 1e-12) + 1e-15 * centre.norm());
        ++revolute;
        centre = foot;
        radius = fromAxis;
      }
      if (joint.type == JointType::Prismatic) {
        centre += 0.5 * (joint.lower + joint.upper) * joint.axis;
        radius += 0.5 * (joint.upper - joint.lower) * joint.axis.norm();
      }
      centre = joint.origin * centre;
      f = joint.parent_frame;
    }
  }
  return levers;
}

void KinematicChain::framePoses(const Config& q, std::vector<Transform>& out) const {
  const auto& frames = description_.frames;
  out.resize(frames.size());
  out[0] = description_.base;
  for (std::size_t f = 1; f < frames.size(); ++f) {
    const Joint& joint = description_.joints[frames[f].joint];
    Transform motion = Transform::Identity();
    const int c = jointCoordinate_[frames[f].joint];
    if (joint.type == JointType::Revolute) motion = Eigen::AngleAxisd(q[c], joint.axis);
    if (joint.type == JointType::Prismatic) motion = Eigen::Translation3d(q[c] * joint.axis);
    out[f] = out[joint.parent_frame] * joint.origin * motion;
  }
}

void KinematicChain::linkPoses(const Config& q, std::vector<Transform>& out) const {
  thread_local std::vector<Transform> frames;  // scratch of this thread, kept between calls
  framePoses(q, frames);
  out.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) out[i] = frames[linkFrames_[i]];
}

void KinematicChain::edgeLevers(std::size_t link, const std::vector<Transform>& framesA,
                                const std::vector<Transform>& framesB, const Config& a, const Config& b,
                                std::vector<double>& levers) const {
  const auto& terms = motionTerms_[link];
  levers.resize(terms.size());
  const auto linkFrame = static_cast<std::size_t>(linkFrames_[link]);
  // How far the link's points can move relative to the frame of the joint
  // being looked at, from the joints below it (terms run from the link up).
  double below = 0.0;
  for (std::size_t n = 0; n < terms.size(); ++n) {
    const MotionTerm& term = terms[n];
    double lever = term.lever;
    if (!term.prismatic) {
      // A point's distance to the joint's axis is at most its distance to the
      // joint frame's origin: at most (origin to link frame) + link radius at
      // either end of the edge, plus what the joints below add on the way.
      const auto jointFrame = static_cast<std::size_t>(term.frame);
      const double atA = (framesA[linkFrame].translation() - framesA[jointFrame].translation()).norm();
      const double atB = (framesB[linkFrame].translation() - framesB[jointFrame].translation()).norm();
      lever = std::min(lever, std::min(atA, atB) + links_[link].radius + below);
    }
    levers[n] = lever;
    below += lever * std::abs(b[term.coordinate] - a[term.coordinate]);
  }
}

double KinematicChain::leverSum(std::size_t link, const std::vector<double>& levers, const Config& a, const Config& b,
                                const std::vector<MotionTerm>* other) const {
  // A joint's coordinate is in both term lists exactly when the joint is a common ancestor.
  auto shared = [&](int coordinate) {
    return other &&
           std::any_of(other->begin(), other->end(), [&](const MotionTerm& t) { return t.coordinate == coordinate; });
  };
  const auto& terms = motionTerms_[link];
  double bound = 0.0;
  for (std::size_t n = 0; n < terms.size(); ++n)
    if (!shared(terms[n].coordinate)) bound += levers[n] * std::abs(b[terms[n].coordinate] - a[terms[n].coordinate]);
  return bound;
}

void KinematicChain::motionBounds(const Config& a, const Config& b, std::vector<double>& links,
                                  std::vector<double>& selfPairs) const {
  std::vector<Transform> framesA, framesB;
  framePoses(a, framesA);
  framePoses(b, framesB);
  std::vector<std::vector<double>> levers(links_.size());
  links.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) {
    edgeLevers(i, framesA, framesB, a, b, levers[i]);
    links[i] = leverSum(i, levers[i], a, b);
  }
  selfPairs.resize(selfCollisionPairs_.size());
  for (std::size_t p = 0; p < selfCollisionPairs_.size(); ++p) {
    const auto i = static_cast<std::size_t>(selfCollisionPairs_[p].first);
    const auto k = static_cast<std::size_t>(selfCollisionPairs_[p].second);
    selfPairs[p] = leverSum(i, levers[i], a, b, &motionTerms_[k]) + leverSum(k, levers[k], a, b, &motionTerms_[i]);
  }
}

void KinematicChain::linkTwists(const Config& a, const Config& b, const Config& q, std::vector<LinkTwist>& out,
                                std::vector<Transform>* poses) const {
  // Scratch of this thread, kept between calls: a probe asks for twists at
  // every sample.
  thread_local std::vector<Transform> frames;
  thread_local std::vector<Eigen::Vector3d> angular, linear;
  framePoses(q, frames);
  if (poses) {
    poses->resize(links_.size());
    for (std::size_t i = 0; i < links_.size(); ++i) (*poses)[i] = frames[static_cast<std::size_t>(linkFrames_[i])];
  }
  const auto& joints = description_.joints;
  // World angular velocity of each frame and linear velocity of its origin.
  angular.assign(frames.size(), Eigen::Vector3d::Zero());
  linear.assign(frames.size(), Eigen::Vector3d::Zero());
  for (std::size_t f = 1; f < frames.size(); ++f) {
    const Joint& joint = joints[description_.frames[f].joint];
    const auto parent = static_cast<std::size_t>(joint.parent_frame);
    angular[f] = angular[parent];
    linear[f] = linear[parent] + angular[parent].cross(frames[f].translation() - frames[parent].translation());
    const int c = jointCoordinate_[description_.frames[f].joint];
    if (c < 0) continue;
    // A joint turns or slides about its own axis, so the axis is the same in the frame it moves.
    const Eigen::Vector3d axis = frames[f].linear() * joint.axis;
    const double rate = b[c] - a[c];
    if (joint.type == JointType::Revolute) angular[f] += rate * axis;
    if (joint.type == JointType::Prismatic) linear[f] += rate * axis;
  }
  out.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const auto f = static_cast<std::size_t>(linkFrames_[i]);
    const Eigen::Matrix3d toLink = frames[f].linear().transpose();
    out[i] = LinkTwist{toLink * angular[f], toLink * linear[f]};
  }
}

std::shared_ptr<Robot> KinematicChain::shrunkGeometry(double factor) const {
  ChainDescription d = description_;
  // Each frame's spheres shrink towards the centre its mesh shrinks towards.
  std::vector<std::pair<int, Eigen::Vector3d>> centres;
  for (auto& [frame, mesh] : d.geometry) {
    if (mesh.empty()) continue;
    const Eigen::Vector3d centre = mesh.bounds().center();
    centres.emplace_back(frame, centre);
    mesh = mesh.scaledAbout(centre, factor);
  }
  for (auto& [frame, spheres] : d.spheres) {
    Eigen::Vector3d centre = Eigen::Vector3d::Zero();
    for (const auto& [meshFrame, meshCentre] : centres)
      if (meshFrame == frame) centre = meshCentre;
    for (Sphere& sphere : spheres) {
      sphere.centre = centre + factor * (sphere.centre - centre);
      sphere.radius *= factor;
    }
  }
  return std::make_shared<KinematicChain>(std::move(d));
}

std::shared_ptr<Robot> KinematicChain::scaled(double factor) const {
  ChainDescription d = description_;
  d.base.translation() *= factor;
  for (Joint& joint : d.joints) {
    joint.origin.translation() *= factor;
    if (joint.type == JointType::Prismatic) {
      joint.lower *= factor;
      joint.upper *= factor;
    }
  }
  for (auto& [frame, mesh] : d.geometry) mesh = mesh.scaled(factor);
  for (auto& [frame, spheres] : d.spheres)
    for (Sphere& sphere : spheres) {
      sphere.centre *= factor;
      sphere.radius *= factor;
    }
  return std::make_shared<KinematicChain>(std::move(d));
}

void KinematicChain::scaleConfig(Config& q, double factor) const {
  for (std::size_t j = 0; j < description_.joints.size(); ++j)
    if (description_.joints[j].type == JointType::Prismatic && jointCoordinate_[j] >= 0)
      q[jointCoordinate_[j]] *= factor;
}

double KinematicChain::linkSpeed(std::size_t link, const LinkTwist& twist) const {
  return std::sqrt(largestOf(speedPoints_[link], 0.0, [&twist](const Eigen::Vector3d& x) {
    return (twist.linear + twist.angular.cross(x)).squaredNorm();
  }));
}

double KinematicChain::linkDirectionalSpeed(std::size_t link, const LinkTwist& twist,
                                            const Eigen::Vector3d& direction) const {
  // <u, v + w x p> = <u, v> + <p, u x w>: one dot product per point.
  const Eigen::Vector3d turn = direction.cross(twist.angular);
  const double largest = largestOf(speedPoints_[link], -std::numeric_limits<double>::infinity(),
                                   [&turn](const Eigen::Vector3d& x) { return x.dot(turn); });
  const double reach = speedReach_[link];
  // A margin relative to the speeds involved covers the rounding of the
  // twist, the cross product and the dot products.
  const double margin = 1e-12 * (twist.linear.norm() + twist.angular.norm() * reach);
  return direction.dot(twist.linear) + largest + margin;
}

void KinematicChain::linkAccelerationBounds(const Config& a, const Config& b, std::vector<double>& out) const {
  std::vector<Transform> framesA, framesB;
  framePoses(a, framesA);
  framePoses(b, framesB);
  std::vector<double> levers;
  out.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) {
    edgeLevers(i, framesA, framesB, a, b, levers);
    const auto& terms = motionTerms_[i];
    // Terms run from the link towards the root. `turnAbove`: sum of |dq| of
    // the revolute joints above term n (bounds how fast its axis turns);
    // `moveBelow`: how fast the link's points move relative to joint n's
    // frame from joint n and the joints below it.
    std::vector<double> turnAbove(terms.size(), 0.0);
    for (std::size_t n = terms.size(); n-- > 1;)
      turnAbove[n - 1] =
          turnAbove[n] + (terms[n].prismatic ? 0.0 : std::abs(b[terms[n].coordinate] - a[terms[n].coordinate]));
    double moveBelow = 0.0, acceleration = 0.0;
    for (std::size_t n = 0; n < terms.size(); ++n) {
      const double rate = std::abs(b[terms[n].coordinate] - a[terms[n].coordinate]);
      moveBelow += levers[n] * rate;
      // Revolute: d/dt [u x (p - o)] = u' x (p - o) + u x (p' - o'), with
      // |u'| <= turnAbove, |p - o| <= lever, |p' - o'| <= turnAbove lever + moveBelow.
      // Prismatic: d/dt u = u', |u'| <= turnAbove.
      acceleration += rate * (terms[n].prismatic ? turnAbove[n] : 2.0 * turnAbove[n] * levers[n] + moveBelow);
    }
    out[i] = acceleration;
  }
}

double KinematicChain::relativeMotionBound(std::size_t i, std::size_t k, const Config& a, const Config& b) const {
  std::vector<Transform> framesA, framesB;
  framePoses(a, framesA);
  framePoses(b, framesB);
  std::vector<double> leversI, leversK;
  edgeLevers(i, framesA, framesB, a, b, leversI);
  edgeLevers(k, framesA, framesB, a, b, leversK);
  return leverSum(i, leversI, a, b, &motionTerms_[k]) + leverSum(k, leversK, a, b, &motionTerms_[i]);
}

double KinematicChain::motionBound(std::size_t link, const Config& a, const Config& b) const {
  std::vector<Transform> framesA, framesB;
  framePoses(a, framesA);
  framePoses(b, framesB);
  std::vector<double> levers;
  edgeLevers(link, framesA, framesB, a, b, levers);
  return leverSum(link, levers, a, b);
}

}  // namespace prmkit
