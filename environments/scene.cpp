#include "environments/scene.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace prmkit {

void Scene::addObstacle(std::string name, Mesh mesh, const Transform& pose) {
  if (mesh.empty()) throw std::invalid_argument(fmt::format("obstacle '{}' has no triangles", name));
  Obstacle obstacle{std::move(name), std::move(mesh), pose, nullptr, {}, {}, std::nullopt};
  obstacle.bvh = buildBvh(obstacle.mesh);  // first: it checks the indices and coordinates
  obstacle.solid = solidInfo(obstacle.mesh);
  obstacle.cover = convexCoverOf(obstacle.mesh, *obstacle.bvh);
  auto geometry = obstacle.bvh;
  add(std::move(obstacle), std::move(geometry));
}

void Scene::addObstacle(std::string name, Shape shape, const Transform& pose) {
  if (Mesh* mesh = std::get_if<Mesh>(&shape))
    addObstacle(std::move(name), std::move(*mesh), pose);
  else
    addObstacle(std::move(name), std::get<Primitive>(shape), pose);
}

void Scene::addObstacle(std::string name, const Primitive& primitive, const Transform& pose) {
  if (mode_ == PrimitiveMode::Tessellated) {
    addObstacle(std::move(name), primitive.enclosingMesh(), pose);
    return;
  }
  Obstacle obstacle{std::move(name), primitive.enclosingMesh(), pose, nullptr, {}, {}, primitive};
  obstacle.bvh = buildBvh(obstacle.mesh);
  if (primitive.meshIsExact()) {
    obstacle.solid = solidInfo(obstacle.mesh);
    obstacle.cover = convexCoverOf(obstacle.mesh, *obstacle.bvh);
  } else {
    ++checkedPrimitives_;
  }
  add(std::move(obstacle), primitive.collisionGeometry());
}

void Scene::add(Obstacle obstacle, std::shared_ptr<fcl::CollisionGeometryd> geometry) {
  if (!withinCoordinateLimit(obstacle.pose))
    throw std::invalid_argument(
        fmt::format("obstacle '{}' is placed at ({}, {}, {}); a pose must be finite and within {:g} m", obstacle.name,
                    obstacle.pose.translation().x(), obstacle.pose.translation().y(), obstacle.pose.translation().z(),
                    kMaxCoordinate));
  if (!names_.insert(obstacle.name).second)
    throw std::invalid_argument(fmt::format("two obstacles are named '{}'", obstacle.name));
  auto object = std::make_unique<fcl::CollisionObjectd>(std::move(geometry), obstacle.pose);
  object->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(obstacles_.size())));
  object->computeAABB();
  // The tree takes the object with its box at once; rebalancing it (FCL's
  // update refits every node) after each obstacle made loading quadratic, so
  // it is done when the count reaches a power of two: O(n log n) in all.
  broadphase_.registerObject(object.get());
  const std::size_t count = objects_.size() + 1;
  if ((count & (count - 1)) == 0) broadphase_.update();
  objects_.push_back(std::move(object));
  obstacles_.push_back(std::move(obstacle));
}

std::size_t Scene::triangleCount() const {
  std::size_t n = 0;
  for (const auto& o : obstacles_) n += o.mesh.triangles.size();
  return n;
}

std::shared_ptr<Scene> Scene::scaled(double factor) const {
  auto out = std::make_shared<Scene>(mode_);
  for (const Obstacle& o : obstacles_) {
    Transform pose = o.pose;
    pose.translation() *= factor;
    if (o.primitive)
      out->addObstacle(o.name, o.primitive->scaled(factor), pose);
    else
      out->addObstacle(o.name, o.mesh.scaled(factor), pose);
  }
  return out;
}

std::size_t Scene::primitiveCount() const {
  return static_cast<std::size_t>(
      std::count_if(obstacles_.begin(), obstacles_.end(), [](const Obstacle& o) { return o.primitive.has_value(); }));
}

Eigen::AlignedBox3d Scene::bounds() const {
  Eigen::AlignedBox3d box;
  for (const auto& o : obstacles_)
    for (const auto& v : o.mesh.vertices) box.extend(o.pose * v);
  return box;
}

}  // namespace prmkit
