#include "checkers/sphere_kernel.h"

#include "checkers/checker.h"
#include "robots/kinematic_chain.h"

#include <xsimd/xsimd.hpp>

#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <tuple>

namespace prmkit {

namespace {

/// kSphereLanes floats as the registers of the instruction set compiled for
/// hold them (one AVX2 register; two SSE2 or NEON ones).
using Native = xsimd::batch<float>;
inline constexpr std::size_t kParts = kSphereLanes / Native::size;
static_assert(kSphereLanes % Native::size == 0);

struct B {
  std::array<Native, kParts> v;
  B() = default;
  B(float x) { v.fill(Native(x)); }  // NOLINT: a constant on every lane
  static B load(const float* values) {
    B b;
    for (std::size_t i = 0; i < kParts; ++i) b.v[i] = Native::load_unaligned(values + i * Native::size);
    return b;
  }
  void store(float* values) const {
    for (std::size_t i = 0; i < kParts; ++i) v[i].store_unaligned(values + i * Native::size);
  }
  B& operator+=(const B& o) {
    for (std::size_t i = 0; i < kParts; ++i) v[i] += o.v[i];
    return *this;
  }
};
template <class F>
B lanewise(const B& a, const B& b, F f) {
  B out;
  for (std::size_t i = 0; i < kParts; ++i) out.v[i] = f(a.v[i], b.v[i]);
  return out;
}
B operator+(const B& a, const B& b) {
  return lanewise(a, b, [](Native x, Native y) { return x + y; });
}
B operator-(const B& a, const B& b) {
  return lanewise(a, b, [](Native x, Native y) { return x - y; });
}
B operator*(const B& a, const B& b) {
  return lanewise(a, b, [](Native x, Native y) { return x * y; });
}
B max(const B& a, const B& b) {
  return lanewise(a, b, [](Native x, Native y) { return xsimd::max(x, y); });
}
B abs(const B& a) {
  return lanewise(a, a, [](Native x, Native) { return xsimd::abs(x); });
}
B sqrt(const B& a) {
  return lanewise(a, a, [](Native x, Native) { return xsimd::sqrt(x); });
}
std::pair<B, B> sincos(const B& a) {
  std::pair<B, B> out;
  for (std::size_t i = 0; i < kParts; ++i) std::tie(out.first.v[i], out.second.v[i]) = xsimd::sincos(a.v[i]);
  return out;
}
/// The lanes where a <= b, a bit each.
LaneMask atMost(const B& a, const B& b) {
  LaneMask mask = 0;
  for (std::size_t i = 0; i < kParts; ++i) {
    const auto hits = a.v[i] <= b.v[i];
    // One instruction where the instruction set has it (this xsimd has no
    // batch_bool::mask): the comparison's sign bits, a bit per lane.
#if XSIMD_WITH_AVX
    static_assert(Native::size == 8);
    mask |= static_cast<LaneMask>(_mm256_movemask_ps(hits)) << (i * Native::size);
    continue;
#elif XSIMD_WITH_SSE2
    static_assert(Native::size == 4);
    mask |= static_cast<LaneMask>(_mm_movemask_ps(hits)) << (i * Native::size);
    continue;
#endif
    if (!xsimd::any(hits)) continue;
    alignas(64) std::array<bool, Native::size> lanes{};
    hits.store_aligned(lanes.data());
    for (std::size_t j = 0; j < Native::size; ++j)
      if (lanes[j]) mask |= LaneMask{1} << (i * Native::size + j);
  }
  return mask;
}

constexpr LaneMask kAllLanes = kSphereLanes == 32 ? ~LaneMask{0} : (LaneMask{1} << kSphereLanes) - 1;

void toFloats(const Eigen::Vector3d& v, float* out) {
  for (int i = 0; i < 3; ++i) out[i] = static_cast<float>(v[i]);
}

}  // namespace

struct SphereKernel::Impl {
  Impl(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
       const std::vector<std::vector<Sphere>>& spheres, const SphereKernelOptions& options);
  struct LinkSpheres {
    std::vector<float> x, y, z, r;                 // link frame
    float bx = 0, by = 0, bz = 0, br = 0;          // the sphere around them
    bool closed = false;                           // the link's mesh bounds a solid (SphereKernelOptions::solid_links)
    std::vector<std::array<float, 3>> components;  // a point of each of its components, link frame
  };
  struct LanePose {
    std::array<B, 9> r;  // row-major rotation
    std::array<B, 3> t;
  };
  struct Point {
    B x, y, z;
  };
  struct Box {
    float c[3], axes[9], h[3];
    float around = 0;  // the radius of the sphere around it (centre c)
  };
  struct Ball {
    float c[3], r;
  };
  struct Cylinder {
    float c[3], axis[3], radius, half_length;
    float around = 0;  // the radius of the sphere around it (centre c)
  };
  struct MeshBody {
    std::size_t obstacle;
    Box bounds;  // its world bounds (axis-aligned), grown by the margin
  };

