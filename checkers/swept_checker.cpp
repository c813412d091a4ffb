#include "checkers/swept_checker.h"

#include "geometry/swept_hull.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace prmkit {

SweptChecker::SweptChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                           SweptSettings settings)
    : Checker(robot, scene, kCounters),
      settings_(settings),
      eta_(settings.eta > 0.0 ? settings.eta : defaultEta(*scene_, *robot_)),
      collision_(robot_, scene_, settings.geometry) {
  validateFields(settings_, "swept");
  pairs_ = bodyPairs(*robot_, *scene_);
  distance_.enclosingSpheres(robot_->links(), scene_->obstacles(), linkSpheres_, obstacleSpheres_);
}

SweptChecker::SweptChecker(const SweptChecker& other) : SweptChecker(other.robot_, other.scene_, other.settings_) {}

std::string SweptChecker::description() const {
  return fmt::format("swept (eta {:.3g} m, distance relative error {:g}, geometry {}, rotation growth by {})", eta_,
                     settings_.distance_relative_error, geometryName(settings_.geometry),
                     robot_->hasAccelerationBounds() ? "acceleration bounds" : "motion bounds");
}

std::unique_ptr<Checker> SweptChecker::clone() const { return std::unique_ptr<Checker>(new SweptChecker(*this)); }

std::unique_ptr<Checker> SweptChecker::makeForRobot(std::shared_ptr<const Robot> robot) const {
  return std::make_unique<SweptChecker>(std::move(robot), scene_, settings_);
}

bool SweptChecker::doIsValid(const Config& q) { return !collision_.inCollision(q, stats_); }

std::uint32_t SweptChecker::sampleAt(double t) {
  if (const auto found = samplesByT_.find(t); found != samplesByT_.end()) return found->second;
  // Samples are reused between edges, so that their vectors keep their storage.
  const auto index = static_cast<std::uint32_t>(sampleCount_++);
  if (index == samples_.size()) samples_.emplace_back();
  Sample& sample = samples_[index];
  sample.t = t;
  if (t == 0.0)
    sample.q = edgeA_;
  else if (t == 1.0)
    sample.q = edgeB_;
  else
    robot_->interpolate(edgeA_, edgeB_, t, sample.q);
  robot_->linkPoses(sample.q, sample.poses);
  if (sample.bounds.size() != pairs_.size()) sample.bounds.assign(pairs_.size(), DistanceBound{});
  for (const std::uint32_t p : sample.touched) sample.bounds[p] = DistanceBound{};
  sample.touched.clear();
  samplesByT_.emplace(t, index);
  return index;
}

double SweptChecker::growth(std::size_t link, double width) const {
  double straying = 0.5 * motion_.link[link] * width;
  if (motion_.hasAccelerations()) straying = std::min(straying, 0.125 * motion_.acceleration[link] * width * width);
  return straying * (1.0 + 1e-9);
}

double SweptChecker::pairGrowth(std::uint32_t pair, double width) const {
  const BodyPair& p = pairs_[pair];
  const double own = growth(static_cast<std::size_t>(p.link), width);
  return p.obstacle >= 0 ? own : own + growth(static_cast<std::size_t>(p.other_link), width);
}

SweptChecker::Swept SweptChecker::classify(double gap, double growth) {
  // A relative margin for the growth's rounding.
  if (gap > growth * (1.0 + 1e-12)) return {Clearance::Apart, gap};
  return {gap > 0.0 ? Clearance::Closer : Clearance::MayTouch, gap};
}

