#include "io/mesh_reader.h"

#include "base/termination.h"
#include "io/mesh_file_system.h"
#include "shapes/mesh_cache.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>
#include <tinyxml2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <cctype>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace prmkit {

namespace {

/// Calls visit(mesh, transform) for every mesh of every node, the node tree
/// in preorder (a node's meshes, then its children in order) with the
/// nodes' transforms composed from the root's. The tree comes from the file
/// (COLLADA instancing can make it deep and wide), so it is walked with an
/// explicit stack and bounded in nodes.
template <class Visit>
void forEachNodeMesh(const aiScene& scene, const std::filesystem::path& file, Visit&& visit) {
  std::vector<std::pair<const aiNode*, aiMatrix4x4>> stack{{scene.mRootNode, scene.mRootNode->mTransformation}};
  std::size_t visited = 0;
  while (!stack.empty()) {
    const auto [node, transform] = stack.back();
    stack.pop_back();
    if (++visited > kMaxMeshNodes)
      throw MeshLoadError(fmt::format("mesh file '{}' has more than {} scene nodes", file.string(), kMaxMeshNodes));
    for (unsigned int i = 0; i < node->mNumMeshes; ++i) visit(*scene.mMeshes[node->mMeshes[i]], transform);
    for (unsigned int c = node->mNumChildren; c-- > 0;)
      stack.emplace_back(node->mChildren[c], transform * node->mChildren[c]->mTransformation);
  }
}

/// Every triangle of the scene's node tree, with the nodes' transforms,
/// bounded in triangles.
void collectNodes(const aiScene& scene, const std::filesystem::path& file, Mesh& out) {
  forEachNodeMesh(scene, file, [&](const aiMesh& mesh, const aiMatrix4x4& transform) {
    if (out.triangles.size() + mesh.mNumFaces > kMaxMeshTriangles ||
        out.vertices.size() + mesh.mNumVertices > 3 * kMaxMeshTriangles)
      throw MeshLoadError(fmt::format("mesh file '{}' has more than {} triangles (or three times as many vertices)",
                                      file.string(), kMaxMeshTriangles));
    const int offset = static_cast<int>(out.vertices.size());
    for (unsigned int v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = transform * mesh.mVertices[v];
      out.vertices.emplace_back(p.x, p.y, p.z);
    }
    for (unsigned int f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines carry no volume
      out.triangles.push_back({offset + static_cast<int>(face.mIndices[0]), offset + static_cast<int>(face.mIndices[1]),
                               offset + static_cast<int>(face.mIndices[2])});
    }
  });
}

/// A COLLADA `count` attribute, or an index in `<p>`, `<vcount>`, `<v>` or
/// `<h>`, counts or names things the file itself holds, so none exceeds the
/// file's size in bytes. assimp sizes its buffers by them without a check:
/// found by the fuzz_mesh target, a 1 kB file whose `<p>` held a control
/// character made it allocate 6 GB. Index lists are read here as what they
/// must be, unsigned integers separated by whitespace.
void checkColladaNumbers(const std::filesystem::path& file, const tinyxml2::XMLElement& e, std::uintmax_t fileBytes) {
  auto fail = [&](const std::string& what) {
    throw MeshLoadError(fmt::format("{}:{}: <{}> {}", file.string(), e.GetLineNum(), e.Name(), what));
  };
  // The schema requires `count` on these, and assimp dereferences it
  // unchecked: found by fuzz_mesh, a <float_array> without it segfaulted.
  static const std::unordered_set<std::string_view> kCounted{
      "float_array", "int_array", "bool_array", "Name_array", "IDREF_array", "SIDREF_array", "accessor",
      "triangles",   "polylist",  "polygons",   "lines",      "linestrips",  "trifans",      "tristrips"};
  if (!e.Attribute("count") && kCounted.count(e.Name())) fail("has no count attribute (COLLADA requires one)");
  if (const char* count = e.Attribute("count")) {
    std::uintmax_t value = 0;
    const auto [end, error] = std::from_chars(count, count + std::strlen(count), value);
    if (error != std::errc() || *end != '\0' || value > fileBytes)
      fail(fmt::format("has count '{}', not a number of things a {}-byte file can hold", count, fileBytes));
  }
  const std::string_view name = e.Name();
  if (name != "p" && name != "vcount" && name != "v" && name != "h") return;
  const char* text = e.GetText();
  for (const char* c = text ? text : ""; *c != '\0';) {
    if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') {
      ++c;
      continue;
    }
    std::uintmax_t value = 0;
    const auto [end, error] = std::from_chars(c, c + std::strlen(c), value);
    if (error != std::errc() || end == c || value > fileBytes)
      fail("holds something other than unsigned indices a file of its size can refer to");
    c = end;
  }
}