  /// A chain's frame, in single precision: its joint's origin in its parent
  /// frame and its unit axis, made once.
  struct FrameStep {
    int parent = -1, coordinate = -1;
    JointType type = JointType::Fixed;
    float r[9] = {}, t[3] = {}, u[3] = {};
    /// A revolute joint's origin rotation R times Rodrigues' terms for its
    /// unit axis u (K = [u]x): R K and R K^2, so that the joint's rotation
    /// from its parent frame is R + sin(q) R K + (1 - cos(q)) R K^2.
    float rk[9] = {}, rk2[9] = {};
    bool needed = false;  // a link's frame, or above one
  };

  LaneMask collidingLanes(const std::array<const Config*, kSphereLanes>& configs, bool firstHit, CheckStats& stats);
  void forwardKinematics(const std::array<const Config*, kSphereLanes>& configs);
  Point place(std::size_t link, float x, float y, float z) const;
  /// The link's spheres' centres in the world, placed once per call.
  const std::vector<Point>& worldSpheres(std::size_t link);
  /// Lanes where one of the link's spheres meets an obstacle, where the
  /// sphere around them (centre p, radius r) reaches it first.
  LaneMask obstacleHits(const Point& p, const B& r, std::size_t link, LaneMask active, bool firstHit,
                        CheckStats& stats);
  LaneMask meshHits(const MeshBody& body, std::size_t link, std::size_t sphere, LaneMask lanes);
  LaneMask selfHits(LaneMask active, bool firstHit, CheckStats& stats);
  /// Lanes where a point (link frame of `link`, or world when `link` < 0)
  /// lies within the sphere (centre p, radius r) around a closed link's spheres.
  LaneMask pointsWithin(const std::vector<std::array<float, 3>>& points, int link, const Point& p, const B& r) const;

