#include "checkers/containing_proof.h"

#include "checkers/checker.h"
#include "base/random.h"
#include "robots/kinematic_chain.h"

#include <algorithm>
#include <cmath>

namespace prmkit {

namespace {

/// Configurations drawn to find the always-near self pairs, and the share of
/// them at which a pair's spheres must meet to be one. A pair near less
/// often is cheaper in the spheres, left to the exact checks only where
/// they meet: on the MotionBenchMaker Panda, the pairs the tables leave meet
/// at 5-20% of configurations, and leaving the six that meet at more than
/// 5% to adaptive on every motion doubled the median motion's time.
constexpr std::size_t kNearPairSamples = 256;
constexpr double kNearPairFraction = 0.5;
/// The finest cut of a motion: one with still more to cut is left to the exact checks.
constexpr std::size_t kMostIntervals = std::size_t{1} << 16;
/// Kernel batches one motion's proof may take (kSphereLanes samples each).
constexpr std::size_t kMostBatches = 16;

std::shared_ptr<const std::vector<std::vector<Sphere>>> fitted(const Robot& robot, std::size_t spheresPerLink) {
  auto spheres = std::make_shared<std::vector<std::vector<Sphere>>>();
  for (const Link& link : robot.links()) spheres->push_back(containingSpheres(link.mesh, spheresPerLink));
  return spheres;
}

/// The kernel's options: the self pairs but the near and the tabled ones, bodies as solids.
SphereKernelOptions proofOptions(const Robot& robot, const std::vector<std::pair<int, int>>& near,
                                 const std::vector<std::pair<int, int>>& tabled) {
  SphereKernelOptions options;
  options.self_pairs.emplace();
  for (const auto& pair : robot.selfCollisionPairs())
    if (std::find(near.begin(), near.end(), pair) == near.end() &&
        std::find(tabled.begin(), tabled.end(), pair) == tabled.end())
      options.self_pairs->push_back(pair);
  options.solid_links = true;
  return options;
}

std::vector<std::pair<int, int>> without(const std::vector<std::pair<int, int>>& all,
                                         const std::vector<std::pair<int, int>>& leave) {
  std::vector<std::pair<int, int>> rest;
  for (const auto& pair : all)
    if (std::find(leave.begin(), leave.end(), pair) == leave.end()) rest.push_back(pair);
  return rest;
}

}  // namespace

ContainingProof::Tables ContainingProof::tabulate(const Robot& robot) {
  Tables out;
  const auto* chain = dynamic_cast<const KinematicChain*>(&robot);
  if (!chain) return out;
  for (const auto& [i, k] : robot.selfCollisionPairs()) {
    auto table =
        SelfPairTable::shared(*chain, static_cast<std::size_t>(i), static_cast<std::size_t>(k), kSelfPairTableDepth);
    if (!table) continue;
    out.pairs.emplace_back(i, k);
    out.queries += table->queries();
    out.tables.push_back(std::move(table));
  }
  return out;
}

namespace {}  // namespace

std::vector<std::pair<int, int>> alwaysNearPairs(const Robot& robot, const std::vector<std::vector<Sphere>>& spheres,
                                                 const std::vector<std::pair<int, int>>& pairs,
                                                 std::size_t configurations, double fraction) {
  std::vector<std::size_t> meets(pairs.size(), 0);
  Random rng(1);
  Config q;
  std::vector<Transform> poses;
  std::vector<std::vector<Eigen::Vector3d>> world(spheres.size());
  for (std::size_t c = 0; c < configurations; ++c) {
    robot.sampleUniform(rng, q);
    robot.linkPoses(q, poses);
    for (std::size_t link = 0; link < spheres.size() && link < poses.size(); ++link) {
      world[link].clear();
      for (const Sphere& s : spheres[link]) world[link].push_back(poses[link] * s.centre);
    }
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const auto i = static_cast<std::size_t>(pairs[p].first), k = static_cast<std::size_t>(pairs[p].second);
      bool meet = false;
      for (std::size_t s = 0; s < world[i].size() && !meet; ++s)
        for (std::size_t t = 0; t < world[k].size() && !meet; ++t)
          meet = (world[i][s] - world[k][t]).norm() <= spheres[i][s].radius + spheres[k][t].radius;
      meets[p] += meet;
    }
  }
  std::vector<std::pair<int, int>> near;
  for (std::size_t p = 0; p < pairs.size(); ++p)
    if (static_cast<double>(meets[p]) > fraction * static_cast<double>(configurations)) near.push_back(pairs[p]);
  return near;
}

ContainingProof::ContainingProof(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                                 std::size_t spheresPerLink, double growthStep)
    : robot_(std::move(robot)),
      scene_(std::move(scene)),
      growthStep_(growthStep),
      spheres_(fitted(*robot_, spheresPerLink)),
      tabled_(std::make_shared<const Tables>(tabulate(*robot_))),
      nearPairs_(alwaysNearPairs(*robot_, *spheres_, without(robot_->selfCollisionPairs(), tabled_->pairs),
                                 kNearPairSamples, kNearPairFraction)),
      kernel_(robot_, scene_, *spheres_, proofOptions(*robot_, nearPairs_, tabled_->pairs)) {}

