#include "checkers/adaptive_checker.h"

#include "robots/kinematic_chain.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace prmkit {

AdaptiveChecker::AdaptiveChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                                 AdaptiveSettings settings)
    : Checker(robot, scene, kCounters),
      settings_(settings),
      eta_(settings.eta > 0.0 ? settings.eta : defaultEta(*scene_, *robot_)),
      collision_(robot_, scene_, settings.geometry),
      distance_(),
      pairs_(bodyPairs(*robot_, *scene_)),
      samples_(pairs_.size(), static_cast<std::size_t>(settings.cache_nodes)) {
  validateFields(settings_, "adaptive");
  distance_.enclosingSpheres(robot_->links(), scene_->obstacles(), linkSpheres_, obstacleSpheres_);
  firstSelfPair_ = robot_->links().size() * scene_->obstacles().size();
  for (const Obstacle& obstacle : scene_->obstacles()) obstacleBoxes_.push_back(&distance_.enclosing(*obstacle.bvh));
  if (const auto* chain = dynamic_cast<const KinematicChain*>(robot_.get()); chain && settings_.self_pair_tables)
    for (const auto& [i, k] : robot_->selfCollisionPairs())
      selfPairTables_.push_back(
          SelfPairTable::shared(*chain, static_cast<std::size_t>(i), static_cast<std::size_t>(k), kSelfPairTableDepth));
}

AdaptiveChecker::AdaptiveChecker(const AdaptiveChecker& other)
    : AdaptiveChecker(other.robot_, other.scene_, other.settings_) {
  samples_.nodeBounds() = other.samples_.nodeBounds().sharingRounds();  // a clone made in rounds shares the node cache
}

std::string AdaptiveChecker::description() const {
  return fmt::format(
      "adaptive (eta {:.3g} m, distance relative error {:g}, motion bound {}, geometry {}, {} distance probes per "
      "segment{}, {})",
      eta_, settings_.distance_relative_error, settings_.speed_bounds && robot_->hasSpeedBounds() ? "speed" : "lever",
      geometryName(settings_.geometry), std::max(settings_.probes, 1),
      settings_.probe_step > 0.0
          ? fmt::format(" at most, one per {:g}% of the C-space extent", 100 * settings_.probe_step)
          : "",
      settings_.path_queue ? "paths in one queue" : "paths segment by segment");
}

std::unique_ptr<Checker> AdaptiveChecker::clone() const { return std::unique_ptr<Checker>(new AdaptiveChecker(*this)); }

std::unique_ptr<Checker> AdaptiveChecker::makeForRobot(std::shared_ptr<const Robot> robot) const {
  return std::make_unique<AdaptiveChecker>(std::move(robot), scene_, settings_);
}

bool AdaptiveChecker::doIsValid(const Config& q) { return !collision_.inCollision(q, stats_); }

EdgeResult AdaptiveChecker::doCheckEdge(const Config& a, const Config& b) {
  const Config path[] = {a, b};
  const PathResult result = checkSegments(path, true, false);
  return result.segments[0] ? *result.segments[0] : EdgeResult{};
}

PathResult AdaptiveChecker::doCheckPath(std::span<const Config> path) {
  return checkSegments(path, settings_.path_queue, settings_.static_path_probes);
}

bool AdaptiveChecker::directionalCertificate(const Element& e, const DistanceBound& a, const DistanceBound& b) {
  const BodyPair& pair = pairs_[e.pair];
  if (pair.obstacle < 0) return false;
  if (!prmkit::directionalCertificate(segmentMotion(e.segment), static_cast<std::size_t>(pair.link), end(e.sample_a),
                                      end(e.sample_b), e.t_b - e.t_a, a, b))
    return false;
  ++stats_.strategy[kDirectionalCertificates];
  return true;
}

double AdaptiveChecker::motionBound(const Element& e) {
  const BodyPair& pair = pairs_[e.pair];
  const double width = e.t_b - e.t_a;
  if (pair.obstacle < 0) return width * pairMotionBound(e.segment, e.pair);
  return linkPieceBound(segmentMotion(e.segment), static_cast<std::size_t>(pair.link), end(e.sample_a), end(e.sample_b),
                        width);
}