  std::shared_ptr<const Robot> robot_;
  std::shared_ptr<const Scene> scene_;
  const KinematicChain* chain_ = nullptr;  // vectorised kinematics; else Robot::linkPoses per lane
  std::vector<FrameStep> steps_;           // of a chain, per frame (the root's is its base)
  FrameStep base_;
  std::vector<LinkSpheres> links_;
  std::vector<Box> boxes_;
  std::vector<Ball> balls_;
  std::vector<Cylinder> cylinders_;
  std::vector<MeshBody> meshes_;
  std::vector<std::pair<int, int>> selfPairs_;
  std::vector<std::size_t> selfPairIndex_;  // each one's index in the robot's self pairs
  std::vector<float> growth_;               // per link (setGrowth), 0 by default
  std::vector<float> selfGrowth_;           // per pair of selfPairs_ (setGrowth), 0 by default
  bool solidLinks_ = false;
  std::vector<std::array<float, 3>> obstaclePoints_;  // world: a point of each obstacle's components
  // Per call
  std::vector<LanePose> poses_;             // per link, of robots other than chains
  std::vector<const LanePose*> linkPoses_;  // per link: its frame's pose (a chain's) or poses_[link]
  std::vector<LanePose> framePoses_;        // per frame of a chain
  std::vector<Transform> scalarPoses_;
  std::vector<std::vector<Point>> world_;  // per link, valid where placed_
  std::vector<Point> around_;              // per link with spheres: the centre of the sphere around them
  std::vector<char> placed_;
};

SphereKernel::Impl::Impl(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                         const std::vector<std::vector<Sphere>>& spheres, const SphereKernelOptions& options)
    : robot_(std::move(robot)), scene_(std::move(scene)), solidLinks_(options.solid_links) {
  chain_ = dynamic_cast<const KinematicChain*>(robot_.get());
  links_.resize(robot_->links().size());
  growth_.assign(links_.size(), 0.0f);
  const double margin = 1e-6 * problemSize(*scene_, *robot_);
  for (std::size_t i = 0; i < links_.size() && i < spheres.size(); ++i) {
    LinkSpheres& link = links_[i];
    for (const Sphere& s : spheres[i]) {
      link.x.push_back(static_cast<float>(s.centre.x()));
      link.y.push_back(static_cast<float>(s.centre.y()));
      link.z.push_back(static_cast<float>(s.centre.z()));
      // Single precision places a sphere within about 1e-7 of the world's
      // size of where double precision would: each grows by 1e-6 of the
      // problem's size, so that spheres that contain a link still do.
      link.r.push_back(static_cast<float>(s.radius + margin));
    }
    const Sphere around = enclosingSphere(spheres[i]);
    link.bx = static_cast<float>(around.centre.x());
    link.by = static_cast<float>(around.centre.y());
    link.bz = static_cast<float>(around.centre.z());
    // Single precision rounds a centre by about 1e-7 of its size: the
    // enclosing sphere is grown by that, so that it stays a prefilter.
    link.br = static_cast<float>(around.radius * (1 + 1e-5) + 2 * margin);
  }
  // An obstacle's enclosing sphere, grown as the links' is (single
  // precision), so that it stays a prefilter.
  auto aroundRadius = [&](double radius) { return static_cast<float>(radius * (1 + 1e-5) + 2 * margin); };
  for (std::size_t o = 0; o < scene_->obstacles().size(); ++o) {
    const Obstacle& obstacle = scene_->obstacles()[o];
    const Eigen::Vector3d c = obstacle.pose.translation();
    const Eigen::Matrix3d rotation = obstacle.pose.rotation();
    if (obstacle.primitive && obstacle.primitive->kind == PrimitiveKind::Box) {
      Box box;
      toFloats(c, box.c);
      for (int axis = 0; axis < 3; ++axis) toFloats(rotation.col(axis), box.axes + 3 * axis);
      toFloats(obstacle.primitive->half_extents, box.h);
      box.around = aroundRadius(obstacle.primitive->half_extents.norm());
      boxes_.push_back(box);
    } else if (obstacle.primitive && obstacle.primitive->kind == PrimitiveKind::Sphere) {
      Ball ball;
      toFloats(c, ball.c);
      ball.r = static_cast<float>(obstacle.primitive->radius);
      balls_.push_back(ball);
    } else if (obstacle.primitive && obstacle.primitive->kind == PrimitiveKind::Cylinder) {
      Cylinder cylinder;
      toFloats(c, cylinder.c);
      toFloats(rotation.col(2), cylinder.axis);
      cylinder.radius = static_cast<float>(obstacle.primitive->radius);
      cylinder.half_length = static_cast<float>(obstacle.primitive->half_length);
      cylinder.around = aroundRadius(std::hypot(obstacle.primitive->radius, obstacle.primitive->half_length));
      cylinders_.push_back(cylinder);
    } else {
      // A sphere that misses the mesh's world box misses the mesh and is not
      // inside it: the box, not a sphere around it, keeps FCL away from the
      // samples beside a flat or long mesh (a wall, a shelf board).
      const Eigen::AlignedBox3d bounds = obstacle.mesh.transformed(obstacle.pose).bounds();
      MeshBody body{o, {}};
      toFloats(bounds.center(), body.bounds.c);
      for (int i = 0; i < 9; ++i) body.bounds.axes[i] = i % 4 == 0 ? 1.0f : 0.0f;
      toFloats(0.5 * bounds.sizes() * (1 + 1e-5) + Eigen::Vector3d::Constant(margin), body.bounds.h);
      meshes_.push_back(body);
    }
  }
  auto floats = [](const Eigen::Vector3d& v) {
    return std::array<float, 3>{static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
  };
  if (solidLinks_) {
    for (std::size_t i = 0; i < links_.size(); ++i) {
      const Link& link = robot_->links()[i];
      links_[i].closed = link.solid.closed;
      for (const Eigen::Vector3d& p : link.solid.component_points) links_[i].components.push_back(floats(p));
    }
    for (const Obstacle& obstacle : scene_->obstacles()) {
      // A primitive's centre lies inside it; a mesh's components each have a point.
      if (obstacle.primitive) obstaclePoints_.push_back(floats(obstacle.pose.translation()));
      for (const Eigen::Vector3d& p : obstacle.solid.component_points)
        obstaclePoints_.push_back(floats(obstacle.pose * p));
    }
  }
  const auto& robotPairs = robot_->selfCollisionPairs();
  for (const auto& [i, k] : options.self_pairs ? *options.self_pairs : robotPairs) {
    if (links_[i].r.empty() || links_[k].r.empty()) continue;
    selfPairs_.emplace_back(i, k);
    const auto found = std::find(robotPairs.begin(), robotPairs.end(), std::pair<int, int>{i, k});
    selfPairIndex_.push_back(static_cast<std::size_t>(found - robotPairs.begin()));
  }
  selfGrowth_.assign(selfPairs_.size(), 0.0f);
  // Every buffer a call fills is made here, at setup: a plan of a hundred
  // microseconds would otherwise spend part of its first calls allocating.
  placed_.assign(links_.size(), 0);
  around_.resize(links_.size());
  world_.resize(links_.size());
  for (std::size_t link = 0; link < links_.size(); ++link) world_[link].resize(links_[link].r.size());
  poses_.resize(links_.size());
  linkPoses_.resize(links_.size());
  for (std::size_t link = 0; link < links_.size(); ++link) linkPoses_[link] = &poses_[link];
  if (chain_) {
    const ChainDescription& d = chain_->description();
    auto constants = [](const Transform& pose, FrameStep& step) {
      const Eigen::Matrix3d r = pose.rotation();
      for (int i = 0; i < 9; ++i) step.r[i] = static_cast<float>(r(i / 3, i % 3));
      toFloats(pose.translation(), step.t);
    };
    constants(d.base, base_);
    std::vector<int> coordinates;
    int next = 0;
    for (const Joint& joint : d.joints) coordinates.push_back(joint.type == JointType::Fixed ? -1 : next++);
    steps_.resize(d.frames.size());
    for (std::size_t f = 1; f < d.frames.size(); ++f) {
      const Joint& joint = d.joints[d.frames[f].joint];
      FrameStep& step = steps_[f];
      step.parent = joint.parent_frame;
      step.coordinate = coordinates[d.frames[f].joint];
      step.type = joint.type;
      constants(joint.origin, step);
      const Eigen::Vector3d u = joint.axis.normalized();
      toFloats(u, step.u);
      Eigen::Matrix3d k;
      k << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
      const Eigen::Matrix3d origin = joint.origin.rotation();
      const Eigen::Matrix3d rk = origin * k, rk2 = origin * k * k;
      for (int i = 0; i < 9; ++i) {
        step.rk[i] = static_cast<float>(rk(i / 3, i % 3));
        step.rk2[i] = static_cast<float>(rk2(i / 3, i % 3));
      }
    }
    // Frames parents come before children: walk up from each link's frame.
    for (const auto& [frame, mesh] : d.geometry)
      for (int f = frame; f > 0 && !steps_[f].needed; f = steps_[f].parent) steps_[f].needed = true;
    // A link is placed by its frame's pose, read where it is made (a copy a
    // link a call was a third of the kinematics' time).
    framePoses_.resize(steps_.size());
    std::size_t link = 0;
    for (const auto& [frame, mesh] : d.geometry) linkPoses_[link++] = &framePoses_[static_cast<std::size_t>(frame)];
  }
}

SphereKernel::SphereKernel(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                           const std::vector<std::vector<Sphere>>& spheres, const SphereKernelOptions& options)
    : impl_(std::make_unique<Impl>(std::move(robot), std::move(scene), spheres, options)) {}

SphereKernel::~SphereKernel() = default;

void SphereKernel::setGrowth(std::span<const double> growth, std::span<const double> selfGrowth) {
  // Rounded up: a grown sphere is never smaller than asked for.
  auto up = [](double value) { return std::nextafter(static_cast<float>(value), INFINITY); };
  std::vector<float>& out = impl_->growth_;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = i < growth.size() ? up(growth[i]) : 0.0f;
  std::vector<float>& pairs = impl_->selfGrowth_;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto [i, k] = impl_->selfPairs_[p];
    const std::size_t index = impl_->selfPairIndex_[p];
    pairs[p] = index < selfGrowth.size() ? up(selfGrowth[index])
                                         : out[static_cast<std::size_t>(i)] + out[static_cast<std::size_t>(k)];
  }
}

std::size_t SphereKernel::sphereCount() const {
  std::size_t count = 0;
  for (const Impl::LinkSpheres& link : impl_->links_) count += link.r.size();
  return count;
}

LaneMask SphereKernel::collidingLanes(const std::array<const Config*, kSphereLanes>& configs, bool firstHit,
                                      CheckStats& stats) {
  return impl_->collidingLanes(configs, firstHit, stats);
}

void SphereKernel::Impl::forwardKinematics(const std::array<const Config*, kSphereLanes>& configs) {
  std::array<float, kSphereLanes> values{};
  auto coordinate = [&](int c) {
    for (std::size_t lane = 0; lane < kSphereLanes; ++lane) values[lane] = static_cast<float>((*configs[lane])[c]);
    return B::load(values.data());
  };
  if (!chain_) {
    // Robots other than chains (rigid bodies: one pose) place their links in
    // double precision, lane by lane.
    for (std::size_t lane = 0; lane < kSphereLanes; ++lane) {
      robot_->linkPoses(*configs[lane], scalarPoses_);
      for (std::size_t link = 0; link < links_.size(); ++link) {
        const Eigen::Matrix3d r = scalarPoses_[link].rotation();
        const Eigen::Vector3d t = scalarPoses_[link].translation();
        for (int i = 0; i < 9; ++i) {
          std::array<float, kSphereLanes> row{};
          poses_[link].r[i].store(row.data());
          row[lane] = static_cast<float>(r(i / 3, i % 3));
          poses_[link].r[i] = B::load(row.data());
        }
        for (int i = 0; i < 3; ++i) {
          std::array<float, kSphereLanes> row{};
          poses_[link].t[i].store(row.data());
          row[lane] = static_cast<float>(t[i]);
          poses_[link].t[i] = B::load(row.data());
        }
      }
    }
    return;
  }
  // out = a * (R, t), R and t the same on every lane (a joint's origin).
  auto composeConstant = [](const LanePose& a, const FrameStep& c, LanePose& out) {
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < 3; ++col)
        out.r[3 * row + col] =
            a.r[3 * row] * B(c.r[col]) + a.r[3 * row + 1] * B(c.r[3 + col]) + a.r[3 * row + 2] * B(c.r[6 + col]);
      out.t[row] = a.r[3 * row] * B(c.t[0]) + a.r[3 * row + 1] * B(c.t[1]) + a.r[3 * row + 2] * B(c.t[2]) + a.t[row];
    }
  };
  for (int i = 0; i < 9; ++i) framePoses_[0].r[i] = B(base_.r[i]);
  for (int i = 0; i < 3; ++i) framePoses_[0].t[i] = B(base_.t[i]);
  for (std::size_t f = 1; f < steps_.size(); ++f) {
    const FrameStep& step = steps_[f];
    if (!step.needed) continue;
    LanePose& pose = framePoses_[f];
    if (step.type == JointType::Revolute) {
      // The parent's pose times the joint's whole rotation (origin and
      // Rodrigues' terms folded, made once): one matrix product a frame.
      const LanePose& parent = framePoses_[step.parent];
      const auto [s, co] = sincos(coordinate(step.coordinate));
      const B one_c = B(1.0f) - co;
      std::array<B, 9> m;
      for (int i = 0; i < 9; ++i) m[i] = B(step.r[i]) + s * B(step.rk[i]) + one_c * B(step.rk2[i]);
      for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col)
          pose.r[3 * row + col] =
              parent.r[3 * row] * m[col] + parent.r[3 * row + 1] * m[3 + col] + parent.r[3 * row + 2] * m[6 + col];
        pose.t[row] = parent.r[3 * row] * B(step.t[0]) + parent.r[3 * row + 1] * B(step.t[1]) +
                      parent.r[3 * row + 2] * B(step.t[2]) + parent.t[row];
      }
      continue;
    }
    composeConstant(framePoses_[step.parent], step, pose);
    if (step.type == JointType::Prismatic) {
      const B q = coordinate(step.coordinate);
      for (int row = 0; row < 3; ++row)
        pose.t[row] +=
            (pose.r[3 * row] * B(step.u[0]) + pose.r[3 * row + 1] * B(step.u[1]) + pose.r[3 * row + 2] * B(step.u[2])) *
            q;
    }
  }
}

