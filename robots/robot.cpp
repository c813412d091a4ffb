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

void Robot::motionBounds(const Config& a, const Config& b, std::vector<double>& links,
                         std::vector<double>& selfPairs) const {
  links.resize(links_.size());
  for (std::size_t i = 0; i < links_.size(); ++i) links[i] = motionBound(i, a, b);
  selfPairs.resize(selfCollisionPairs_.size());
  for (std::size_t p = 0; p < selfCollisionPairs_.size(); ++p) {
    const auto [i, k] = selfCollisionPairs_[p];
    selfPairs[p] = relativeMotionBound(static_cast<std::size_t>(i), static_cast<std::size_t>(k), a, b);
  }
}

double Robot::maxMotionBound(const Config& a, const Config& b) const {
  std::vector<double> links, selfPairs;
  motionBounds(a, b, links, selfPairs);
  double m = 0.0;
  for (double bound : links) m = std::max(m, bound);
  return m;
}

}  // namespace prmkit
