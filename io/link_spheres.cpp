#include "io/link_spheres.h"

#include "io/urdf_robot.h"

#include <fmt/format.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

namespace prmkit {

std::vector<std::pair<int, std::vector<Sphere>>> readLinkSpheres(const std::filesystem::path& file,
                                                                 const std::vector<Frame>& frames) {
  tinyxml2::XMLDocument doc;
  const urdf::ModelInterfaceSharedPtr model =
      urdf::parseURDF(normalizedUrdf(readRobotDescription(file, "URDF"), doc, file));
  if (!model) throw RobotLoadError(fmt::format("'{}' is not a valid URDF (urdfdom could not parse it)", file.string()));
  std::vector<std::pair<int, std::vector<Sphere>>> spheres;
  for (std::size_t frame = 0; frame < frames.size(); ++frame) {
    const auto link = model->getLink(frames[frame].name);
    if (!link || link->collision_array.empty()) continue;
    std::vector<Sphere> own;
    for (const auto& c : link->collision_array) {
      if (!c || !c->geometry || c->geometry->type != urdf::Geometry::SPHERE)
        throw RobotLoadError(fmt::format("{}: link '{}': every collision element of a spherized URDF must be a sphere",
                                         file.string(), link->name));
      const double radius = static_cast<const urdf::Sphere&>(*c->geometry).radius;
      if (!(radius > 0.0 && radius <= kMaxCoordinate))
        throw RobotLoadError(fmt::format("{}: link '{}': a sphere's radius must be positive and at most {:g} m, got {}",
                                         file.string(), link->name, kMaxCoordinate, radius));
      const auto& p = c->origin.position;
      const Eigen::Vector3d centre(p.x, p.y, p.z);
      if (!centre.allFinite() || centre.cwiseAbs().maxCoeff() > kMaxCoordinate)
        throw RobotLoadError(fmt::format("{}: link '{}': a sphere's origin must be finite and within {:g} m",
                                         file.string(), link->name, kMaxCoordinate));
      if (own.size() == kMaxSpheresPerBody)
        throw RobotLoadError(
            fmt::format("{}: link '{}' has more than {} spheres", file.string(), link->name, kMaxSpheresPerBody));
      own.push_back({centre, radius});
    }
    spheres.emplace_back(static_cast<int>(frame), std::move(own));
  }
  if (spheres.empty())
    throw RobotLoadError(fmt::format("{}: no link of the robot has collision spheres there", file.string()));
  return spheres;
}

}  // namespace prmkit