const std::vector<SphereKernel::Impl::Point>& SphereKernel::Impl::worldSpheres(std::size_t link) {
  std::vector<Point>& world = world_[link];  // sized at construction
  if (placed_[link]) return world;
  const LinkSpheres& spheres = links_[link];
  // The pose read once into locals, so that the loop keeps it in registers.
  const LanePose& pose = *linkPoses_[link];
  const std::array<B, 9> r = pose.r;
  const std::array<B, 3> t = pose.t;
  for (std::size_t s = 0; s < spheres.r.size(); ++s) {
    const B x(spheres.x[s]), y(spheres.y[s]), z(spheres.z[s]);
    world[s] = {r[0] * x + r[1] * y + r[2] * z + t[0], r[3] * x + r[4] * y + r[5] * z + t[1],
                r[6] * x + r[7] * y + r[8] * z + t[2]};
  }
  placed_[link] = 1;
  return world;
}

SphereKernel::Impl::Point SphereKernel::Impl::place(std::size_t link, float x, float y, float z) const {
  const LanePose& p = *linkPoses_[link];
  return {p.r[0] * B(x) + p.r[1] * B(y) + p.r[2] * B(z) + p.t[0],
          p.r[3] * B(x) + p.r[4] * B(y) + p.r[5] * B(z) + p.t[1],
          p.r[6] * B(x) + p.r[7] * B(y) + p.r[8] * B(z) + p.t[2]};
}

