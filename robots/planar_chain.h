#pragma once
#include "robots/kinematic_chain.h"

#include <memory>

namespace prmkit {

struct PlanarLink {
  double length = 1.0;
  double width = 0.1;
};

/// n revolute links in the xy plane on a fixed base pose. Link i is a box of
/// (length, width) from joint i to joint i+1; each joint's limits are [lower, upper].
std::unique_ptr<KinematicChain> makePlanarChain(const std::vector<PlanarLink>& links, const Transform& base,
                                                double lower = -3.14159265358979, double upper = 3.14159265358979);

}  // namespace prmkit
