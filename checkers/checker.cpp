#include "checkers/checker.h"

#include "base/wall_timer.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace prmkit {

PathResult collidingPath(std::size_t segments, std::size_t segment, double t) {
  PathResult result;
  result.verdict = Verdict::Colliding;
  result.first_colliding = segment;
  result.segments.resize(segments);
  result.segments[segment] = EdgeResult{Verdict::Colliding, 100.0, t};
  return result;
}

double problemSize(const Scene& scene, const Robot& robot) {
  const Eigen::AlignedBox3d box = scene.bounds();
  double size = box.isEmpty() ? 0.0 : box.diagonal().norm();
  for (const auto& link : robot.links()) size = std::max(size, 2.0 * link.radius);
  return size > 0.0 ? size : 1.0;
}

const char* toString(Verdict verdict) {
  switch (verdict) {
    case Verdict::Free:
      return "free";
    case Verdict::Colliding:
      return "colliding";
    case Verdict::Unknown:
      return "unknown";
  }
  return "?";
}

StrategyCounts::StrategyCounts(std::span<const CounterSpec> declared) : declared_(declared) {
  if (declared.size() > kMaxCounters)
    throw std::logic_error(fmt::format("a strategy declares {} counters; at most {}", declared.size(), kMaxCounters));
}

void StrategyCounts::add(std::string_view name, std::uint64_t count) {
  for (std::size_t i = 0; i < declared_.size(); ++i)
    if (declared_[i].name == name) {
      values_[i] += count;
      return;
    }
  throw std::logic_error(fmt::format("counter '{}' is not one of the strategy's", name));
}

std::uint64_t StrategyCounts::value(std::string_view name) const {
  for (std::size_t i = 0; i < declared_.size(); ++i)
    if (declared_[i].name == name) return values_[i];
  return 0;
}

namespace {
/// Counts of one declaration can be summed; counts that are all zero take the other's.
void adoptOrRequireSame(std::span<const CounterSpec>& declared,
                        const std::array<std::uint64_t, StrategyCounts::kMaxCounters>& values,
                        std::span<const CounterSpec> other, const char* what) {
  if (declared.data() == other.data() && declared.size() == other.size()) return;
  if (std::all_of(values.begin(), values.end(), [](std::uint64_t v) { return v == 0; })) {
    declared = other;
    return;
  }
  throw std::logic_error(fmt::format("the counters of two strategies {}", what));
}
}  // namespace

StrategyCounts& StrategyCounts::operator+=(const StrategyCounts& other) {
  if (other.declared_.empty()) return *this;
  adoptOrRequireSame(declared_, values_, other.declared_, "summed");
  for (std::size_t i = 0; i < declared_.size(); ++i) values_[i] += other.values_[i];
  return *this;
}

StrategyCounts& StrategyCounts::operator-=(const StrategyCounts& other) {
  if (other.declared_.empty()) return *this;
  adoptOrRequireSame(declared_, values_, other.declared_, "subtracted");
  for (std::size_t i = 0; i < declared_.size(); ++i) values_[i] -= other.values_[i];
  return *this;
}

CheckStats& CheckStats::operator+=(const CheckStats& other) {
  QueryCounts::forEachField([&](std::string_view, auto member, std::string_view) { this->*member += other.*member; });
  strategy += other.strategy;
  edges_checked += other.edges_checked;
  paths_checked += other.paths_checked;
  time_s += other.time_s;
  return *this;
}

CheckStats CheckStats::operator-(const CheckStats& earlier) const {
  CheckStats difference = *this;
  QueryCounts::forEachField(
      [&](std::string_view, auto member, std::string_view) { difference.*member -= earlier.*member; });
  difference.strategy -= earlier.strategy;
  difference.edges_checked -= earlier.edges_checked;
  difference.paths_checked -= earlier.paths_checked;
  difference.time_s -= earlier.time_s;
  return difference;
}

namespace {
/// The i-th point (i >= 1) of the van der Corput sequence in base 2: 1/2,
/// 1/4, 3/4, 1/8, 5/8, ... (every prefix spreads over the segment).
double vanDerCorput(unsigned i) {
  double t = 0.0;
  for (double weight = 0.5; i > 0; i >>= 1, weight *= 0.5)
    if (i & 1u) t += weight;
  return t;
}
}  // namespace

