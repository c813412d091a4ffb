#pragma once
// scene.svg: the problem, roadmap and path in one or two orthographic views.
#include "io/problem.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace prmkit {

/// `count` configurations evenly spaced by the robot's metric along the
/// path, its first and last waypoints included (one when it has no length).
std::vector<Config> evenlySpacedOnPath(const Robot& robot, const std::vector<Config>& path, std::size_t count);
/// A point that stands for a configuration in pictures: the body origin of a
/// rigid body, the tip frame of a chain (the last link's origin).
Eigen::Vector3d referencePoint(const Robot& robot, const Config& q);

/// Top view (2D problems) or top and front views (3D problems) of obstacles,
/// roadmap, path, start and goal.
std::string sceneSvg(const Problem& problem, const PlanResult& result);

}  // namespace prmkit
