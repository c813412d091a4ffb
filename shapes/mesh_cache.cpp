#include "shapes/mesh_cache.h"

#include <deque>
#include <functional>
#include <mutex>
#include <tuple>
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
/// What a BVH keeps: its nodes, its copy of the vertices and triangles, and the primitive order.
std::uint64_t bvhBytes(const BvhModel& bvh) {
  return static_cast<std::uint64_t>(bvh.getNumBVs()) * sizeof(fcl::BVNode<fcl::OBBRSSd>) +
         static_cast<std::uint64_t>(bvh.num_vertices) * sizeof(fcl::Vector3d) +
         static_cast<std::uint64_t>(bvh.num_tris) * (sizeof(fcl::Triangle) + sizeof(unsigned int));
}
std::uint64_t hullBytes(const ConvexHull& hull) {
  return sizeof(ConvexHull) + hull.vertices.size() * sizeof(Eigen::Vector3d) +
         (hull.neighbour_start.size() + hull.neighbour_list.size()) * sizeof(int);
}
std::uint64_t coverBytes(const ConvexCover& cover) {
  std::uint64_t bytes = cover.hull ? hullBytes(*cover.hull) : 0;
  for (const auto& piece : cover.pieces) bytes += piece ? hullBytes(*piece) : 0;
  return bytes + cover.groups.size() * sizeof(ConvexCover::Group);
}

struct FileEntry {
  std::string bytes, extension;
  Eigen::Vector3d scale;
  Mesh mesh;
  std::uint64_t id = 0, size = 0;
};
struct PreparedEntry {
  Mesh mesh;
  std::shared_ptr<BvhModel> bvh;
  std::optional<ConvexCover> cover;
  std::uint64_t id = 0, size = 0;
};

/// Both caches, keyed by a hash of their input and holding the input itself
/// for the comparison that decides. Everything an entry holds counts against
/// kMaxMeshCacheBytes (file bytes, meshes, BVHs, covers); an entry that does
/// not fit pushes out the oldest ones, so that a process that reads many
/// distinct meshes keeps the most recent and stays bounded.
struct MeshCache {
  std::mutex mutex;
  std::unordered_multimap<std::size_t, FileEntry> files;
  std::unordered_multimap<std::size_t, PreparedEntry> prepared;
  /// Entries oldest first: (is a file entry, key, id).
  std::deque<std::tuple<bool, std::size_t, std::uint64_t>> order;
  std::uint64_t bytes = 0, nextId = 0;
  MeshCacheCounts counts;

  /// Frees room for `size` bytes by dropping the oldest entries; false when
  /// `size` alone is more than the bound (then nothing is dropped).
  bool makeRoom(std::uint64_t size) {
    if (size > kMaxMeshCacheBytes) return false;
    while (bytes + size > kMaxMeshCacheBytes && !order.empty()) {
      // Plain names, not a structured binding: clang (the fuzz build) does
      // not let a lambda capture one.
      const bool isFile = std::get<0>(order.front());
      const std::size_t key = std::get<1>(order.front());
      const std::uint64_t id = std::get<2>(order.front());
      order.pop_front();
      auto drop = [&](auto& map) {
        const auto [first, last] = map.equal_range(key);
        for (auto entry = first; entry != last; ++entry)
          if (entry->second.id == id) {
            bytes -= entry->second.size;
            map.erase(entry);
            return;
          }
      };
      if (isFile)
        drop(files);
      else
        drop(prepared);
    }
    return true;
  }
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
  if (!kept.makeRoom(size)) return;
  kept.bytes += size;
  const std::size_t key = fileKey(bytes, extension);
  const std::uint64_t id = kept.nextId++;
  kept.files.emplace(key, FileEntry{std::move(bytes), std::move(extension), scale, mesh, id, size});
  kept.order.emplace_back(true, key, id);
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
  const std::uint64_t size = meshBytes(mesh) + bvhBytes(*built.bvh) + (withCover ? coverBytes(built.cover) : 0);
  std::lock_guard lock(kept.mutex);
  if (kept.makeRoom(size)) {
    kept.bytes += size;
    const std::uint64_t id = kept.nextId++;
    kept.prepared.emplace(key,
                          PreparedEntry{mesh, std::make_shared<BvhModel>(*built.bvh),
                                        withCover ? std::optional<ConvexCover>(built.cover) : std::nullopt, id, size});
    kept.order.emplace_back(false, key, id);
  }
  return built;
}

MeshCacheCounts meshCacheCounts() {
  MeshCache& kept = cache();
  std::lock_guard lock(kept.mutex);
  MeshCacheCounts counts = kept.counts;
  counts.bytes_kept = kept.bytes;
  return counts;
}

}  // namespace prmkit
