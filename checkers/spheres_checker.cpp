#include "checkers/spheres_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
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
      kernel_(robot, scene, *spheres_) {}

SpheresChecker::SpheresChecker(const SpheresChecker& other)
    : Checker(other.robot_, other.scene_, kCounters),
      settings_(other.settings_),
      given_(other.given_),
      spheres_(other.spheres_),
      kernel_(other.robot_, other.scene_, *other.spheres_) {}

std::string SpheresChecker::description() const {
  std::size_t count = 0;
  for (const auto& link : *spheres_) count += link.size();
  const std::string sampling = settings_.sampling.space == DiscreteSettings::Space::CSpace
                                   ? fmt::format("{:g}% of the C-space extent", 100 * settings_.sampling.resolution)
                                   : fmt::format("eps {:g} m in workspace", settings_.sampling.eps);
  return fmt::format("spheres ({} {} spheres, {}, {} lanes{})", count,
                     given_ ? "given" : fmt::format("fitted (at most {} a link)", settings_.spheres_per_link), sampling,
                     kSphereLanes,
                     settings_.certify == SpheresSettings::Certify::Path ? ", paths certified by adaptive" : "");
}

std::unique_ptr<Checker> SpheresChecker::clone() const { return std::unique_ptr<Checker>(new SpheresChecker(*this)); }

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
  std::array<const Config*, kSphereLanes> lanes;
  lanes.fill(&q);
  ++stats_.static_queries;
  return kernel_.collidingLanes(lanes, true, stats_) == 0;
}

EdgeResult SpheresChecker::doCheckEdge(const Config& a, const Config& b) {
  // Samples 1 .. n-1 of n segments: the endpoints are checked apart.
  const std::size_t n = segmentCount(*robot_, settings_.sampling, a, b);
  if (n < 2) return EdgeResult{};
  return rake(a, b, n, 1, n - 1);
}

EdgeResult SpheresChecker::doCheckMove(const Config& a, const Config& b) {
  // The end is the first round's first lane: one kernel call fewer a move.
  const std::size_t n = std::max<std::size_t>(1, segmentCount(*robot_, settings_.sampling, a, b));
  return rake(a, b, n, 1, n);
}

EdgeResult SpheresChecker::rake(const Config& a, const Config& b, std::size_t n, std::size_t first, std::size_t last) {
  const std::size_t count = last - first + 1;
  const std::size_t rounds = (count + kSphereLanes - 1) / kSphereLanes;
  std::array<const Config*, kSphereLanes> lanes;
  std::array<std::size_t, kSphereLanes> index{};
  for (const int s : spreadOrder(rounds)) {
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