LaneMask SphereKernel::Impl::meshHits(const MeshBody& body, std::size_t link, std::size_t sphere, LaneMask lanes) {
  const Obstacle& obstacle = scene_->obstacles()[body.obstacle];
  const LinkSpheres& spheres = links_[link];
  const Point& p = worldSpheres(link)[sphere];
  std::array<float, kSphereLanes> x{}, y{}, z{};
  p.x.store(x.data());
  p.y.store(y.data());
  p.z.store(z.data());
  LaneMask hits = 0;
  const fcl::CollisionObjectd object(obstacle.bvh, obstacle.pose);
  const auto ball = std::make_shared<fcl::Sphered>(spheres.r[sphere] + growth_[link]);
  for (std::size_t lane = 0; lane < kSphereLanes; ++lane) {
    if (!(lanes >> lane & 1)) continue;
    const Eigen::Vector3d centre(x[lane], y[lane], z[lane]);
    const fcl::CollisionObjectd probe(ball, Transform(Eigen::Translation3d(centre)));
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    if (fcl::collide(&probe, &object, request, result) > 0 ||
        (obstacle.solid.closed && containsPoint(*obstacle.bvh, obstacle.solid, obstacle.pose.inverse() * centre)))
      hits |= LaneMask{1} << lane;
  }
  return hits;
}

