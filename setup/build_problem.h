#pragma once
// Building a problem from its spec (io/problem_spec.h): the one step from
// what the files say to robot, scene, start and goal, above every reader.
// The robot and the scene are built first (meshes read, generators run,
// BVHs and convex covers made), then start and goal are read as the robot
// reads them, the scale applied, and the endpoints checked on the meshes.
#include "io/problem.h"
#include "io/problem_spec.h"
#include "io/queries_file.h"

#include <filesystem>
#include <vector>

namespace prmkit {

/// Builds robot and scene, reads start and goal (checked unless
/// options.checkEndpoints is off) and applies the scale; InputError where the
/// spec was written, SetupTimeLimit when the thread's setup termination expires.
Problem buildProblem(ProblemSpec spec, const LoadOptions& options = {});

/// Loads and validates a problem (a prmkit problem YAML, an OMPL.app .cfg, or
/// a MoveIt MotionPlanRequest YAML whose robot is given by overrides): the
/// whole file checked before anything is built; throws InputError with
/// file:line:column. buildProblem(readProblemSpec(file, options), options).
Problem loadProblem(const std::filesystem::path& file, const LoadOptions& options = {});

/// A configuration written as a problem file writes its start and goal
/// (the robot's coordinates as a list, or a pose for a rigid body), in the
/// problem file's units (then scaled by problem.scale), canonical, within
/// the bounds and free of collision on the meshes, as the problem's own
/// endpoints must be. Throws InputError where it was written.
Config endpointConfig(const EndpointSpec& spec, const Problem& problem);

struct QueryEnds {
  Config start, goal;
};
/// A queries file's pairs (io/queries_file.h), every end read and checked
/// as endpointConfig does. Throws InputError with file:line:column.
std::vector<QueryEnds> readQueries(const std::filesystem::path& file, const Problem& problem);

}  // namespace prmkit
