#pragma once
#include "app/problem.h"

namespace prmkit {

struct VerifyResult {
  bool valid = true;
  std::string message;              // what is wrong, for people
  std::optional<std::size_t> segment;  // first colliding segment
  double t = 0.0;                   // its parameter
};

/// Dense check of a path: it must start at the problem's start and end at its
/// goal, every waypoint must be valid, and along each segment no robot point
/// moves more than `eps` (m) between checked configurations (motion bounds).
VerifyResult verifyPath(const Problem& problem, const std::vector<Config>& path, double eps);

/// The default eps: 1e-3 of the scene size.
double defaultVerifyEps(const Problem& problem);

}  // namespace prmkit