std::optional<DistanceBound> AdaptiveChecker::ensure(std::uint32_t sampleIndex, std::uint32_t pair, double threshold,
                                                     std::uint32_t neighbour) {
  Sample& sample = samples_[sampleIndex];
  bool computed = false;
  const auto found = pairBoundAt(
      sample.bounds, sample.touched, pair, threshold, samples_[neighbour].bounds[pair],
      [&] { return placedBodies(sampleIndex, pair); },
      {distance_, collision_, settings_.distance_relative_error, settings_.geometry == Geometry::Convex, stats_},
      computed);
  if (!computed && sample.from_cache[pair]) ++stats_.strategy[kCacheHits];
  if (computed) sample.from_cache[pair] = false;
  return found;
}

std::pair<PlacedBody, PlacedBody> AdaptiveChecker::placedBodies(std::uint32_t sampleIndex, std::uint32_t pair) {
  Sample& sample = samples_[sampleIndex];
  if (sample.poses.empty()) robot_->linkPoses(sample.q, sample.poses);
  const BodyPair& p = pairs_[pair];
  const auto& links = robot_->links();
  const auto link = static_cast<std::size_t>(p.link);
  if (p.obstacle >= 0) {
    const Obstacle& obstacle = scene_->obstacles()[static_cast<std::size_t>(p.obstacle)];
    return {PlacedBody{*links[link].bvh, &links[link].cover, sample.poses[link]}, placedObstacle(obstacle)};
  }
  const auto other = static_cast<std::size_t>(p.other_link);
  return {PlacedBody{*links[link].bvh, &links[link].cover, sample.poses[link]},
          PlacedBody{*links[other].bvh, &links[other].cover, sample.poses[other]}};
}

bool AdaptiveChecker::certify(const Element& e, double l, std::optional<Collision>& collision) {
  // Thresholds are asked slightly above what the test needs, so that bounds
  // that reach them satisfy the strict inequality l < d(q_a) + d(q_b).
  const double slack = certificateSlack(l);
  auto bounded = [&](std::uint32_t sample, double t, double threshold, DistanceBound& bound) {
    const auto found = ensure(sample, e.pair, threshold, sample == e.sample_a ? e.sample_b : e.sample_a);
    if (!found) {
      collision = Collision{e.segment, t};
      return false;
    }
    bound = *found;
    return true;
  };
  // A bound already known is used as it is; a new one is asked for half of l.
  auto firstThreshold = [&](std::uint32_t sample) {
    return samples_[sample].bounds[e.pair].known() ? 0.0 : 0.5 * l + slack;
  };
  DistanceBound a, b;
  if (!bounded(e.sample_a, e.t_a, firstThreshold(e.sample_a), a) ||
      !bounded(e.sample_b, e.t_b, firstThreshold(e.sample_b), b))
    return false;
  if (certifiesFree(a.lower, b.lower, l) || directionalCertificate(e, a, b)) return true;
  // One endpoint's distance is small: the other must make up the rest.
  if (!bounded(e.sample_a, e.t_a, l - b.lower + slack, a)) return false;
  if (!bounded(e.sample_b, e.t_b, l - a.lower + slack, b)) return false;
  return certifiesFree(a.lower, b.lower, l) || directionalCertificate(e, a, b);
}

double AdaptiveChecker::enclosingBound(std::uint32_t sampleIndex, std::uint32_t pair, double threshold) {
  const Sample& sample = samples_[sampleIndex];
  const BodyPair& p = pairs_[pair];
  const auto link = static_cast<std::size_t>(p.link);
  if (p.obstacle < 0) {
    const auto other = static_cast<std::size_t>(p.other_link);
    return enclosingLowerBound(sample.centres[link], linkSpheres_[link].radius,
                               {sample.centres[other], linkSpheres_[other].radius}, nullptr, Transform::Identity(),
                               threshold, stats_);
  }
  const auto obstacle = static_cast<std::size_t>(p.obstacle);
  return enclosingLowerBound(sample.centres[link], linkSpheres_[link].radius, obstacleSpheres_[obstacle],
                             obstacleBoxes_[obstacle], scene_->obstacles()[obstacle].pose, threshold, stats_);
}

