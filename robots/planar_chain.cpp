#include "robots/planar_chain.h"

#include <fmt/format.h>

#include <stdexcept>

namespace prmkit {

std::unique_ptr<KinematicChain> makePlanarChain(const std::vector<PlanarLink>& links, const Transform& base,
                                                double lower, double upper) {
  if (links.empty()) throw std::invalid_argument("a planar chain needs at least one link");
  ChainDescription d;
  d.kind = "planar_chain";
  d.planar = true;
  d.base = base;
  d.frames.push_back({"base", -1});
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (!(links[i].length > 0) || !(links[i].width > 0))
      throw std::invalid_argument(fmt::format("planar chain link {} needs positive length and width", i));
    Joint joint;
    joint.name = fmt::format("joint{}", i + 1);
    joint.type = JointType::Revolute;
    joint.parent_frame = static_cast<int>(i);
    joint.origin = Transform(Eigen::Translation3d(i == 0 ? 0.0 : links[i - 1].length, 0, 0));
    joint.axis = Eigen::Vector3d::UnitZ();
    joint.lower = lower;
    joint.upper = upper;
    d.joints.push_back(joint);
    d.frames.push_back({fmt::format("link{}", i + 1), static_cast<int>(i)});
    // The box starts at the joint; its rounded end is left out on purpose so
    // consecutive links touch only at the joint (they are adjacent anyway).
    d.geometry.emplace_back(static_cast<int>(i + 1),
                            boxMesh({links[i].length, links[i].width, links[i].width})
                                .transformed(Transform(Eigen::Translation3d(links[i].length / 2, 0, 0))));
  }
  return std::make_unique<KinematicChain>(std::move(d));
}

}  // namespace prmkit
