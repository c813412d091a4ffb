#include "checkers/spheres_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace prmkit {

namespace {

/// The robot's spheres, or spheres fitted to contain each link's mesh.
std::shared_ptr<const std::vector<std::vector<Sphere>>> chooseSpheres(const Robot& robot,
                                                                      const SpheresSettings& settings, bool& given) {
  const bool robotHas =
      std::any_of(robot.links().begin(), robot.links().end(), [](const Link& link) { return !link.spheres.empty(); });
  if (settings.model == SpheresSettings::Model::Given && !robotHas)
    throw std::invalid_argument(
        "checker spheres: model 'given' needs the robot's spheres (robot.spheres: a spherized URDF)");
  given = robotHas && settings.model != SpheresSettings::Model::Fitted;
  auto spheres = std::make_shared<std::vector<std::vector<Sphere>>>();
  for (const Link& link : robot.links())
    spheres->push_back(given ? link.spheres : containingSpheres(link.mesh, settings.spheres_per_link));
  return spheres;
}

}  // namespace

SpheresChecker::SpheresChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                               SpheresSettings settings)
    : Checker(robot, scene, kCounters),
      settings_(settings),
      spheres_((validateFields(settings_, "spheres"), chooseSpheres(*robot, settings_, given_))),
      kernel_(robot, scene, *spheres_) {
  if (settings_.certify == SpheresSettings::Certify::Containing) makeCertifier();
}

SpheresChecker::SpheresChecker(const SpheresChecker& other)
    : Checker(other.robot_, other.scene_, kCounters),
      settings_(other.settings_),
      given_(other.given_),
      spheres_(other.spheres_),
      kernel_(other.robot_, other.scene_, *other.spheres_) {
  if (other.proof_) {
    proof_ = std::make_unique<ContainingProof>(*other.proof_);
    exact_.reset(static_cast<AdaptiveChecker*>(other.exact_->clone().release()));
    auto copy = [](const std::unique_ptr<AdaptiveChecker>& from, std::unique_ptr<AdaptiveChecker>& to) {
      if (from) to.reset(static_cast<AdaptiveChecker*>(from->clone().release()));
    };
    copy(other.pairsExact_, pairsExact_);
  }
}

void SpheresChecker::makeCertifier() {
  const double step = settings_.growth_step > 0 ? settings_.growth_step : 1e-3 * problemSize(*scene_, *robot_);
  proof_ = std::make_unique<ContainingProof>(robot_, scene_, settings_.containing_spheres_per_link, step);
  AdaptiveSettings withTables;
  withTables.self_pair_tables = true;
  exact_ = std::make_unique<AdaptiveChecker>(robot_, scene_, withTables);
  std::vector<std::pair<int, int>> left = proof_->nearPairs();
  left.insert(left.end(), proof_->tabledPairs().begin(), proof_->tabledPairs().end());
  if (!left.empty()) {
    // The same eta as the whole check's: the empty scene's default would follow the robot alone.
    withTables.eta = exact_->eta();
    pairsExact_ =
        std::make_unique<AdaptiveChecker>(robot_->withSelfCollisionPairs(left), std::make_shared<Scene>(), withTables);
  }
}

Checker* SpheresChecker::pairsLeft(bool tablesCertify) const {
  return tablesCertify && proof_->nearPairs().empty() ? nullptr : pairsExact_.get();
}

EdgeResult SpheresChecker::certifiedMotion(const Config& a, const Config& b,
                                           EdgeResult (Checker::*exactCheck)(const Config&, const Config&)) {
  double suspect = std::numeric_limits<double>::quiet_NaN();
  if (proof_->freeAlong(a, b, stats_, &suspect)) {
    EdgeResult result;
    if (Checker* rest = pairsLeft(proof_->tabledFreeAlong(a, b))) {
      result = (rest->*exactCheck)(a, b);
      absorb(*rest);
    }
    if (result.verdict == Verdict::Free) ++stats_.strategy[kContainingProofs];
    return result;
  }
  ++stats_.strategy[kExactFallbacks];
  // Most motions the containing spheres cannot prove collide. The link
  // spheres' raked samples (tight, approximate) find a likely collision
  // first, and the containing proof's last failing sample is the next
  // guess: one exact static check at either (inside the motion) decides
  // those motions, exactly, before the whole exact check.
  const std::size_t n = std::max<std::size_t>(2, segmentCount(*robot_, settings_.sampling, a, b));
  const bool withEnd = exactCheck == &Checker::checkMove;
  const EdgeResult raked = rake(a, b, n, 1, withEnd ? n : n - 1);
  for (const double t : {raked.witness_t, suspect})
    if (confirmedColliding(a, b, t)) return EdgeResult{Verdict::Colliding, 100.0, t};
  const EdgeResult result = (exact_.get()->*exactCheck)(a, b);
  absorb(*exact_);
  return result;
}