std::uint32_t AdaptiveChecker::cellSample(std::size_t s, std::size_t cell) {
  if (cells_[s][cell] != kNoSample) return cells_[s][cell];
  robot_->interpolate(path_[s], path_[s + 1], cellCentre(cell, cells_[s].size()), splitConfig_);
  // Not shared with the bisection's samples (whose parameters come from
  // distances), so not named: a centre gets its own sample.
  const std::uint32_t m = samples_.fresh(splitConfig_);
  cells_[s][cell] = m;
  Sample& sample = samples_[m];
  // With speed bounds, most probes need some link's speed: the twists come
  // with the poses from one pass over the frames.
  if (motion_[s].hasAccelerations())
    sample.twists.twists(*robot_, static_cast<std::uint32_t>(s), path_[s], path_[s + 1], sample.q, sample.poses);
  if (sample.poses.empty()) robot_->linkPoses(sample.q, sample.poses);
  sample.centres.resize(linkSpheres_.size());
  for (std::size_t i = 0; i < linkSpheres_.size(); ++i) sample.centres[i] = sample.poses[i] * linkSpheres_[i].centre;
  return m;
}

const std::vector<CellBroadPhase::NearPair>* AdaptiveChecker::findNearObstacles(std::size_t s) {
  if (!CellBroadPhase::pays(*scene_, kAdaptiveBroadPhaseObstacles)) return nullptr;
  const std::size_t cells = cells_[s].size();
  for (std::size_t cell = 0; cell < cells; ++cell) cellSample(s, cell);
  // The box a link may sweep over a cell, grown by the certificate's slack:
  // an obstacle whose box misses it is farther than the probe's threshold
  // (probeCentre) at the centre.
  return &broadPhase_.find(
      *scene_, linkSpheres_.size(), cells,
      [&](std::size_t cell, std::size_t link) -> const Eigen::Vector3d& {
        return samples_[cells_[s][cell]].centres[link];
      },
      [&](std::size_t link) {
        const double reach = cellReach(s, cells, link);
        return linkSpheres_[link].radius + reach + certificateSlack(reach);
      },
      stats_);
}