std::vector<int> spreadOrder(std::size_t cells) {
  // The cells holding the van der Corput points 1/2, 1/4, 3/4, ... in turn.
  // Once 2^k >= n every cell holds one of the points k/2^k, so the loop ends.
  std::vector<int> order;
  std::vector<bool> seen(cells, false);
  for (unsigned i = 1; order.size() < cells; ++i) {
    const auto cell = std::min(cells - 1, static_cast<std::size_t>(vanDerCorput(i) * static_cast<double>(cells)));
    if (!seen[cell]) {
      seen[cell] = true;
      order.push_back(static_cast<int>(cell));
    }
  }
  return order;
}

Checker::Checker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
                 std::span<const CounterSpec> counters)
    : robot_(std::move(robot)), scene_(std::move(scene)), stats_(counters) {
  if (!robot_ || !scene_) throw std::invalid_argument("a checker needs a robot and a scene");
}

Checker::Checker(const Checker& other)
    : robot_(other.robot_), scene_(other.scene_), stats_(other.stats_.strategy.declared()) {}

std::unique_ptr<Checker> Checker::forRobot(std::shared_ptr<const Robot> robot) const {
  if (!robot || robot->configSize() != robot_->configSize() || robot->dof() != robot_->dof() ||
      robot->links().size() != robot_->links().size())
    throw std::invalid_argument("a checker is remade only for a robot with the same coordinates and links");
  std::unique_ptr<Checker> made = makeForRobot(std::move(robot));
  if (!made) throw std::logic_error(fmt::format("checker '{}' cannot be remade for another robot", name()));
  return made;
}

void Checker::requireConfig(const Config& q) const {
  if (static_cast<std::size_t>(q.size()) != robot_->configSize())
    throw std::invalid_argument(
        fmt::format("configuration has {} numbers, the robot needs {}", q.size(), robot_->configSize()));
  if (!q.allFinite()) throw std::invalid_argument("configuration has a non-finite number");
  // Motion bounds trust the configuration's rotation to be the one its poses
  // show; readers canonicalize (Robot::canonicalize), so anything else is a bug.
  if (!robot_->canonical(q)) throw std::invalid_argument("configuration is not canonical (a non-unit quaternion)");
}

bool Checker::isValid(const Config& q) {
  requireConfig(q);
  WallTimer timer(stats_.time_s);
  if (!robot_->inBounds(q)) return false;
  return doIsValid(q);
}

EdgeResult Checker::checkEdge(const Config& a, const Config& b) {
  requireConfig(a);
  requireConfig(b);
  WallTimer timer(stats_.time_s);
  ++stats_.edges_checked;
  return doCheckEdge(a, b);
}

EdgeResult Checker::checkMove(const Config& a, const Config& b) {
  requireConfig(a);
  requireConfig(b);
  WallTimer timer(stats_.time_s);
  ++stats_.edges_checked;
  if (!robot_->inBounds(b)) return EdgeResult{Verdict::Colliding, 100.0, 1.0};
  return doCheckMove(a, b);
}

EdgeResult Checker::doCheckMove(const Config& a, const Config& b) {
  if (!doIsValid(b)) return EdgeResult{Verdict::Colliding, 100.0, 1.0};
  return doCheckEdge(a, b);
}

PathResult Checker::checkPath(std::span<const Config> path) {
  for (const auto& q : path) requireConfig(q);
  WallTimer timer(stats_.time_s);
  ++stats_.paths_checked;
  if (path.size() < 2) return PathResult{};
  PathResult result = doCheckPath(path);
  // One meaning for every strategy, counted here alone: the segments given a verdict.
  for (const auto& segment : result.segments) stats_.edges_checked += segment.has_value();
  return result;
}

PathResult Checker::doCheckPath(std::span<const Config> path) {
  PathResult result;
  result.segments.resize(path.size() - 1);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const EdgeResult edge = doCheckEdge(path[i], path[i + 1]);
    result.segments[i] = edge;
    if (edge.verdict == Verdict::Colliding) {
      result.verdict = Verdict::Colliding;
      result.first_colliding = i;
      return result;
    }
    if (edge.verdict == Verdict::Unknown) result.verdict = Verdict::Unknown;
  }
  return result;
}

}  // namespace prmkit