LaneMask SphereKernel::Impl::obstacleHits(const Point& p, const B& r, std::size_t link, LaneMask active, bool firstHit,
                                          CheckStats& stats) {
  const LinkSpheres& spheres = links_[link];
  const float* sr = spheres.r.data();
  const float grow = growth_[link];
  const std::size_t count = spheres.r.size();
  LaneMask hits = 0;
  // Tests the link's spheres against one obstacle where the link's enclosing
  // sphere `near` reaches it; `test(point, radius)` gives the lanes that meet.
  auto fine = [&](LaneMask near, auto&& test) {
    near &= active & ~hits;
    if (!near) return;
    ++stats.pair_tests;
    const std::vector<Point>& world = worldSpheres(link);
    for (std::size_t s = 0; s < count && (near & ~hits); ++s) {
      stats.strategy[kSphereTestsIndex] += kSphereLanes;
      hits |= test(world[s], B(sr[s] + grow)) & near;
      if (firstHit && hits) return;
    }
  };
  auto boxTest = [](const Box& box) {
    return [&box](const Point& q, const B& radius) {
      const B dx = q.x - B(box.c[0]), dy = q.y - B(box.c[1]), dz = q.z - B(box.c[2]);
      B distance2(0.0f);
      for (int axis = 0; axis < 3; ++axis) {
        const B along = dx * B(box.axes[3 * axis]) + dy * B(box.axes[3 * axis + 1]) + dz * B(box.axes[3 * axis + 2]);
        const B excess = max(abs(along) - B(box.h[axis]), B(0.0f));
        distance2 += excess * excess;
      }
      return atMost(distance2, radius * radius);
    };
  };
  auto ballTest = [](const Ball& ball) {
    return [&ball](const Point& q, const B& radius) {
      const B dx = q.x - B(ball.c[0]), dy = q.y - B(ball.c[1]), dz = q.z - B(ball.c[2]);
      const B reach = radius + B(ball.r);
      return atMost(dx * dx + dy * dy + dz * dz, reach * reach);
    };
  };
  auto cylinderTest = [](const Cylinder& cylinder) {
    return [&cylinder](const Point& q, const B& radius) {
      const B dx = q.x - B(cylinder.c[0]), dy = q.y - B(cylinder.c[1]), dz = q.z - B(cylinder.c[2]);
      const B along = dx * B(cylinder.axis[0]) + dy * B(cylinder.axis[1]) + dz * B(cylinder.axis[2]);
      const B radial = sqrt(max(dx * dx + dy * dy + dz * dz - along * along, B(0.0f)));
      const B outRadial = max(radial - B(cylinder.radius), B(0.0f));
      const B outAxial = max(abs(along) - B(cylinder.half_length), B(0.0f));
      return atMost(outRadial * outRadial + outAxial * outAxial, radius * radius);
    };
  };
  // The enclosing spheres first: a few instructions, and most of a robot's
  // links are far from most obstacles.
  auto reaches = [&p, &r](const float* c, float around) {
    const B dx = p.x - B(c[0]), dy = p.y - B(c[1]), dz = p.z - B(c[2]);
    const B reach = r + B(around);
    return atMost(dx * dx + dy * dy + dz * dz, reach * reach);
  };
  for (const Box& box : boxes_) {
    if (!(reaches(box.c, box.around) & active & ~hits)) continue;
    fine(boxTest(box)(p, r), boxTest(box));
    if (firstHit && hits) return hits;
  }
  for (const Ball& ball : balls_) {
    fine(ballTest(ball)(p, r), ballTest(ball));
    if (firstHit && hits) return hits;
  }
  for (const Cylinder& cylinder : cylinders_) {
    if (!(reaches(cylinder.c, cylinder.around) & active & ~hits)) continue;
    fine(cylinderTest(cylinder)(p, r), cylinderTest(cylinder));
    if (firstHit && hits) return hits;
  }
  for (const MeshBody& body : meshes_) {
    LaneMask near = boxTest(body.bounds)(p, r) & active & ~hits;
    if (!near) continue;
    ++stats.pair_tests;
    for (std::size_t s = 0; s < count && near; ++s) {
      const LaneMask reach = boxTest(body.bounds)(worldSpheres(link)[s], B(sr[s] + grow)) & near;
      stats.strategy[kSphereTestsIndex] += static_cast<std::uint64_t>(std::popcount(reach));
      if (reach) hits |= meshHits(body, link, s, reach);
      near &= ~hits;
      if (firstHit && hits) return hits;
    }
  }
  return hits;
}