void SpheresChecker::absorb(Checker& exact) {
  const CheckStats done = exact.stats();
  exact.resetStats();
  QueryCounts& mine = stats_;
  QueryCounts::forEachField([&](std::string_view, auto member, std::string_view) { mine.*member += done.*member; });
  stats_.strategy[kBisectionSteps] += done.strategy.value(kBisectionStepsCounter.name);
  stats_.strategy[kUnresolved] += done.strategy.value(kUnresolvedCounter.name);
}

std::string SpheresChecker::description() const {
  std::size_t count = 0;
  for (const auto& link : *spheres_) count += link.size();
  const std::string sampling = settings_.sampling.space == DiscreteSettings::Space::CSpace
                                   ? fmt::format("{:g}% of the C-space extent", 100 * settings_.sampling.resolution)
                                   : fmt::format("eps {:g} m in workspace", settings_.sampling.eps);
  if (proof_) {
    std::size_t containing = 0;
    for (const auto& link : proof_->linkSpheres()) containing += link.size();
    return fmt::format(
        "spheres, certify: containing ({} spheres fitted to contain the links, at most {} a link, {} lanes; "
        "{} self pairs tabled over their joints ({:.1f}% certified, {} distance queries), {} always near, left to "
        "adaptive; what they cannot prove, to adaptive)",
        containing, settings_.containing_spheres_per_link, kSphereLanes, proof_->tabledPairs().size(),
        100 * proof_->tabledShare(), proof_->tableQueries(), proof_->nearPairs().size());
  }
  return fmt::format("spheres ({} {} spheres, {}, {} lanes{})", count,
                     given_ ? "given" : fmt::format("fitted (at most {} a link)", settings_.spheres_per_link), sampling,
                     kSphereLanes,
                     settings_.certify == SpheresSettings::Certify::Path ? ", paths certified by adaptive" : "");
}

std::unique_ptr<Checker> SpheresChecker::clone() const { return std::unique_ptr<Checker>(new SpheresChecker(*this)); }

std::unique_ptr<Checker> SpheresChecker::makeForRobot(std::shared_ptr<const Robot> robot) const {
  return std::make_unique<SpheresChecker>(std::move(robot), scene_, settings_);
}

LaneMask SpheresChecker::collidingBatch(std::span<const Config> configs) {
  if (configs.empty() || configs.size() > kSphereLanes)
    throw std::invalid_argument(fmt::format("a batch holds 1 to {} configurations", kSphereLanes));
  std::array<const Config*, kSphereLanes> lanes;
  for (std::size_t i = 0; i < kSphereLanes; ++i) lanes[i] = &configs[std::min(i, configs.size() - 1)];
  const LaneMask used = configs.size() == 32 ? ~LaneMask{0} : (LaneMask{1} << configs.size()) - 1;
  stats_.static_queries += configs.size();
  return kernel_.collidingLanes(lanes, false, stats_) & used;
}

bool SpheresChecker::doIsValid(const Config& q) {
  if (proof_) {
    // One configuration is one static query, whichever check decides it.
    const std::uint64_t before = stats_.static_queries;
    const bool free = certifiedValid(q);
    stats_.static_queries = before + 1;
    return free;
  }
  std::array<const Config*, kSphereLanes> lanes;
  lanes.fill(&q);
  ++stats_.static_queries;
  return kernel_.collidingLanes(lanes, true, stats_) == 0;
}