/// COLLADA nodes may instance other nodes (`<instance_node url="#id">`): a
/// cycle makes assimp recurse until the stack overflows, and nodes that each
/// instance the next twice expand exponentially. The node graph is read with
/// tinyxml2 first (its element depth is bounded) and a cycle, or a graph that
/// expands beyond kMaxMeshNodes, is refused before assimp sees the file; so
/// are counts and indices beyond the file's size (checkColladaNumbers).
void checkColladaNodeGraph(const std::filesystem::path& file) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(file.string().c_str()) != tinyxml2::XML_SUCCESS)
    throw MeshLoadError(fmt::format("{}:{}: not a COLLADA file prmkit can read: {}", file.string(), doc.ErrorLineNum(),
                                    doc.ErrorStr()));
  const std::uintmax_t fileBytes = std::filesystem::file_size(file);
  std::vector<const tinyxml2::XMLElement*> nodes;
  std::unordered_map<const tinyxml2::XMLElement*, int> indexOf;
  std::unordered_map<std::string, int> byId;
  std::vector<const tinyxml2::XMLElement*> walk{doc.RootElement()};
  while (!walk.empty()) {
    const tinyxml2::XMLElement* e = walk.back();
    walk.pop_back();
    if (e == nullptr) continue;
    checkColladaNumbers(file, *e, fileBytes);
    if (std::string_view(e->Name()) == "node") {
      indexOf[e] = static_cast<int>(nodes.size());
      if (const char* id = e->Attribute("id")) byId.emplace(id, static_cast<int>(nodes.size()));
      nodes.push_back(e);
    }
    for (const auto* child = e->FirstChildElement(); child; child = child->NextSiblingElement()) walk.push_back(child);
  }
  std::vector<std::vector<int>> children(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (const auto* child = nodes[i]->FirstChildElement(); child; child = child->NextSiblingElement()) {
      const std::string_view name = child->Name();
      if (name == "node") children[i].push_back(indexOf.at(child));
      const char* url = child->Attribute("url");
      if (name == "instance_node" && url && url[0] == '#')
        if (const auto target = byId.find(url + 1); target != byId.end()) children[i].push_back(target->second);
    }
  // Depth-first, iteratively: 0 unseen, 1 on the stack, 2 done with its expanded size known.
  std::vector<int> state(nodes.size(), 0);
  std::vector<std::size_t> expanded(nodes.size(), 1);
  for (std::size_t root = 0; root < nodes.size(); ++root) {
    if (state[root] != 0) continue;
    std::vector<std::pair<int, std::size_t>> stack{{static_cast<int>(root), 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto n = static_cast<std::size_t>(node);
      if (next < children[n].size()) {
        const int child = children[n][next++];
        if (state[static_cast<std::size_t>(child)] == 1) {
          const char* id = nodes[static_cast<std::size_t>(child)]->Attribute("id");
          throw MeshLoadError(fmt::format("{}:{}: COLLADA node '{}' instances itself (through the nodes it holds)",
                                          file.string(), nodes[static_cast<std::size_t>(child)]->GetLineNum(),
                                          id ? id : "?"));
        }
        if (state[static_cast<std::size_t>(child)] == 0) {
          state[static_cast<std::size_t>(child)] = 1;
          stack.emplace_back(child, 0);
        }
        continue;
      }
      for (const int child : children[n])
        expanded[n] = std::min(expanded[n] + expanded[static_cast<std::size_t>(child)], kMaxMeshNodes + 1);
      if (expanded[n] > kMaxMeshNodes)
        throw MeshLoadError(fmt::format("{}:{}: COLLADA node expands to more than {} nodes through instance_node",
                                        file.string(), nodes[n]->GetLineNum(), kMaxMeshNodes));
      state[n] = 2;
      stack.pop_back();
    }
  }
}

}  // namespace

