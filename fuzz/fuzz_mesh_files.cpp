// The files a mesh file names, through prmkit's MeshFileSystem (assimp's
// reads of an OBJ's material library, a glTF's buffers, a COLLADA's images,
// a 3MF's zip entries): data[0] picks the format, data[1] what the named
// file is (a regular file, a FIFO, a symlink out of the folder, nothing),
// data[2..3] the mesh file's length; the rest is the mesh file, then the
// named file's bytes.
#include "io/mesh_reader.h"
#include "shapes/mesh.h"
#include "fuzz_input.h"

#include <sys/stat.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  struct Format {
    const char* mesh;
    const char* side;
  };
  static const Format kFormats[] = {
      {"mesh.obj", "side.mtl"}, {"mesh.gltf", "side.bin"}, {"mesh.3mf", "side.bin"}, {"mesh.dae", "side.png"}};
  const Format& format = kFormats[data[0] % 4];
  const std::size_t meshBytes = std::min<std::size_t>(size - 4, data[2] | (std::size_t{data[3]} << 8));
  namespace fs = std::filesystem;
  const fs::path folder = prmkit::fuzz::workFolder() / "files";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path side = folder / format.side;
  switch (data[1] % 4) {
    case 0:
      prmkit::fuzz::writeFile("files/" + std::string(format.side), data + 4 + meshBytes, size - 4 - meshBytes);
      break;
    case 1:
      ::mkfifo(side.c_str(), 0644);
      break;
    case 2:
      prmkit::fuzz::writeFile("outside.bin", data + 4 + meshBytes, size - 4 - meshBytes);
      fs::create_symlink(prmkit::fuzz::workFolder() / "outside.bin", side);
      break;
    default:
      break;
  }
  const auto file = prmkit::fuzz::writeFile("files/" + std::string(format.mesh), data + 4, meshBytes);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::loadMeshFile(file); });
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::omplAppVertexMean(file); });
  return 0;
}
