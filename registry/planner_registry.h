#pragma once
// The planners prmkit knows: the compiled-in ones, each declared by its own
// file pair (`kinds()`), and the ones registered at run time (a plug-in, or a
// test's own planner). Everything that names or makes a planner (the problem
// reader, the CLI, `compare`, sweeps, OMPL.app's [planner] lines) asks here,
// and asks a planner's capabilities instead of its name
// (docs/adding-a-planner.md).
#include "planner/planner.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

/// Adds a planner; throws std::invalid_argument when its name is taken or
/// it cannot be made. Register before reading problems. Not thread-safe.
void registerPlanner(PlannerKind kind);
/// Every planner: the compiled-in ones, then the registered ones in registration order.
const std::vector<PlannerKind>& plannerKinds();
/// The planner called `name`; throws std::invalid_argument naming the known ones.
const PlannerKind& plannerKind(std::string_view name);
/// Every planner's name, in plannerKinds() order.
std::vector<std::string> plannerNames();
/// The keys every `planner:` section may hold directly: those read apart
/// from the field visitor (type, sampler, verify_final_path, parameters), then
/// PlannerSettings' shared fields. A planner's own section adds its name and fields.
std::vector<std::string> sharedPlannerKeys();
/// Makes the planner named by settings.type; throws std::invalid_argument on an unknown name.
std::unique_ptr<Planner> makePlanner(const PlannerSettings& settings);

/// The prmkit planners that run an OMPL.app planner (those that declare its
/// name, PlannerCapabilities::omplapp_names), in registry order; empty for any other.
std::vector<std::string> prmkitPlannersFor(const std::string& omplAppPlanner);
/// Every OMPL.app planner name some prmkit planner runs, once each, in registry order.
std::vector<std::string> omplAppPlannersRun();

}  // namespace prmkit