namespace {

/// Corners of polygon faces before triangulation: assimp's ear clipping is
/// quadratic in a face's corners, so one face of 10^5 corners in a small OBJ
/// would take minutes. Bounded per face and in the sum of squares over faces.
void checkPolygonCorners(const aiScene& scene, const std::filesystem::path& file) {
  std::uintmax_t work = 0;
  for (unsigned int m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh* mesh = scene.mMeshes[m];
    for (unsigned int f = 0; f < mesh->mNumFaces; ++f) {
      const std::uintmax_t corners = mesh->mFaces[f].mNumIndices;
      if (corners > kMaxFaceCorners)
        throw MeshLoadError(fmt::format("mesh file '{}': a face has {} corners, more than {}", file.string(), corners,
                                        kMaxFaceCorners));
      if (corners > 3) work += corners * corners;
      if (work > kMaxTriangulationWork)
        throw MeshLoadError(fmt::format(
            "mesh file '{}': its polygons are too large to triangulate (sum of squared corner counts above {})",
            file.string(), kMaxTriangulationWork));
    }
  }
}

/// The file as assimp reads it with the post-processing `flags`, after every
/// check of the file and of the files it names (MeshFileSystem). The scene
/// belongs to `importer`.
const aiScene& importChecked(Assimp::Importer& importer, const std::filesystem::path& file, unsigned int flags,
                             bool* geometryFromFileAlone = nullptr) {
  try {
    requireInputFile(file, kMaxMeshFileBytes, "mesh file");
  } catch (const InputFileError& e) {
    throw MeshLoadError(e.what());
  }
  checkSetupDeadline("reading mesh file", file.string());
  const std::string extension = lowerExtension(file);
  if (extension == ".zae")
    throw MeshLoadError(fmt::format("mesh file '{}': zipped COLLADA is not read (unzip it to a .dae)", file.string()));
  if (extension == ".dae") checkColladaNodeGraph(file);
  auto* files = new MeshFileSystem(file, kMaxMeshFileBytes);
  importer.SetIOHandler(files);  // the importer owns it
  auto failure = [&](const std::string& reason) {
    std::string message = fmt::format("cannot read mesh file '{}': {}", file.string(),
                                      reason.empty() ? std::string("assimp gave no reason") : reason);
    for (const auto& refused : files->refusals()) message += fmt::format("; refused {}", refused);
    return MeshLoadError(message);
  };
  // Read without post-processing first: polygon faces are checked before
  // they are triangulated (Importer::ReadFile runs the same steps after its import).
  const aiScene* scene = importer.ReadFile(file.string(), 0);
  if (scene == nullptr || scene->mRootNode == nullptr) throw failure(importer.GetErrorString());
  checkPolygonCorners(*scene, file);
  checkSetupDeadline("reading mesh file", file.string());
  scene = importer.ApplyPostProcessing(flags);
  if (scene == nullptr || scene->mRootNode == nullptr) throw failure(importer.GetErrorString());
  if (geometryFromFileAlone) *geometryFromFileAlone = files->geometryFromMeshFileAlone();
  return *scene;
}

}  // namespace

Mesh loadMeshFile(const std::filesystem::path& file, const Eigen::Vector3d& scale) {
  // A file read before with the same bytes gives the same mesh (mesh_cache.h).
  std::string bytes;
  try {
    bytes = readInputFile(file, kMaxMeshFileBytes, "mesh file");
  } catch (const InputFileError& e) {
    throw MeshLoadError(e.what());
  }
  const std::string extension = lowerExtension(file);
  if (auto kept = keptMeshFile(bytes, extension, scale)) return std::move(*kept);
  Assimp::Importer importer;
  bool geometryFromFileAlone = false;
  const aiScene& scene =
      importChecked(importer, file, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType,
                    &geometryFromFileAlone);
  Mesh mesh;
  collectNodes(scene, file, mesh);
  if (mesh.triangles.empty()) throw MeshLoadError(fmt::format("mesh file '{}' contains no triangles", file.string()));
  for (auto& v : mesh.vertices) {
    v = v.cwiseProduct(scale);
    if (!v.allFinite()) throw MeshLoadError(fmt::format("mesh file '{}' has a non-finite vertex", file.string()));
  }
  weldIdenticalVertices(mesh);
  // Kept only when nothing else shaped it and the file did not change while it was imported.
  if (geometryFromFileAlone) {
    try {
      if (readInputFile(file, kMaxMeshFileBytes, "mesh file") == bytes)
        keepMeshFile(std::move(bytes), extension, scale, mesh);
    } catch (const InputFileError&) {  // gone or grown since: not kept
    }
  }
  return mesh;
}

Eigen::Vector3d omplAppVertexMean(const std::filesystem::path& file) {
  Assimp::Importer importer;
  const aiScene& scene = importChecked(importer, file,
                                       aiProcess_GenNormals | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                           aiProcess_SortByPType | aiProcess_OptimizeGraph);
  // OMPL.app's sum: every vertex of every mesh of every node, in the same
  // order as its own walk, transformed and summed in single precision,
  // divided by the count as a float.
  aiVector3D sum(0, 0, 0);
  std::size_t count = 0;
  forEachNodeMesh(scene, file, [&](const aiMesh& mesh, const aiMatrix4x4& transform) {
    for (unsigned int v = 0; v < mesh.mNumVertices; ++v) sum += transform * mesh.mVertices[v];
    count += mesh.mNumVertices;
  });
  if (count == 0) throw MeshLoadError(fmt::format("mesh file '{}' has no vertices", file.string()));
  sum /= static_cast<float>(count);
  const Eigen::Vector3d mean(sum.x, sum.y, sum.z);
  if (!mean.allFinite()) throw MeshLoadError(fmt::format("mesh file '{}' has a non-finite vertex", file.string()));
  return mean;
}

}  // namespace prmkit
