#include "environments/scene.h"

#include <fmt/format.h>

#include <stdexcept>

namespace prmkit {

void Scene::addObstacle(std::string name, Mesh mesh, const Transform& pose) {
  if (mesh.empty()) throw std::invalid_argument(fmt::format("obstacle '{}' has no triangles", name));
  for (const auto& o : obstacles_)
    if (o.name == name) throw std::invalid_argument(fmt::format("two obstacles are named '{}'", name));
  Obstacle obstacle{std::move(name), std::move(mesh), pose, nullptr, {}, {}};
  obstacle.solid = solidInfo(obstacle.mesh);
  obstacle.bvh = buildBvh(obstacle.mesh);
  obstacle.cover = convexCoverOf(obstacle.mesh, *obstacle.bvh);
  auto object = std::make_unique<fcl::CollisionObjectd>(obstacle.bvh, pose);
  object->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(obstacles_.size())));
  object->computeAABB();
  broadphase_.registerObject(object.get());
  broadphase_.update();
  objects_.push_back(std::move(object));
  obstacles_.push_back(std::move(obstacle));
}

std::size_t Scene::triangleCount() const {
  std::size_t n = 0;
  for (const auto& o : obstacles_) n += o.mesh.triangles.size();
  return n;
}

std::shared_ptr<Scene> Scene::scaled(double factor) const {
  auto out = std::make_shared<Scene>();
  for (const Obstacle& o : obstacles_) {
    Transform pose = o.pose;
    pose.translation() *= factor;
    out->addObstacle(o.name, o.mesh.scaled(factor), pose);
  }
  return out;
}

Eigen::AlignedBox3d Scene::bounds() const {
  Eigen::AlignedBox3d box;
  for (const auto& o : obstacles_)
    for (const auto& v : o.mesh.vertices) box.extend(o.pose * v);
  return box;
}

}  // namespace prmkit
