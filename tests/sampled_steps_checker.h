#pragma once
// A strategy that exists only in the test folder: it joins the registry at
// run time (registerChecker, from sampled_steps_checker.cpp) and the
// conformance suite's type list, with no edit outside tests/, as
// docs/adding-a-checker.md says a strategy defined outside the library does.
// It checks an edge at evenly spaced configurations (inexact, like
// `discrete`), in path order or coarse to fine.
#include "checkers/checker.h"
#include "geometry/collision_queries.h"
#include "checkers/settings_fields.h"

#include <string_view>

namespace prmkit::test {

struct SampledStepsSettings {
  std::size_t steps = 100;  // configurations checked inside an edge, at least
  double max_step = 0.0;    // C-space distance between them, at most (0: no limit)
  enum class Order { Forward, CoarseToFine };
  Order order = Order::CoarseToFine;
  bool check_ends = false;  // also the edge's ends (assumed valid)
  Geometry geometry = Geometry::Convex;

  template <class Fields>
  void fields(Fields& f) {
    f.integer("steps", steps, {.min = 1.0, .max = 1e6, .unit = "configurations"});
    f.number("max_step", max_step, {.min = 0.0, .unit = "C-space distance; 0: no limit"});
    f.choice(
        "order", order,
        std::array{Choice<Order>{"forward", Order::Forward}, Choice<Order>{"coarse_to_fine", Order::CoarseToFine}});
    f.boolean("check_ends", check_ends);
    f.geometry(geometry);
  }
};

class SampledStepsChecker final : public Checker {
 public:
  using Settings = SampledStepsSettings;
  static constexpr std::string_view kName = "sampled_steps";

  SampledStepsChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, Settings settings);
  std::string name() const override { return std::string(kName); }
  std::string description() const override;
  bool exact() const override { return false; }
  std::unique_ptr<Checker> clone() const override;
  const Settings& settings() const { return settings_; }

 private:
  bool doIsValid(const Config& q) override;
  EdgeResult doCheckEdge(const Config& a, const Config& b) override;
  std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const override;

  Settings settings_;
  CollisionQueries collision_;
};

}  // namespace prmkit::test
