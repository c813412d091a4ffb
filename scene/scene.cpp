#include "scene/scene.h"

#include "base/termination.h"
#include "shapes/mesh_cache.h"

#include <fmt/format.h>

#include <fcl/geometry/shape/box.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace prmkit {

void Scene::addObstacle(std::string name, Mesh mesh, const Transform& pose) {
  checkSetupDeadline("adding obstacle", name);
  if (mesh.empty()) throw std::invalid_argument(fmt::format("obstacle '{}' has no triangles", name));
  Obstacle obstacle{std::move(name), std::move(mesh), pose, nullptr, {}, {}, std::nullopt};
  PreparedMesh prepared = prepareMesh(obstacle.mesh, true);  // first: its BVH checks the indices and coordinates
  obstacle.bvh = std::move(prepared.bvh);
  obstacle.solid = solidInfo(obstacle.mesh);
  obstacle.cover = std::move(prepared.cover);
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
  checkSetupDeadline("adding obstacle", name);
  if (mode_ == PrimitiveMode::Tessellated) {
    addObstacle(std::move(name), primitive.enclosingMesh(), pose);
    return;
  }
  Obstacle obstacle{std::move(name), primitive.enclosingMesh(), pose, nullptr, {}, {}, primitive};
  PreparedMesh prepared = prepareMesh(obstacle.mesh, primitive.meshIsExact());
  obstacle.bvh = std::move(prepared.bvh);
  if (primitive.meshIsExact()) {
    obstacle.solid = solidInfo(obstacle.mesh);
    obstacle.cover = std::move(prepared.cover);
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
  triangles_ += obstacle.mesh.triangles.size();
  if (triangles_ > kMaxSceneTriangles)
    throw std::invalid_argument(
        fmt::format("with obstacle '{}' the scene has more than {} triangles", obstacle.name, kMaxSceneTriangles));
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
  Eigen::AlignedBox3d box;
  for (const auto& v : obstacle.mesh.vertices) box.extend(obstacle.pose * v);
  boxes_.push_back(box);
  obstacles_.push_back(std::move(obstacle));
  if (sortAndSweep_ || hash_) buildBroadPhase();
}

std::string broadPhaseName(BroadPhase kind) {
  switch (kind) {
    case BroadPhase::None:
      return "none";
    case BroadPhase::AabbTree:
      return "aabb_tree";
    case BroadPhase::SortAndSweep:
      return "sort_and_sweep";
    case BroadPhase::Hash:
      return "hash";
  }
  return "?";
}

void Scene::setBroadPhase(BroadPhase kind) {
  broadPhaseKind_ = kind;
  buildBroadPhase();
}

void Scene::buildBroadPhase() {
  sortAndSweep_.reset();
  hash_.reset();
  if (broadPhaseKind_ == BroadPhase::SortAndSweep) {
    sortAndSweep_ = std::make_unique<fcl::SaPCollisionManagerd>();
    std::vector<fcl::CollisionObjectd*> objects;
    for (const auto& object : objects_) objects.push_back(object.get());
    sortAndSweep_->registerObjects(objects);
    sortAndSweep_->setup();
  } else if (broadPhaseKind_ == BroadPhase::Hash) {
    // Level 0's cells are the smallest obstacle's size (not below 1e-9 of the scene's).
    double smallest = std::numeric_limits<double>::infinity(), largest = 0.0;
    for (const auto& box : boxes_) {
      smallest = std::min(smallest, box.sizes().maxCoeff());
      largest = std::max(largest, box.sizes().maxCoeff());
    }
    hash_ = std::make_unique<HierarchicalHash>(
        std::isfinite(smallest) ? std::max(smallest, 1e-9 * std::max(largest, 1.0)) : 1.0);
    for (std::size_t i = 0; i < boxes_.size(); ++i) hash_->insert(static_cast<int>(i), boxes_[i]);
  }
}

namespace {
/// What an FCL manager's query hands its callback: the candidates, and the query's own object to skip.
struct ManagerQuery {
  const fcl::CollisionObjectd* query;
  std::vector<int>* out;
  std::uint64_t* visited;
};

bool collectCandidate(fcl::CollisionObjectd* a, fcl::CollisionObjectd* b, void* data) {
  auto* query = static_cast<ManagerQuery*>(data);
  const fcl::CollisionObjectd* obstacle = a == query->query ? b : a;
  ++*query->visited;
  query->out->push_back(static_cast<int>(reinterpret_cast<std::intptr_t>(obstacle->getUserData())));
  return false;  // go on
}
}  // namespace

void Scene::obstaclesOverlapping(const Eigen::AlignedBox3d& box, std::vector<int>& out, std::uint64_t& visited) const {
  out.clear();
  if (box.isEmpty()) return;
  switch (broadPhaseKind_) {
    case BroadPhase::None:
      // No broad phase: every obstacle goes to the narrow phase.
      visited += boxes_.size();
      for (std::size_t i = 0; i < boxes_.size(); ++i) out.push_back(static_cast<int>(i));
      return;
    case BroadPhase::Hash:
      hash_->query(box, out, visited);
      return;
    case BroadPhase::AabbTree:
    case BroadPhase::SortAndSweep: {
      // FCL's managers call back for every object whose AABB overlaps the
      // query's; their AABBs enclose the meshes loosely, so the boxes decide.
      const Eigen::Vector3d sizes = box.sizes().cwiseMax(1e-12);
      fcl::CollisionObjectd query(std::make_shared<fcl::Boxd>(sizes), Transform(Eigen::Translation3d(box.center())));
      query.computeAABB();
      ManagerQuery data{&query, &out, &visited};
      const fcl::BroadPhaseCollisionManagerd& manager =
          broadPhaseKind_ == BroadPhase::AabbTree ? static_cast<const fcl::BroadPhaseCollisionManagerd&>(broadphase_)
                                                  : *sortAndSweep_;
      manager.collide(&query, &data, collectCandidate);
      std::erase_if(out, [&](int i) { return !boxes_[static_cast<std::size_t>(i)].intersects(box); });
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      return;
    }
  }
}

namespace {
/// The bits of the chain's boxes that `box` overlaps.
std::uint64_t overlappedBoxes(const Eigen::AlignedBox3d& box, std::span<const Eigen::AlignedBox3d> chain) {
  std::uint64_t bits = 0;
  for (std::size_t k = 0; k < chain.size(); ++k)
    if (box.intersects(chain[k])) bits |= std::uint64_t{1} << k;
  return bits;
}

bool overlaps(const fcl::AABBd& node, const Eigen::AlignedBox3d& box) {
  return (node.min_.array() <= box.max().array()).all() && (box.min().array() <= node.max_.array()).all();
}

/// The box around the whole chain first: most nodes are far from all of it.
bool overlapsAny(const fcl::AABBd& node, const Eigen::AlignedBox3d& around,
                 std::span<const Eigen::AlignedBox3d> chain) {
  return overlaps(node, around) &&
         std::any_of(chain.begin(), chain.end(), [&](const Eigen::AlignedBox3d& box) { return overlaps(node, box); });
}
}  // namespace

void Scene::obstaclesOverlappingChain(std::span<const Eigen::AlignedBox3d> boxes, std::vector<ChainOverlap>& out,
                                      std::uint64_t& visited) const {
  out.clear();
  if (boxes.size() > kMaxChainBoxes)
    throw std::invalid_argument(fmt::format("a chain of {} boxes (at most {})", boxes.size(), kMaxChainBoxes));
  Eigen::AlignedBox3d around;
  for (const auto& box : boxes) around.extend(box);
  if (around.isEmpty()) return;
  if (broadPhaseKind_ != BroadPhase::AabbTree) {
    std::vector<int> candidates;
    obstaclesOverlapping(around, candidates, visited);
    for (const int i : candidates)
      if (const std::uint64_t bits = overlappedBoxes(boxes_[static_cast<std::size_t>(i)], boxes); bits != 0)
        out.push_back({i, bits});
    return;
  }
  // The tree's nodes hold FCL's boxes of the objects (loose around a mesh):
  // a node that overlaps none of the chain's boxes holds no obstacle that
  // does; at a leaf the obstacle's own box decides. A stack, not recursion:
  // the tree's depth is not bounded by balance.
  using Node = fcl::detail::NodeBase<fcl::AABBd>;
  std::vector<const Node*> stack;
  if (const Node* root = broadphase_.getTree().getRoot()) stack.push_back(root);
  while (!stack.empty()) {
    const Node* node = stack.back();
    stack.pop_back();
    ++visited;
    if (!overlapsAny(node->bv, around, boxes)) continue;
    if (node->isLeaf()) {
      const auto* object = static_cast<const fcl::CollisionObjectd*>(node->data);
      const auto i = static_cast<int>(reinterpret_cast<std::intptr_t>(object->getUserData()));
      if (const std::uint64_t bits = overlappedBoxes(boxes_[static_cast<std::size_t>(i)], boxes); bits != 0)
        out.push_back({i, bits});
    } else {
      stack.push_back(node->children[0]);
      stack.push_back(node->children[1]);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const ChainOverlap& a, const ChainOverlap& b) { return a.obstacle < b.obstacle; });
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
  out->setBroadPhase(broadPhaseKind_);
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
