#pragma once
// OMPL's own PRM and LazyPRM as peers: they run on prmkit's robot
// and checker through the adapters of ompl_space.h, so that the same checker, the same
// C-space metric and the same counters are compared across planners.
#include "sampling/ompl_space.h"
#include "planner/planner.h"

namespace prmkit {

/// ompl_prm, ompl_lazy_prm: OMPL's PRM / LazyPRM with the checker for states
/// and motions. ompl_fcl_default: OMPL's LazyPRM with its stock
/// DiscreteMotionValidator at 1% of the maximum extent, the checker used only
/// for static checks (FCL in every prmkit checker) -- the stack most users run.
/// All stop at the first solution (cost threshold infinite). They sample as
/// OMPL does (uniformly): planner.sampler and planner.expand are prmkit's
/// own planners' settings, and OMPL runs report no node sources. And every
/// planner of ompl_named_planners.h ("ompl:RRTConnect", ...) with the
/// checker for states and motions and OMPL's parameters from
/// `planner.parameters`, also stopping at its first solution.
class OmplPlanner final : public Planner {
 public:
  OmplPlanner(PlannerSettings settings, PlannerCapabilities capabilities);
  /// ompl_prm, ompl_lazy_prm, ompl_fcl_default and OMPL's planners by name.
  static std::vector<PlannerKind> kinds();

 private:
  std::optional<std::vector<Vertex>> search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                            PlanResult& result) override;
};

}  // namespace prmkit