ContainingProof::ContainingProof(const ContainingProof& other)
    : robot_(other.robot_),
      scene_(other.scene_),
      growthStep_(other.growthStep_),
      spheres_(other.spheres_),
      tabled_(other.tabled_),
      nearPairs_(other.nearPairs_),
      kernel_(robot_, scene_, *spheres_, proofOptions(*robot_, nearPairs_, tabled_->pairs)) {}

double ContainingProof::tabledShare() const {
  if (tabled_->tables.empty()) return 1.0;
  double sum = 0.0;
  for (const auto& table : tabled_->tables) sum += table->certifiedShare();
  return sum / static_cast<double>(tabled_->tables.size());
}

bool ContainingProof::tabledFreeAt(const Config& q) const {
  return std::all_of(tabled_->tables.begin(), tabled_->tables.end(),
                     [&](const auto& table) { return table->certifiesAt(q); });
}

bool ContainingProof::tabledFreeAlong(const Config& a, const Config& b) const {
  return std::all_of(tabled_->tables.begin(), tabled_->tables.end(),
                     [&](const auto& table) { return table->certifiesAlong(a, b); });
}

bool ContainingProof::freeAt(const Config& q, CheckStats& stats) {
  std::array<const Config*, kSphereLanes> lanes;
  lanes.fill(&q);
  kernel_.setGrowth({});
  return kernel_.collidingLanes(lanes, true, stats) == 0;
}

bool ContainingProof::freeAlong(const Config& a, const Config& b, CheckStats& stats, double* suspect) {
  // Intervals of the motion, each stood for by the sample at its centre
  // with every link's spheres grown by how far the link moves over half the
  // interval (Robot::motionBound bounds every piece of an edge by its
  // share). The first round cuts the motion into one interval a lane;
  // an interval whose sample meets something is cut in two for the next
  // round, as SSL 2005's bisection cuts a motion where its certificate
  // fails, until the growth would fall below growthStep: then the proof
  // fails. A motion far from everything is proved by one batch.
  const std::size_t links = robot_->links().size();
  robot_->motionBounds(a, b, bounds_, selfBounds_);
  double largest = 0.0;
  for (const double bound : bounds_) largest = std::max(largest, bound);
  if (!std::isfinite(largest)) return false;
  growth_.resize(links);
  selfGrowth_.resize(selfBounds_.size());
  // Intervals of the current round as (index, count): [index / count, (index + 1) / count].
  intervals_.clear();
  for (std::size_t j = 0; j < kSphereLanes; ++j) intervals_.push_back(j);
  std::size_t count = kSphereLanes;
  std::array<const Config*, kSphereLanes> lanes;
  bool free = true;
  std::size_t batches = 0;
  while (free && !intervals_.empty()) {
    const double half = 0.5 / static_cast<double>(count);
    for (std::size_t l = 0; l < links; ++l) growth_[l] = bounds_[l] * half;
    for (std::size_t p = 0; p < selfBounds_.size(); ++p) selfGrowth_[p] = selfBounds_[p] * half;
    kernel_.setGrowth(growth_, selfGrowth_);
    // Growth at most growthStep: the last round that may cut its intervals.
    const bool finest = largest * half <= growthStep_;
    next_.clear();
    for (std::size_t first = 0; first < intervals_.size() && free; first += kSphereLanes) {
      const std::size_t used = std::min(kSphereLanes, intervals_.size() - first);
      for (std::size_t j = 0; j < kSphereLanes; ++j) {
        // Lanes past the round's last interval repeat its first one.
        const std::size_t interval = intervals_[first + (j < used ? j : 0)];
        robot_->interpolate(a, b, (static_cast<double>(interval) + 0.5) / static_cast<double>(count), samples_[j]);
        lanes[j] = &samples_[j];
      }
      stats.static_queries += used;
      const LaneMask hits = kernel_.collidingLanes(lanes, finest, stats);
      // Past its budget a proof gives up at its next hit: a motion that
      // needs so many samples is near something along much of its length,
      // and usually collides.
      const bool spent = ++batches >= kMostBatches;
      for (std::size_t j = 0; j < used && free; ++j) {
        if (!(hits >> j & 1)) continue;
        if (finest || spent || count >= kMostIntervals) {
          free = false;
          if (suspect) *suspect = (static_cast<double>(intervals_[first + j]) + 0.5) / static_cast<double>(count);
        } else {
          next_.push_back(2 * intervals_[first + j]);
          next_.push_back(2 * intervals_[first + j] + 1);
        }
      }
    }
    intervals_.swap(next_);
    count *= 2;
  }
  kernel_.setGrowth({});
  return free;
}

}  // namespace prmkit
