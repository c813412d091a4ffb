#pragma once
// OMPL's geometric planners by name ("ompl:RRTConnect", "ompl:KPIECE1", ...),
// each run by OmplPlanner on prmkit's checker: prmkit's state validity and
// motion validator, its C-space metric and sampler, so any planner a
// researcher uses can be compared across checkers. Their parameters are
// OMPL's own (each planner's params()), given as `planner.parameters`.
#include "planner/planner.h"

#include <ompl/base/Planner.h>

#include <functional>
#include <string_view>

namespace prmkit {

struct OmplNamedPlanner {
  std::string name;  // OMPL's class name
  /// Its roadmap or tree edges were not all checked when it stops (lazy planners).
  bool lazy = false;
  std::function<ompl::base::PlannerPtr(const ompl::base::SpaceInformationPtr&)> make;
};

/// The planner named `type` ("ompl:NAME"), or nullptr when `type` is not one.
const OmplNamedPlanner* omplNamedPlanner(std::string_view type);

/// One kind per planner of OMPL's geometric planners that runs on one
/// thread from a SpaceInformation alone (the multi-threaded pRRT, pSBL,
/// CForest and AnytimePathShortening are left out: a prmkit checker serves
/// one thread. So are LazyLBTRRT, which fails an assertion of OMPL 1.5.2's
/// LPA* when its start connects to its goal directly, LBTRRT, which reports
/// its solution only when its time is up (so its result depends on the
/// clock, not the seed), and SST, whose random extensions never reach a goal
/// state exactly), made by `make`.
std::vector<PlannerKind> omplNamedPlannerKinds(
    const std::function<std::unique_ptr<Planner>(const PlannerSettings&, const PlannerCapabilities&)>& make);

/// OMPL's parameters of the planner named `type` ("ompl:NAME"), each with
/// its default and OMPL's own range suggestion; empty for another type.
std::vector<FieldDescription> omplParameterDescriptions(std::string_view type);

/// Applies `parameters` to `planner` by OMPL's names; throws std::invalid_argument naming the one refused.
void applyOmplParameters(ompl::base::Planner& planner,
                         const std::vector<std::pair<std::string, std::string>>& parameters);

}  // namespace prmkit
