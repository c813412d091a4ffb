#pragma once
// The files assimp opens while it reads a mesh: the mesh file itself and the
// files it names (an OBJ's `mtllib`, a glTF's buffers, a COLLADA's images).
// assimp's own file system opens any path a file names, without checks, so
// a named FIFO blocks forever and a named multi-gigabyte file is read whole.
// This one applies the mesh file's rules to every file: a regular file,
// inside the folder of the mesh file, all files together within the mesh
// size limit, and no zip archive (assimp's unzipper and 3MF reader abort the
// process on malformed archives).
#include <assimp/IOSystem.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace prmkit {

/// The file's extension in lower case, with its dot (".obj"), or empty.
std::string lowerExtension(const std::filesystem::path& file);

class MeshFileSystem : public Assimp::IOSystem {
 public:
  /// `meshFile` is the file given to assimp; `maxBytes` bounds the bytes of
  /// all files opened together.
  MeshFileSystem(const std::filesystem::path& meshFile, std::uintmax_t maxBytes);

  bool Exists(const char* file) const override;
  char getOsSeparator() const override { return '/'; }
  Assimp::IOStream* Open(const char* file, const char* mode = "rb") override;
  void Close(Assimp::IOStream* stream) override;

  /// Why files were refused, one sentence each ("'x.mtl': not a regular
  /// file"), for the error when assimp then fails.
  const std::vector<std::string>& refusals() const { return refusals_; }
  /// Whether every other file assimp opened holds only looks
  /// (an OBJ's material library, images), never geometry: the mesh then
  /// depends on the mesh file's bytes alone.
  bool geometryFromMeshFileAlone() const { return geometryFromMeshFileAlone_; }

 private:
  /// The reason `file` may not be opened, or empty.
  std::string refusal(const std::filesystem::path& file) const;

  std::vector<std::filesystem::path> allowedFolders_;
  std::uintmax_t remainingBytes_;
  std::vector<std::string> refusals_;
  std::filesystem::path meshFile_;  // as given, absolute and normal
  bool geometryFromMeshFileAlone_ = true;
  /// Notes that assimp opens `file`.
  void asked(const char* file);
};

}  // namespace prmkit
