#include "robots/robot.h"

namespace prmkit {

Link::Link(std::string name_, Mesh mesh_)
    : name(std::move(name_)), mesh(std::move(mesh_)), bvh(buildBvh(mesh)), radius(mesh.radiusAboutOrigin()) {}

bool Robot::inBounds(const Config& q) const {
  if (static_cast<std::size_t>(q.size()) != configSize() || !q.allFinite()) return false;
  for (Eigen::Index i = 0; i < bounds_.lower.size(); ++i)
    if (q[i] < bounds_.lower[i] || q[i] > bounds_.upper[i]) return false;
  return true;
}

double Robot::relativeMotionBound(std::size_t i, std::size_t k, const Config& a, const Config& b) const {
  return motionBound(i, a, b) + motionBound(k, a, b);
}

double Robot::maxMotionBound(const Config& a, const Config& b) const {
  double m = 0.0;
  for (std::size_t i = 0; i < links_.size(); ++i) m = std::max(m, motionBound(i, a, b));
  return m;
}

}  // namespace prmkit