SweptChecker::Swept SweptChecker::sweptAgainstObstacle(std::size_t link, const Transform& from, const Transform& to,
                                                       const Obstacle& obstacle, double growth, SweptWarmStart& warm) {
  const ConvexCover& cover = robot_->links()[link].cover;
  const Primitive* primitive = obstacle.checkedPrimitive();
  if (cover.empty() || (!primitive && obstacle.cover.empty())) return {Clearance::MayTouch, 0.0};
  // A swept hull against one of the obstacle's convex sets (its primitive, its whole hull or a piece).
  auto against = [&](const ConvexHull& swept, const ConvexHull* set, SweptWarmStart* start) {
    ++stats_.strategy[kSweptTests];
    const SweptHull moving{swept, from, to};
    return classify(set ? sweptHullGap(moving, SweptHull{*set, obstacle.pose, obstacle.pose}, growth, stats_, start)
                        : sweptHullGap(moving, *primitive, obstacle.pose, growth, stats_, start),
                    growth);
  };
  // Whole hulls first (each contains its body's pieces), then piece by piece.
  const Swept whole = against(*cover.hull, primitive ? nullptr : obstacle.cover.hull.get(), &warm);
  if (whole.clearance == Clearance::Apart ||
      (cover.pieces.size() == 1 && (primitive || obstacle.cover.pieces.size() == 1)))
    return whole;
  for (const auto& piece : cover.pieces) {
    if (primitive) {
      if (const Swept result = against(*piece, nullptr, nullptr); result.clearance != Clearance::Apart) return result;
      continue;
    }
    // The obstacle's groups of pieces first (ConvexCover::groups): a group
    // whose sphere the piece's swept sphere clears holds no piece it meets.
    const auto clears = [&](const Eigen::Vector3d& centre, double radius) {
      ++stats_.bv_tests;
      const double spheres =
          capsuleSphereGap(from * piece->center, to * piece->center, piece->bounding_radius, centre, radius);
      return classify(spheres, growth).clearance == Clearance::Apart;
    };
    std::optional<Swept> met;
    visitGroupedPieces(
        obstacle.cover,
        [&](const ConvexCover::Group& group) { return !clears(obstacle.pose * group.center, group.radius); },
        [&](const ConvexHull& other) {
          if (clears(obstacle.pose * other.center, other.bounding_radius)) return false;
          if (const Swept result = against(*piece, &other, nullptr); result.clearance != Clearance::Apart) met = result;
          return met.has_value();
        });
    if (met) return *met;
  }
  return whole;  // every piece cleared: Apart, with the whole hulls' gap
}

SweptChecker::Swept SweptChecker::sweptAgainstLink(std::size_t link, std::size_t other, const Sample& a,
                                                   const Sample& b, double growth, SweptWarmStart& warm) {
  const ConvexCover& cover = robot_->links()[link].cover;
  const ConvexCover& otherCover = robot_->links()[other].cover;
  if (cover.empty() || otherCover.empty()) return {Clearance::MayTouch, 0.0};
  // Both links move: each sweeps its own hull, and the two swept sets must not meet.
  ++stats_.strategy[kSweptTests];
  return classify(sweptHullGap(SweptHull{*cover.hull, a.poses[link], b.poses[link]},
                               SweptHull{*otherCover.hull, a.poses[other], b.poses[other]}, growth, stats_, &warm),
                  growth);
}

SweptChecker::Swept SweptChecker::sweptTest(const Element& e) {
  const BodyPair& pair = pairs_[e.pair];
  const Sample& a = samples_[e.sample_a];
  const Sample& b = samples_[e.sample_b];
  const auto link = static_cast<std::size_t>(pair.link);
  if (pair.obstacle < 0) {
    const auto other = static_cast<std::size_t>(pair.other_link);
    return sweptAgainstLink(link, other, a, b, pairGrowth(e.pair, e.width), warm_[e.pair]);
  }
  const double straying = pairGrowth(e.pair, e.width);
  // The link's enclosing sphere sweeps a capsule (grown likewise); the obstacle's sphere encloses it.
  const Sphere& sphere = linkSpheres_[link];
  const Sphere& obstacleSphere = obstacleSpheres_[static_cast<std::size_t>(pair.obstacle)];
  ++stats_.bv_tests;
  if (classify(capsuleSphereGap(a.poses[link] * sphere.centre, b.poses[link] * sphere.centre, sphere.radius,
                                obstacleSphere.centre, obstacleSphere.radius),
               straying)
          .clearance == Clearance::Apart)
    return {Clearance::Apart, straying};
  return sweptAgainstObstacle(link, a.poses[link], b.poses[link],
                              scene_->obstacles()[static_cast<std::size_t>(pair.obstacle)], straying, warm_[e.pair]);
}