std::optional<AdaptiveChecker::Collision> AdaptiveChecker::probeCells(const std::vector<std::uint32_t>& nodes) {
  const std::size_t segmentCount = path_.size() - 1;
  unsettled_.resize(segmentCount);
  measuredLowers_.resize(segmentCount);
  active_.resize(segmentCount);
  for (std::size_t s = 0; s < segmentCount; ++s) {
    unsettled_[s].clear();
    active_[s].clear();
    const std::size_t cells = cells_[s].size();
    measuredLowers_[s].clear();
    // A pair the broad phase found near only some cells is apart beyond the
    // probes' threshold at the others' centres: those count as measured.
    auto addPair = [&](std::uint32_t p, std::uint64_t nearCells) {
      // A self pair its table certifies along the segment (self_pair_tables).
      if (p >= firstSelfPair_ && !selfPairTables_.empty()) {
        const auto& table = selfPairTables_[p - firstSelfPair_];
        if (table && table->certifiesAlong(path_[s], path_[s + 1])) return;
      }
      // Both ends known (roadmap nodes checked before): SSL 2005, Eq. 1 on
      // the whole segment may settle the pair without a probe.
      const DistanceBound& a = samples_[nodes[s]].bounds[p];
      const DistanceBound& b = samples_[nodes[s + 1]].bounds[p];
      const double unitBound = pairMotionBound(s, p);
      if (a.known() && b.known() && certifiesFree(a.lower, b.lower, unitBound)) return;
      ProbedPair pair{p, 0, 0, std::max(a.lower, 0.0), std::max(b.lower, 0.0)};
      const std::size_t u = unsettled_[s].size();
      measuredLowers_[s].resize((u + 1) * cells);
      const std::uint64_t allCells = cells == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cells) - 1;
      pair.measured = allCells & ~nearCells;
      if (pair.measured != 0) {
        const double reach = cellReach(s, cells, static_cast<std::size_t>(pairs_[p].link));
        const double lower = reach + certificateSlack(reach);
        for (std::uint64_t rest = pair.measured; rest != 0; rest &= rest - 1) {
          const auto cell = static_cast<std::size_t>(std::countr_zero(rest));
          Sample& sample = samples_[cells_[s][cell]];
          if (!sample.bounds[p].known()) sample.touched.push_back(p);
          sample.bounds[p] = DistanceBound{lower, std::numeric_limits<double>::infinity()};
          measuredLowers_[s][u * cells + cell] = lower;
        }
      }
      pair.uncovered = uncoveredStretches(pair, cells, measuredLowers_[s].data() + u * cells, unitBound);
      if (pair.uncovered == 0) {
        measuredLowers_[s].resize(u * cells);
        return;
      }
      active_[s].push_back(static_cast<std::uint32_t>(u));
      unsettled_[s].push_back(pair);
    };
    if (const auto* near = findNearObstacles(s)) {
      // An obstacle pair the broad phase left out is apart on the whole segment.
      for (const CellBroadPhase::NearPair& pair : *near) addPair(pair.pair, pair.cells);
      for (auto p = static_cast<std::uint32_t>(firstSelfPair_); p < pairs_.size(); ++p) addPair(p, ~std::uint64_t{0});
    } else {
      for (std::uint32_t p = 0; p < pairs_.size(); ++p) addPair(p, ~std::uint64_t{0});
    }
  }
  return schedule_.inRounds(cells_.size(), cellsOf(),
                            [&](std::size_t s, std::size_t cell) { return probeCentre(s, cell, nodes); });
}

std::optional<AdaptiveChecker::Collision> AdaptiveChecker::probeCentre(std::size_t s, std::size_t cell,
                                                                       const std::vector<std::uint32_t>& nodes) {
  const std::size_t cells = cells_[s].size();
  const double t = cellCentre(cell, cells);
  const std::uint32_t m = cellSample(s, cell);
  const double half = 0.5 / static_cast<double>(cells);
  std::vector<std::uint32_t>& active = active_[s];
  for (std::size_t k = 0; k < active.size();) {
    const std::uint32_t u = active[k];
    ProbedPair& unsettled = unsettled_[s][u];
    // Measured already: the broad phase put the pair's obstacle beyond this cell.
    if (unsettled.measured >> cell & 1u) {
      ++k;
      continue;
    }
    const std::uint32_t p = unsettled.pair;
    const double unitBound = pairMotionBound(s, p);
    // The pair's nearest measured samples either side may already certify
    // the stretch between them (SSL 2005, Eq. 1): a pair far from contact is
    // measured at few of the centres.
    const MeasuredNeighbours around =
        measuredNeighbours(unsettled, cell, cells_[s], measuredLowers_[s].data() + u * cells, nodes[s], nodes[s + 1]);
    if (certifiesFree(around.lower_left, around.lower_right, unitBound * (around.t_right - around.t_left))) {
      ++k;
      continue;
    }
    // Otherwise the probe's cell reaches half a cell either side: a distance
    // above the pair's motion bound over half a cell certifies it.
    double reach = half * unitBound;
    double threshold = reach + certificateSlack(reach);
    double lower = enclosingBound(m, p, threshold);
    Sample& sample = samples_[m];
    if (lower < threshold && motion_[s].hasAccelerations() && pairs_[p].obstacle >= 0) {
      // The link's speed bound here and the segment's acceleration bound (the
      // tent of motionBound, one side of it) may reach less far.
      reach = std::min(reach, linkHalfReach(segmentMotion(static_cast<std::uint32_t>(s)),
                                            static_cast<std::size_t>(pairs_[p].link), end(m), 2.0 * half));
      threshold = reach + certificateSlack(reach);
    }
    if (lower >= threshold) {
      if (!sample.bounds[p].known()) sample.touched.push_back(p);
      sample.bounds[p] = DistanceBound{lower, std::numeric_limits<double>::infinity()};
    } else {
      const std::uint32_t hint = t - around.t_left <= around.t_right - t ? around.left : around.right;
      const auto d = ensure(m, p, threshold, hint);
      if (!d) return Collision{s, t};
      lower = std::max(d->lower, 0.0);
    }
    unsettled.measured |= std::uint64_t{1} << cell;
    measuredLowers_[s][u * cells + cell] = lower;
    // The centre splits an uncovered stretch in two; a pair with none left
    // is certified on the whole segment and leaves the probes' list.
    unsettled.uncovered += (certifiesFree(around.lower_left, lower, unitBound * (t - around.t_left)) ? 0 : 1) +
                           (certifiesFree(lower, around.lower_right, unitBound * (around.t_right - t)) ? 0 : 1) - 1;
    if (unsettled.uncovered == 0) {
      active[k] = active.back();
      active.pop_back();
    } else {
      ++k;
    }
  }
  return std::nullopt;
}