bool SpheresChecker::certifiedValid(const Config& q) {
  if (proof_->freeAt(q, stats_)) {
    bool free = true;
    if (Checker* rest = pairsLeft(proof_->tabledFreeAt(q))) {
      free = rest->isValid(q);
      absorb(*rest);
    }
    if (free) ++stats_.strategy[kContainingProofs];
    return free;
  }
  ++stats_.strategy[kExactFallbacks];
  const bool free = exact_->isValid(q);
  absorb(*exact_);
  return free;
}

EdgeResult SpheresChecker::doCheckEdge(const Config& a, const Config& b) {
  if (proof_) return certifiedMotion(a, b, &Checker::checkEdge);
  // Samples 1 .. n-1 of n segments: the endpoints are checked apart.
  const std::size_t n = segmentCount(*robot_, settings_.sampling, a, b);
  if (n < 2) return EdgeResult{};
  return rake(a, b, n, 1, n - 1);
}

PathResult SpheresChecker::doCheckPath(std::span<const Config> path) {
  if (!proof_) return Checker::doCheckPath(path);
  // Most paths a lazy planner checks collide: every segment is first raked
  // by the link spheres (approximate, cheap), and the first hit confirmed by
  // one exact static check decides the path, exactly, before any proof, as
  // `adaptive`'s static path probes do.
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const std::size_t n = std::max<std::size_t>(2, segmentCount(*robot_, settings_.sampling, path[i], path[i + 1]));
    const EdgeResult raked = rake(path[i], path[i + 1], n, 1, n - 1);
    if (raked.verdict != Verdict::Colliding || !confirmedColliding(path[i], path[i + 1], raked.witness_t)) continue;
    PathResult result = collidingPath(path.size() - 1, i, raked.witness_t);
    return result;
  }
  return Checker::doCheckPath(path);
}

bool SpheresChecker::confirmedColliding(const Config& a, const Config& b, double t) {
  if (!std::isfinite(t)) return false;
  robot_->interpolate(a, b, t, samples_[0]);
  const bool valid = exact_->isValid(t == 1.0 ? b : samples_[0]);
  absorb(*exact_);
  if (valid) return false;
  ++stats_.strategy[kConfirmedGuesses];
  return true;
}

EdgeResult SpheresChecker::doCheckMove(const Config& a, const Config& b) {
  // The proof's samples hold the end: the end and the motion in one proof.
  if (proof_) return certifiedMotion(a, b, &Checker::checkMove);
  // The end is the first round's first lane: one kernel call fewer a move.
  const std::size_t n = std::max<std::size_t>(1, segmentCount(*robot_, settings_.sampling, a, b));
  return rake(a, b, n, 1, n);
}

EdgeResult SpheresChecker::rake(const Config& a, const Config& b, std::size_t n, std::size_t first, std::size_t last) {
  const std::size_t count = last - first + 1;
  const std::size_t rounds = (count + kSphereLanes - 1) / kSphereLanes;
  std::array<const Config*, kSphereLanes> lanes;
  std::array<std::size_t, kSphereLanes> index{};
  // The rounds' order, kept for the counts most motions have (no
  // allocation a motion); a longer motion's computed for it alone.
  constexpr std::size_t kKeptOrders = 256;
  std::vector<int> ownOrder;
  const std::vector<int>& order = rounds <= kKeptOrders ? rakeOrders_.order(rounds) : (ownOrder = spreadOrder(rounds));
  for (const int s : order) {
    const auto round = static_cast<std::size_t>(s);
    for (std::size_t j = 0; j < kSphereLanes; ++j) {
      // Lanes past the start repeat the first sample.
      const std::size_t back = round + j * rounds;
      index[j] = back < count ? last - back : first;
      if (index[j] == n) {
        lanes[j] = &b;
        continue;
      }
      robot_->interpolate(a, b, static_cast<double>(index[j]) / static_cast<double>(n), samples_[j]);
      lanes[j] = &samples_[j];
    }
    // The distinct samples of this round.
    stats_.static_queries += std::min(kSphereLanes, (count - round + rounds - 1) / rounds);
    if (const LaneMask hits = kernel_.collidingLanes(lanes, true, stats_)) {
      const std::size_t lane = static_cast<std::size_t>(std::countr_zero(hits));
      return EdgeResult{Verdict::Colliding, 100.0, static_cast<double>(index[lane]) / static_cast<double>(n)};
    }
  }
  return EdgeResult{};
}

}  // namespace prmkit
