#include "shapes/sphere_set.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <span>
#include <queue>
#include <stdexcept>

namespace prmkit {

namespace {

/// Sphere about the box centre of the group's vertices, reaching the farthest.
Sphere groupSphere(const Mesh& mesh, std::span<const int> group) {
  Eigen::AlignedBox3d box;
  for (const int t : group)
    for (const int v : mesh.triangles[t]) box.extend(mesh.vertices[v]);
  Sphere sphere{box.center(), 0.0};
  for (const int t : group)
    for (const int v : mesh.triangles[t])
      sphere.radius = std::max(sphere.radius, (mesh.vertices[v] - sphere.centre).norm());
  // A relative margin for the rounding of the norms (about 1e-16 each): a
  // vertex on the sphere stays inside it once transformed.
  sphere.radius *= 1.0 + 1e-12;
  return sphere;
}

/// The mesh with every triangle longer than `longest` cut into four at its
/// edges' midpoints, again until none is (at most `budget` triangles): the
/// pieces lie in the triangle, so spheres that hold them hold it, and small
/// pieces let a large flat face be held by spheres that stay close to it.
Mesh subdivided(const Mesh& mesh, double longest, std::size_t budget) {
  Mesh out;
  out.vertices = mesh.vertices;
  std::vector<std::array<int, 3>> open(mesh.triangles.rbegin(), mesh.triangles.rend());
  while (!open.empty()) {
    const auto [a, b, c] = open.back();
    open.pop_back();
    const Eigen::Vector3d pa = out.vertices[a], pb = out.vertices[b], pc = out.vertices[c];
    const double edge = std::max({(pa - pb).norm(), (pb - pc).norm(), (pc - pa).norm()});
    if (edge <= longest || out.triangles.size() + open.size() + 4 > budget) {
      out.triangles.push_back({a, b, c});
      continue;
    }
    const int ab = static_cast<int>(out.vertices.size());
    out.vertices.push_back((pa + pb) / 2);
    out.vertices.push_back((pb + pc) / 2);
    out.vertices.push_back((pc + pa) / 2);
    const int bc = ab + 1, ca = ab + 2;
    for (const std::array<int, 3>& piece : {std::array<int, 3>{a, ab, ca}, {ab, b, bc}, {ca, bc, c}, {ab, bc, ca}})
      open.push_back(piece);
  }
  return out;
}

/// The most triangles a mesh is subdivided into for fitting.
constexpr std::size_t kFittingTriangles = 1 << 16;

}  // namespace

std::vector<Sphere> containingSpheres(const Mesh& input, std::size_t count) {
  if (count < 1 || count > kMaxSpheresPerBody)
    throw std::invalid_argument("a body's sphere count must be between 1 and " + std::to_string(kMaxSpheresPerBody));
  if (input.empty()) return {};
  // Pieces about as long as a sphere of `count` spread over the body is wide.
  const Mesh mesh = subdivided(input, input.bounds().sizes().norm() / (2.0 * std::cbrt(static_cast<double>(count))),
                               std::max(kFittingTriangles, input.triangles.size()));
  std::vector<int> order(mesh.triangles.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<Eigen::Vector3d> centroids(mesh.triangles.size());
  for (std::size_t t = 0; t < centroids.size(); ++t) {
    const auto& [a, b, c] = mesh.triangles[t];
    centroids[t] = (mesh.vertices[a] + mesh.vertices[b] + mesh.vertices[c]) / 3.0;
  }
  // Groups are ranges of `order`; the one with the largest sphere splits first.
  struct Group {
    std::size_t begin, end;
    Sphere sphere;
  };
  auto makeGroup = [&](std::size_t begin, std::size_t end) {
    return Group{begin, end, groupSphere(mesh, std::span<const int>(order.data() + begin, end - begin))};
  };
  auto smaller = [](const Group& a, const Group& b) { return a.sphere.radius < b.sphere.radius; };
  std::priority_queue<Group, std::vector<Group>, decltype(smaller)> open(smaller);
  std::vector<Group> done;
  open.push(makeGroup(0, order.size()));
  while (!open.empty() && open.size() + done.size() < count) {
    const Group group = open.top();
    open.pop();
    if (group.end - group.begin < 2) {
      done.push_back(group);
      continue;
    }
    Eigen::AlignedBox3d box;
    for (std::size_t i = group.begin; i < group.end; ++i) box.extend(centroids[order[i]]);
    Eigen::Index axis;
    box.sizes().maxCoeff(&axis);
    const std::size_t middle = group.begin + (group.end - group.begin) / 2;
    std::nth_element(order.begin() + group.begin, order.begin() + middle, order.begin() + group.end,
                     [&](int a, int b) { return centroids[a][axis] < centroids[b][axis]; });
    open.push(makeGroup(group.begin, middle));
    open.push(makeGroup(middle, group.end));
  }
  std::vector<Sphere> spheres;
  for (const Group& group : done) spheres.push_back(group.sphere);
  for (; !open.empty(); open.pop()) spheres.push_back(open.top().sphere);
  return spheres;
}

Sphere enclosingSphere(const std::vector<Sphere>& spheres) {
  if (spheres.empty()) return {};
  Eigen::AlignedBox3d box;
  for (const Sphere& s : spheres) {
    box.extend(s.centre - Eigen::Vector3d::Constant(s.radius));
    box.extend(s.centre + Eigen::Vector3d::Constant(s.radius));
  }
  Sphere all{box.center(), 0.0};
  for (const Sphere& s : spheres) all.radius = std::max(all.radius, (s.centre - all.centre).norm() + s.radius);
  all.radius *= 1.0 + 1e-12;
  return all;
}

bool covers(const std::vector<Sphere>& spheres, const Eigen::Vector3d& point, double tolerance) {
  return std::any_of(spheres.begin(), spheres.end(),
                     [&](const Sphere& s) { return (point - s.centre).norm() <= s.radius + tolerance; });
}

}  // namespace prmkit