std::optional<DistanceBound> SweptChecker::boundAt(std::uint32_t sampleIndex, std::uint32_t pair, double threshold,
                                                   std::uint32_t neighbour) {
  Sample& sample = samples_[sampleIndex];
  const BodyPair& p = pairs_[pair];
  const auto& links = robot_->links();
  const auto bodies = [&] {
    const auto link = static_cast<std::size_t>(p.link);
    const PlacedBody body{*links[link].bvh, &links[link].cover, sample.poses[link]};
    const auto other = static_cast<std::size_t>(std::max(p.other_link, 0));
    return std::pair{body, p.obstacle >= 0 ? placedObstacle(scene_->obstacles()[static_cast<std::size_t>(p.obstacle)])
                                           : PlacedBody{*links[other].bvh, &links[other].cover, sample.poses[other]}};
  };
  bool computed = false;
  return pairBoundAt(
      sample.bounds, sample.touched, pair, threshold, samples_[neighbour].bounds[pair], bodies,
      {distance_, collision_, settings_.distance_relative_error, settings_.geometry == Geometry::Convex, stats_},
      computed);
}

bool SweptChecker::certifiedByDistances(const Element& e, std::optional<std::uint32_t>& contact) {
  const double l = pairMotion_[e.pair] * e.width;
  // Thresholds a little above what the test needs, so that bounds reaching
  // them satisfy the strict inequality; a new bound is asked for half of l.
  const double slack = 1e-3 * eta_ + 1e-12 * l;
  auto bounded = [&](std::uint32_t sample, std::uint32_t neighbour, double threshold) -> std::optional<double> {
    const auto found = boundAt(sample, e.pair, threshold, neighbour);
    if (!found) {
      contact = sample;
      return std::nullopt;
    }
    return std::max(found->lower, 0.0);
  };
  const auto lowerA = bounded(e.sample_a, e.sample_b, 0.5 * l + slack);
  if (!lowerA) return false;
  const auto lowerB = bounded(e.sample_b, e.sample_a, std::max(l - *lowerA, 0.0) + slack);
  if (!lowerB) return false;
  if (certifiesFree(*lowerA, *lowerB, l)) return true;
  // The end measured first may reach further than half of l.
  const auto raisedA = bounded(e.sample_a, e.sample_b, std::max(l - *lowerB, 0.0) + slack);
  return raisedA && certifiesFree(*raisedA, *lowerB, l);
}