void AdaptiveChecker::startSegment(std::size_t s, const std::vector<std::uint32_t>& nodes,
                                   std::optional<Collision>& collision) {
  const auto segment = static_cast<std::uint32_t>(s);
  const std::size_t cells = cells_[s].size();
  for (const ProbedPair& unsettled : unsettled_[s]) {
    if (unsettled.uncovered == 0) continue;  // certified between its measured samples
    const std::uint32_t p = unsettled.pair;
    // The segment's node, the centres where the pair was measured and its
    // other node, in order: SSL 2005, Eq. 1 between neighbours (an unknown
    // distance counts as 0).
    std::uint32_t previous = nodes[s];
    double tPrevious = 0.0;
    std::uint64_t rest = unsettled.measured;
    while (true) {
      const bool last = rest == 0;
      const auto cell = last ? cells : static_cast<std::size_t>(std::countr_zero(rest));
      const std::uint32_t next = last ? nodes[s + 1] : cells_[s][cell];
      const double tNext = last ? 1.0 : cellCentre(cell, cells);
      rest &= rest - 1;
      const Element e{0.0, p, segment, previous, next, tPrevious, tNext};
      previous = next;
      tPrevious = tNext;
      const double lowerA = std::max(samples_[e.sample_a].bounds[p].lower, 0.0);
      const double lowerB = std::max(samples_[e.sample_b].bounds[p].lower, 0.0);
      if (!certifiesFree(lowerA, lowerB, pairMotionBound(s, p) * (e.t_b - e.t_a))) {
        const double l = motionBound(e);
        if (!certifiesFree(lowerA, lowerB, l) && !certify(e, l, collision)) {
          if (collision) return;
          pushElement(e, l);
        }
      }
      if (last) break;
    }
  }
}

void AdaptiveChecker::pushElement(const Element& e, double l) {
  Element element = e;
  element.priority = l - samples_[e.sample_a].bounds[e.pair].lower - samples_[e.sample_b].bounds[e.pair].lower;
  queue_.push(element);
  ++stats_.strategy[kQueuePushes];
  ++open_[e.segment];
}

