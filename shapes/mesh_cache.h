#pragma once
// What loading a mesh costs most, kept for the rest of the process: the
// triangles read from a mesh file (assimp's import), and a mesh's BVH and
// convex cover (FCL's build, qhull's hulls). benchmark-set, sweep and
// compare load every problem once in their own process, to refuse bad
// settings before any run, and again in each run's fork, which inherits
// what was kept: a robot's meshes are read and covered once per set
// instead of once per problem and run. A kept result is used only for input
// equal to the input it was made from, compared whole (not by a hash alone),
// so it is the result loading would give.
#include "shapes/convex_hull.h"
#include "shapes/mesh.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace prmkit {

/// A mesh's BVH and, when asked for, its convex cover.
struct PreparedMesh {
  std::shared_ptr<BvhModel> bvh;
  ConvexCover cover;
};
/// buildBvh(mesh) and, with `withCover`, convexCoverOf(mesh, bvh): built once
/// per distinct mesh (equal vertices and triangles); each caller gets its own
/// copy of the BVH (FCL writes a geometry's bounds into it).
PreparedMesh prepareMesh(const Mesh& mesh, bool withCover);

/// The mesh read before from a file of exactly these bytes, with this
/// (lower-case) extension and scale, if one was kept.
std::optional<Mesh> keptMeshFile(std::string_view bytes, std::string_view extension, const Eigen::Vector3d& scale);
/// Keeps `mesh`, read from a file of `bytes` (the oldest entries make room; nothing when it alone is larger than
/// kMaxMeshCacheBytes).
void keepMeshFile(std::string bytes, std::string extension, const Eigen::Vector3d& scale, const Mesh& mesh);

/// What the caches hold at most: file bytes, meshes, BVHs and convex covers
/// together (past it, the oldest entries make room for new ones).
inline constexpr std::uint64_t kMaxMeshCacheBytes = std::uint64_t{256} << 20;

/// Lookups that found what they asked for, and those that did not, so far in
/// this process; and the bytes the caches hold now.
struct MeshCacheCounts {
  std::uint64_t file_hits = 0, file_misses = 0, prepared_hits = 0, prepared_misses = 0;
  std::uint64_t bytes_kept = 0;
};
MeshCacheCounts meshCacheCounts();

}  // namespace prmkit