EdgeResult SweptChecker::doCheckEdge(const Config& a, const Config& b) {
  edgeA_ = a;
  edgeB_ = b;
  sampleCount_ = 0;
  samplesByT_.clear();
  motion_.compute(*robot_, a, b, robot_->hasAccelerationBounds());
  // Obstacles do not move; two links move relative to each other (SSL 2005,
  // Sec. 3.2). pairs_ holds the obstacle pairs, then the self pairs in order.
  pairMotion_.resize(pairs_.size());
  std::size_t self = 0;
  for (std::size_t p = 0; p < pairs_.size(); ++p)
    pairMotion_[p] =
        pairs_[p].obstacle >= 0 ? motion_.link[static_cast<std::size_t>(pairs_[p].link)] : motion_.self[self++];

  queue_ = {};
  // Warm starts follow one edge's pieces only, so that an edge's check does not depend on the edges before it.
  warm_.assign(pairs_.size(), SweptWarmStart{});
  const std::uint32_t start = sampleAt(0.0), end = sampleAt(1.0);
  edgePairs_.clear();
  const std::size_t obstacleCount = scene_->obstacles().size();
  for (std::size_t link = 0; link < linkSpheres_.size(); ++link) {
    // The broad phase over the whole edge: the link's enclosing sphere at both
    // ends, grown by how far the link can stray from the straight lines
    // between them, contains everything the link sweeps.
    const Sphere& sphere = linkSpheres_[link];
    Eigen::AlignedBox3d swept;
    for (const std::uint32_t sample : {start, end}) {
      const Eigen::Vector3d centre = samples_[sample].poses[link] * sphere.centre;
      swept.extend(centre - Eigen::Vector3d::Constant(sphere.radius));
      swept.extend(centre + Eigen::Vector3d::Constant(sphere.radius));
    }
    const double straying = growth(link, 1.0);
    swept.min() -= Eigen::Vector3d::Constant(straying);
    swept.max() += Eigen::Vector3d::Constant(straying);
    scene_->obstaclesOverlapping(swept, nearObstacles_, stats_.broad_phase_visits);
    stats_.broad_phase_pairs += nearObstacles_.size();
    for (const int obstacle : nearObstacles_)
      edgePairs_.push_back(static_cast<std::uint32_t>(link * obstacleCount + static_cast<std::size_t>(obstacle)));
  }
  for (auto p = static_cast<std::uint32_t>(linkSpheres_.size() * obstacleCount); p < pairs_.size(); ++p)
    edgePairs_.push_back(p);
  for (const std::uint32_t p : edgePairs_) {
    // A piece over which a link strays further than its own size from the
    // straight lines between its ends' positions cannot be cleared by its
    // swept hull: the pair starts from pieces narrow enough (a power of 2 of
    // them, so that pairs share their ends), at most kMaxFirstPieces.
    const auto link = static_cast<std::size_t>(pairs_[p].link);
    std::size_t pieces = 1;
    while (pieces < kMaxFirstPieces && growth(link, 1.0 / static_cast<double>(pieces)) > linkSpheres_[link].radius)
      pieces *= 2;
    for (std::size_t i = 0; i < pieces; ++i) {
      const double width = 1.0 / static_cast<double>(pieces);
      const std::uint32_t from = sampleAt(static_cast<double>(i) * width);
      const std::uint32_t to = sampleAt(i + 1 == pieces ? 1.0 : static_cast<double>(i + 1) * width);
      queue_.push({width, p, from, to});
      ++stats_.strategy[kQueuePushes];
    }
  }
  auto colliding = [](double t) { return EdgeResult{Verdict::Colliding, 100.0, t}; };
  while (!queue_.empty()) {
    const Element e = queue_.top();
    queue_.pop();
    const Swept swept = sweptTest(e);
    if (swept.clearance == Clearance::Apart) {
      ++stats_.strategy[kSweptCertificates];
      continue;
    }
    // Swept hulls that clear by less than the growth need a narrower piece;
    // ones that may touch need the distances, which also find contacts.
    if (swept.clearance == Clearance::MayTouch) {
      std::optional<std::uint32_t> contact;
      if (certifiedByDistances(e, contact)) continue;
      if (contact) return colliding(samples_[*contact].t);
    }
    const double ta = samples_[e.sample_a].t, tb = samples_[e.sample_b].t;
    if (pairMotion_[e.pair] * e.width <= eta_) {
      ++stats_.strategy[kUnresolvedAsColliding];
      return colliding(0.5 * (ta + tb));
    }
    // Split in two; or, where the swept hull cleared by less than the growth,
    // into as many pieces (a power of 2) as bring the growth, which falls
    // with the square of the width, below that gap (Xavier 1997 chooses step
    // sizes from the distance the same way).
    std::size_t pieces = 2;
    if (swept.clearance == Clearance::Closer) {
      const double growthNow = pairGrowth(e.pair, e.width);
      while (pieces < kMaxSplitPieces &&
             growthNow > swept.gap * static_cast<double>(pieces) * static_cast<double>(pieces))
        pieces *= 2;
    }
    stats_.strategy[kBisectionSteps] += pieces - 1;
    std::uint32_t from = e.sample_a;
    const double width = (tb - ta) / static_cast<double>(pieces);
    for (std::size_t i = 1; i <= pieces; ++i) {
      const std::uint32_t to = i == pieces ? e.sample_b : sampleAt(ta + static_cast<double>(i) * width);
      queue_.push({width, e.pair, from, to});
      ++stats_.strategy[kQueuePushes];
      from = to;
    }
  }
  return EdgeResult{};
}

PathResult SweptChecker::doCheckPath(std::span<const Config> path) {
  // Static probes over the whole path in the probe schedule's rounds, one
  // per 1 % of the C-space extent, at most path_probes a segment; then
  // segment by segment.
  constexpr double kProbeStep = 0.01;
  const std::size_t segments = path.size() - 1;
  std::vector<std::size_t> cells(segments, 0);
  for (std::size_t s = 0; s < segments && settings_.path_probes > 0; ++s)
    cells[s] =
        static_cast<std::size_t>(probeCellCount(*robot_, path[s], path[s + 1], settings_.path_probes, kProbeStep));
  Config q;
  const auto hit = staticProbes(schedule_, *robot_, path, cells, collision_, stats_, q);
  if (!hit) return Checker::doCheckPath(path);
  return collidingPath(segments, hit->segment, hit->t);
}

}  // namespace prmkit