LaneMask SphereKernel::Impl::selfHits(LaneMask active, bool firstHit, CheckStats& stats) {
  LaneMask hits = 0;
  for (std::size_t p = 0; p < selfPairs_.size(); ++p) {
    const auto [i, k] = selfPairs_[p];
    const LinkSpheres& a = links_[i];
    const LinkSpheres& b = links_[k];
    const float grow = selfGrowth_[p];
    const Point& pa = around_[static_cast<std::size_t>(i)];
    const Point& pb = around_[static_cast<std::size_t>(k)];
    auto meets = [](const Point& p, const Point& q, const B& reach) {
      const B dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      return atMost(dx * dx + dy * dy + dz * dz, reach * reach);
    };
    LaneMask near = meets(pa, pb, B(a.br + b.br + grow)) & active & ~hits;
    if (!near) continue;
    if (solidLinks_) {
      // One link wholly inside the other, closed one, is not ruled out.
      if (a.closed) hits |= pointsWithin(b.components, k, pa, B(a.br + grow)) & near;
      if (b.closed) hits |= pointsWithin(a.components, i, pb, B(b.br + grow)) & near;
      near &= ~hits;
      if (firstHit && hits) return hits;
    }
    ++stats.pair_tests;
    const std::vector<Point>& worldA = worldSpheres(i);
    const std::vector<Point>& worldB = worldSpheres(k);
    for (std::size_t s = 0; s < a.r.size() && near; ++s) {
      // Each sphere of one link first against the sphere around the other's.
      stats.strategy[kSphereTestsIndex] += kSphereLanes;
      const LaneMask close = meets(worldA[s], pb, B(a.r[s] + b.br + grow)) & near;
      for (std::size_t t = 0; t < b.r.size() && close & near; ++t) {
        stats.strategy[kSphereTestsIndex] += kSphereLanes;
        hits |= meets(worldA[s], worldB[t], B(a.r[s] + b.r[t] + grow)) & close & near;
        near &= ~hits;
      }
      if (firstHit && hits) return hits;
    }
  }
  return hits;
}

