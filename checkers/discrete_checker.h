#pragma once
// `discrete`: sample the edge and run a static check at each sample (the
// classic baseline, OMPL's DiscreteMotionValidator). Inexact: it can step
// over obstacles thinner than the sample spacing.
#include "checkers/checker.h"
#include "geometry/collision_queries.h"
#include "checkers/settings_fields.h"

#include <set>

namespace prmkit {

struct DiscreteSettings {
  enum class Space { CSpace, Workspace };
  enum class Order { Sequential, Bisection };
  Space space = Space::CSpace;
  /// CSpace: longest segment as a fraction of Robot::maxExtent (OMPL's 1% default).
  double resolution = 0.01;
  /// Workspace: no robot point moves more than eps (m) between samples (uses motionBound).
  double eps = 0.01;
  /// Bisection visits samples in van der Corput order (midpoint first), which
  /// finds collisions of PRM edges sooner than sequential order.
  Order order = Order::Bisection;
  /// What each static check looks at first (the verdicts are the same).
  Geometry geometry = Geometry::Convex;

  template <class Fields>
  void fields(Fields& f) {
    samplingFields(f);
    f.choice("order", order,
             std::array{Choice<Order>{"bisection", Order::Bisection}, Choice<Order>{"sequential", Order::Sequential}});
    f.geometry(geometry);
  }
  /// Where an edge is sampled: shared with `budgeted`.
  template <class Fields>
  void samplingFields(Fields& f) {
    // Below 1 / kMaxSegments an edge across the C-space could not be split.
    f.number("resolution", resolution, {.min = 1e-9, .max = 1.0, .unit = "fraction of the C-space extent"});
    f.choice("space", space,
             std::array{Choice<Space>{"cspace", Space::CSpace}, Choice<Space>{"workspace", Space::Workspace}});
    f.number("eps", eps, {.min = 0.0, .max = kMaxCoordinate, .min_exclusive = true, .length = true, .unit = "m"});
  }
  /// A section that gives `eps` and no `space` samples in the workspace.
  void afterRead(const std::set<std::string>& given) {
    if (given.count("eps") && !given.count("space")) space = Space::Workspace;
  }
};

/// The most segments one edge is split into; a step that needs more is refused.
inline constexpr std::size_t kMaxSegments = 1'000'000'000;

/// Number of segments the edge a -> b is split into by these settings (the
/// order does not matter), for every strategy that samples edges. Throws
/// std::invalid_argument when that would exceed kMaxSegments.
std::size_t segmentCount(const Robot& robot, const DiscreteSettings& settings, const Config& a, const Config& b);

class DiscreteChecker final : public Checker {
 public:
  using Settings = DiscreteSettings;
  static constexpr std::string_view kName = "discrete";
  DiscreteChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, DiscreteSettings settings);
  std::string name() const override { return std::string(kName); }
  std::string description() const override;
  bool exact() const override { return false; }
  std::unique_ptr<Checker> clone() const override;
  const DiscreteSettings& settings() const { return settings_; }
  /// Number of segments the edge a -> b is split into.
  std::size_t segmentCount(const Config& a, const Config& b) const {
    return prmkit::segmentCount(*robot_, settings_, a, b);
  }

 private:
  std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const override;
  DiscreteChecker(const DiscreteChecker& other) = default;
  bool doIsValid(const Config& q) override;
  EdgeResult doCheckEdge(const Config& a, const Config& b) override;

  DiscreteSettings settings_;
  CollisionQueries collision_;
  Config sample_;
};

}  // namespace prmkit
