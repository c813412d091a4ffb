#include "checkers/discrete_checker.h"

#include <fmt/format.h>

#include <cmath>
#include <deque>
#include <stdexcept>

namespace prmkit {

DiscreteChecker::DiscreteChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                                 DiscreteSettings settings)
    : Checker(robot, scene), settings_(settings), collision_(robot, scene, settings.geometry) {
  validateFields(settings_, "discrete");
}

std::string DiscreteChecker::description() const {
  const char* order = settings_.order == DiscreteSettings::Order::Bisection ? "bisection" : "sequential";
  if (settings_.space == DiscreteSettings::Space::CSpace)
    return fmt::format("discrete ({:g}% of the C-space extent, {}, geometry {})", 100 * settings_.resolution, order,
                       geometryName(settings_.geometry));
  return fmt::format("discrete (eps {:g} m in workspace, {}, geometry {})", settings_.eps, order,
                     geometryName(settings_.geometry));
}

std::unique_ptr<Checker> DiscreteChecker::clone() const {
  return std::unique_ptr<Checker>(new DiscreteChecker(robot_, scene_, settings_));
}

std::unique_ptr<Checker> DiscreteChecker::makeForRobot(std::shared_ptr<const Robot> robot) const {
  return std::make_unique<DiscreteChecker>(std::move(robot), scene_, settings_);
}

bool DiscreteChecker::doIsValid(const Config& q) { return !collision_.inCollision(q, stats_); }

std::size_t segmentCount(const Robot& robot, const DiscreteSettings& settings, const Config& a, const Config& b) {
  const double n = settings.space == DiscreteSettings::Space::CSpace
                       ? robot.distance(a, b) / (settings.resolution * robot.maxExtent())
                       : robot.maxMotionBound(a, b) / settings.eps;
  // A step so small that the count leaves the integers would check only the
  // endpoints after the cast; refuse it instead.
  if (!(n <= static_cast<double>(kMaxSegments)))
    throw std::invalid_argument(
        fmt::format("the discretization step ({}) is too small: this edge would need {:.3g} samples (at most {:g})",
                    settings.space == DiscreteSettings::Space::CSpace
                        ? fmt::format("resolution {:g} of the C-space extent", settings.resolution)
                        : fmt::format("eps {:g} m", settings.eps),
                    n, static_cast<double>(kMaxSegments)));
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(n)));
}

EdgeResult DiscreteChecker::doCheckEdge(const Config& a, const Config& b) {
  const std::size_t n = segmentCount(a, b);
  auto collidesAt = [&](std::size_t i) {
    const double t = static_cast<double>(i) / static_cast<double>(n);
    robot_->interpolate(a, b, t, sample_);
    return collision_.inCollision(sample_, stats_);
  };
  auto colliding = [&](std::size_t i) { return EdgeResult{Verdict::Colliding, 100.0, static_cast<double>(i) / n}; };
  if (n < 2) return EdgeResult{};
  if (settings_.order == DiscreteSettings::Order::Sequential) {
    for (std::size_t i = 1; i < n; ++i)
      if (collidesAt(i)) return colliding(i);
    return EdgeResult{};
  }
  // Interior sample indices [1, n-1], midpoint of each interval first.
  std::deque<std::pair<std::size_t, std::size_t>> intervals{{1, n - 1}};
  while (!intervals.empty()) {
    const auto [lo, hi] = intervals.front();
    intervals.pop_front();
    const std::size_t mid = lo + (hi - lo) / 2;
    if (collidesAt(mid)) return colliding(mid);
    if (mid > lo) intervals.emplace_back(lo, mid - 1);
    if (mid < hi) intervals.emplace_back(mid + 1, hi);
  }
  return EdgeResult{};
}

}  // namespace prmkit