LaneMask SphereKernel::Impl::pointsWithin(const std::vector<std::array<float, 3>>& points, int link, const Point& p,
                                          const B& r) const {
  LaneMask hits = 0;
  const B r2 = r * r;
  for (const auto& [x, y, z] : points) {
    const Point q = link < 0 ? Point{B(x), B(y), B(z)} : place(static_cast<std::size_t>(link), x, y, z);
    const B dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    hits |= atMost(dx * dx + dy * dy + dz * dz, r2);
  }
  return hits;
}

LaneMask SphereKernel::Impl::collidingLanes(const std::array<const Config*, kSphereLanes>& configs, bool firstHit,
                                            CheckStats& stats) {
  forwardKinematics(configs);
  std::fill(placed_.begin(), placed_.end(), 0);
  LaneMask hits = 0;
  // Every link with spheres is placed before the self pairs are tested
  // (they read around_), or the call has returned on a hit.
  for (std::size_t link = 0; link < links_.size(); ++link) {
    const LinkSpheres& spheres = links_[link];
    if (spheres.r.empty()) continue;
    around_[link] = place(link, spheres.bx, spheres.by, spheres.bz);
    const Point& around = around_[link];
    const B reach(spheres.br + growth_[link]);
    // An obstacle wholly inside a closed link is not ruled out.
    if (solidLinks_ && spheres.closed) hits |= pointsWithin(obstaclePoints_, -1, around, reach);
    hits |= obstacleHits(around, reach, link, kAllLanes & ~hits, firstHit, stats);
    if ((firstHit && hits) || hits == kAllLanes) return hits;
  }
  return hits | selfHits(kAllLanes & ~hits, firstHit, stats);
}

}  // namespace prmkit
