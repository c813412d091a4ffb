#pragma once
// Mesh files read with assimp (OBJ, STL, COLLADA, ...), every file hostile
// until read: its size, its node tree's depth and width, COLLADA's numbers
// and polygon corners bounded before assimp's import, the files it names
// opened only through prmkit's own file system for assimp
// (io/mesh_file_system.h), and what was read kept in the mesh cache
// (shapes/mesh_cache.h).
#include "shapes/mesh.h"

#include <filesystem>

namespace prmkit {

/// Reads OBJ, STL, COLLADA (anything assimp reads), applying the file's node
/// hierarchy (root included) and then `scale`. Throws MeshLoadError.
Mesh loadMeshFile(const std::filesystem::path& file, const Eigen::Vector3d& scale = Eigen::Vector3d::Ones());

/// OMPL.app's reference point of a robot mesh (RigidBodyGeometry's robot
/// center): the mean of the vertices as assimp returns them with OMPL.app's
/// import flags (GenNormals, Triangulate, JoinIdenticalVertices, SortByPType,
/// OptimizeGraph), the nodes' transforms applied, summed in single
/// precision. Vertices that share a position but not a normal (double-sided
/// faces, per-face normals) count once each, so this is not the mean of the
/// welded mesh. Unscaled. Throws MeshLoadError.
Eigen::Vector3d omplAppVertexMean(const std::filesystem::path& file);

}  // namespace prmkit
