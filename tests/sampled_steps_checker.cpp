#include "sampled_steps_checker.h"

#include "registry/checker_registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace prmkit::test {

namespace {
// Joins the registry when the test program starts, before any problem is read.
const bool kRegistered = (registerChecker<SampledStepsChecker>(), true);

/// Parameter of the i-th of n checks (1..n) in coarse-to-fine order: the
/// van der Corput sequence mapped onto the n evenly spaced points.
double coarseToFine(std::size_t i, std::size_t n, std::vector<bool>& done) {
  double t = 0.0;
  for (double weight = 0.5; i > 0; i >>= 1, weight *= 0.5)
    if (i & 1u) t += weight;
  auto slot = static_cast<std::size_t>(std::floor(t * static_cast<double>(n)));
  while (done[slot]) slot = (slot + 1) % n;  // a slot two sequence points fell into
  done[slot] = true;
  return (static_cast<double>(slot) + 1.0) / (static_cast<double>(n) + 1.0);
}
}  // namespace

SampledStepsChecker::SampledStepsChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                                         Settings settings)
    : Checker(std::move(robot), std::move(scene)), settings_(settings), collision_(robot_, scene_, settings.geometry) {
  static_cast<void>(kRegistered);
  validateFields(settings_, std::string(kName));
}

std::string SampledStepsChecker::description() const {
  return fmt::format("sampled_steps ({} configurations per edge at least{}, {})", settings_.steps,
                     settings_.max_step > 0 ? fmt::format(", at most {:g} apart", settings_.max_step) : "",
                     settings_.order == Settings::Order::Forward ? "in path order" : "coarse to fine");
}

std::unique_ptr<Checker> SampledStepsChecker::clone() const {
  return std::make_unique<SampledStepsChecker>(robot_, scene_, settings_);
}

std::unique_ptr<Checker> SampledStepsChecker::makeForRobot(std::shared_ptr<const Robot> robot) const {
  return std::make_unique<SampledStepsChecker>(std::move(robot), scene_, settings_);
}

bool SampledStepsChecker::doIsValid(const Config& q) { return !collision_.inCollision(q, stats_); }

EdgeResult SampledStepsChecker::doCheckEdge(const Config& a, const Config& b) {
  std::size_t n = settings_.steps;
  if (settings_.max_step > 0)
    n = std::max(n, static_cast<std::size_t>(std::min(1e6, std::ceil(robot_->distance(a, b) / settings_.max_step))));
  Config q;
  auto collidesAt = [&](double t) {
    robot_->interpolate(a, b, t, q);
    return collision_.inCollision(q, stats_);
  };
  if (settings_.check_ends)
    for (const double t : {0.0, 1.0})
      if (collidesAt(t)) return EdgeResult{Verdict::Colliding, 100.0, t};
  std::vector<bool> done(n, false);
  for (std::size_t i = 1; i <= n; ++i) {
    const double t = settings_.order == Settings::Order::Forward
                         ? static_cast<double>(i) / (static_cast<double>(n) + 1.0)
                         : coarseToFine(i, n, done);
    if (collidesAt(t)) return EdgeResult{Verdict::Colliding, 100.0, t};
  }
  return EdgeResult{};
}

}  // namespace prmkit::test
