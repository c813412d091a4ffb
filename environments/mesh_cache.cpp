#include "environments/mesh_cache.h"

#include <functional>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prmkit {

namespace {
std::string_view bytesOf(const std::vector<Eigen::Vector3d>& vertices) {
  return {reinterpret_cast<const char*>(vertices.data()), vertices.size() * sizeof(Eigen::Vector3d)};
}
std::string_view bytesOf(const std::vector<std::array<int, 3>>& triangles) {
  return {reinterpret_cast<const char*>(triangles.data()), triangles.size() * sizeof(std::array<int, 3>)};
}
std::uint64_t meshBytes(const Mesh& mesh) { return bytesOf(mesh.vertices).size() + bytesOf(mesh.triangles).size(); }

struct FileEntry {
  std::string bytes, extension;
  Eigen::Vector3d scale;
  Mesh mesh;
};
struct PreparedEntry {
  Mesh mesh;
  std::shared_ptr<BvhModel> bvh;
  std::optional<ConvexCover> cover;
};

/// Both caches, keyed by a hash of their input and holding the input itself
/// for the comparison that decides.
struct MeshCache {
  std::mutex mutex;
  std::unordered_multimap<std::size_t, FileEntry> files;
  std::unordered_multimap<std::size_t, PreparedEntry> prepared;
  std::uint64_t bytes = 0;
  MeshCacheCounts counts;
};
MeshCache& cache() {
  static MeshCache instance;
  return instance;
}

std::size_t fileKey(std::string_view bytes, std::string_view extension) {
  return std::hash<std::string_view>{}(bytes) ^ (std::hash<std::string_view>{}(extension) << 1);
}
std::size_t meshKey(const Mesh& mesh) {
  return std::hash<std::string_view>{}(bytesOf(mesh.vertices)) ^
         (std::hash<std::string_view>{}(bytesOf(mesh.triangles)) << 1);
}
bool sameMesh(const Mesh& a, const Mesh& b) {
  return bytesOf(a.vertices) == bytesOf(b.vertices) && bytesOf(a.triangles) == bytesOf(b.triangles);
}
}  // namespace

std::optional<Mesh> keptMeshFile(std::string_view bytes, std::string_view extension, const Eigen::Vector3d& scale) {
  MeshCache& kept = cache();
  std::lock_guard lock(kept.mutex);
  const auto [first, last] = kept.files.equal_range(fileKey(bytes, extension));
  for (auto entry = first; entry != last; ++entry) {
    const FileEntry& file = entry->second;
    if (file.bytes == bytes && file.extension == extension && file.scale == scale) {
      ++kept.counts.file_hits;
      return file.mesh;
    }
  }
  ++kept.counts.file_misses;
  return std::nullopt;
}

void keepMeshFile(std::string bytes, std::string extension, const Eigen::Vector3d& scale, const Mesh& mesh) {
  MeshCache& kept = cache();
  std::lock_guard lock(kept.mutex);
  const std::uint64_t size = bytes.size() + meshBytes(mesh);
  if (kept.bytes + size > kMaxMeshCacheBytes) return;
  kept.bytes += size;
  const std::size_t key = fileKey(bytes, extension);
  kept.files.emplace(key, FileEntry{std::move(bytes), std::move(extension), scale, mesh});
}

PreparedMesh prepareMesh(const Mesh& mesh, bool withCover) {
  MeshCache& kept = cache();
  const std::size_t key = meshKey(mesh);
  {
    std::lock_guard lock(kept.mutex);
    const auto [first, last] = kept.prepared.equal_range(key);
    for (auto entry = first; entry != last; ++entry) {
      PreparedEntry& prepared = entry->second;
      if (!sameMesh(prepared.mesh, mesh) || (withCover && !prepared.cover)) continue;
      ++kept.counts.prepared_hits;
      // A copy of the BVH: FCL writes a geometry's bounds into it when an
      // object is made of it, and loads on other threads make their own.
      return {std::make_shared<BvhModel>(*prepared.bvh), withCover ? *prepared.cover : ConvexCover{}};
    }
    ++kept.counts.prepared_misses;
  }
  // Built outside the lock: another thread may load another mesh meanwhile.
  PreparedMesh built{buildBvh(mesh), {}};  // buildBvh first: it checks the indices and coordinates
  if (withCover) built.cover = convexCoverOf(mesh, *built.bvh);
  std::lock_guard lock(kept.mutex);
  if (kept.bytes + meshBytes(mesh) <= kMaxMeshCacheBytes) {
    kept.bytes += meshBytes(mesh);
    kept.prepared.emplace(key, PreparedEntry{mesh, std::make_shared<BvhModel>(*built.bvh),
                                             withCover ? std::optional<ConvexCover>(built.cover) : std::nullopt});
  }
  return built;
}

MeshCacheCounts meshCacheCounts() {
  MeshCache& kept = cache();
  std::lock_guard lock(kept.mutex);
  return kept.counts;
}

}  // namespace prmkit