std::optional<AdaptiveChecker::Collision> AdaptiveChecker::bisectQueued() {
  std::size_t steps = 0;
  while (!queue_.empty()) {
    const Element e = queue_.top();
    queue_.pop();
    const double l = motionBound(e);
    if (l <= eta_ || ++steps > settings_.max_bisection_steps) {
      ++stats_.strategy[kUnresolvedAsColliding];
      return Collision{e.segment, 0.5 * (e.t_a + e.t_b)};
    }
    ++stats_.strategy[kBisectionSteps];
    // The endpoint distances certify [t_a, t_a + d_a/L] and [t_b - d_b/L, t_b]
    // (SSL 2005, Eq. 1 with one end free); bisect the gap between them rather
    // than the whole interval, so that both halves need the same distance at
    // the split. Clamped to the middle half so that every step makes progress.
    const double da = samples_[e.sample_a].bounds[e.pair].lower;
    const double db = samples_[e.sample_b].bounds[e.pair].lower;
    const double width = e.t_b - e.t_a;
    // The split point and its distance threshold only steer the search (each
    // half gets its own bound below), so the average speed serves.
    const double unitBound = l / width;
    const double tm =
        std::clamp(0.5 * (e.t_a + e.t_b) + 0.5 * (da - db) / unitBound, e.t_a + 0.25 * width, e.t_b - 0.25 * width);
    const double needed = std::max((tm - e.t_a) * unitBound - da, (e.t_b - tm) * unitBound - db);
    robot_->interpolate(path_[e.segment], path_[e.segment + 1], tm, splitConfig_);
    const std::uint32_t m = samples_.split(e.segment, tm, splitConfig_);
    if (!ensure(m, e.pair, std::max(needed, 0.0) + 1e-3 * eta_, tm - e.t_a < e.t_b - tm ? e.sample_a : e.sample_b))
      return Collision{e.segment, tm};
    const Element halves[] = {{0.0, e.pair, e.segment, e.sample_a, m, e.t_a, tm},
                              {0.0, e.pair, e.segment, m, e.sample_b, tm, e.t_b}};
    for (const Element& half : halves) {
      const double halfBound = motionBound(half);
      std::optional<Collision> collision;
      if (!certify(half, halfBound, collision)) {
        if (collision) return collision;
        pushElement(half, halfBound);
      }
    }
    --open_[e.segment];
  }
  return std::nullopt;
}

PathResult AdaptiveChecker::checkSegments(std::span<const Config> path, bool oneQueue, bool staticFirst) {
  const std::size_t segmentCount = path.size() - 1;
  path_ = path;
  cells_.resize(segmentCount);
  for (std::size_t s = 0; s < segmentCount; ++s)
    cells_[s].assign(
        static_cast<std::size_t>(probeCellCount(*robot_, path[s], path[s + 1], settings_.probes, settings_.probe_step)),
        kNoSample);
  if (staticFirst) {
    std::vector<std::size_t> counts(segmentCount);
    for (std::size_t s = 0; s < segmentCount; ++s) counts[s] = cells_[s].size();
    if (const auto hit = staticProbes(schedule_, *robot_, path, counts, collision_, stats_, splitConfig_, &staticFree_,
                                      settings_.cache_nodes))
      return collidingPath(segmentCount, hit->segment, hit->t);
  }

  samples_.startCheck();
  motion_.resize(segmentCount);
  const bool accelerations = settings_.speed_bounds && robot_->hasSpeedBounds();
  for (std::size_t s = 0; s < segmentCount; ++s) motion_[s].compute(*robot_, path[s], path[s + 1], accelerations);
  std::vector<std::uint32_t> nodes;
  for (const Config& q : path) nodes.push_back(samples_.node(q));

  queue_ = {};
  open_.assign(segmentCount, 0);  // unresolved elements per segment
  std::size_t segmentsStarted = 0;
  std::optional<Collision> collision = probeCells(nodes);
  // Every segment is probed before any is certified; then the segments share
  // one queue (SSL 2005, Sec. 5) or are certified one by one in path order.
  for (std::size_t s = 0; s < segmentCount && !collision; ++s) {
    startSegment(s, nodes, collision);
    if (collision) break;
    segmentsStarted = s + 1;
    if (!oneQueue) collision = bisectQueued();
  }
  if (!collision && oneQueue) collision = bisectQueued();

  samples_.keepNodeBounds(nodes);

  PathResult result;
  result.segments.resize(segmentCount);
  if (collision) result = collidingPath(segmentCount, collision->segment, collision->t);
  for (std::size_t s = 0; s < segmentsStarted; ++s)
    if (open_[s] == 0 && !(collision && collision->segment == s)) result.segments[s] = EdgeResult{};
  return result;
}

void AdaptiveChecker::doStartRounds() { samples_.nodeBounds().startRounds(); }

void AdaptiveChecker::doEndRound() { samples_.nodeBounds().endRound(); }

void AdaptiveChecker::doStopRounds() { samples_.nodeBounds().stopRounds(); }

}  // namespace prmkit
