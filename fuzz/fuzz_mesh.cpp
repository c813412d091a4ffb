// Mesh files through prmkit's loader (assimp, then the size limits, welding
// and, for COLLADA, the node graph check): the first byte picks the format.
#include "io/mesh_reader.h"
#include "shapes/mesh.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kExtensions[] = {"stl", "obj", "dae"};
  const std::string name = std::string("mesh.") + kExtensions[data[0] % 3];
  const auto file = prmkit::fuzz::writeFile(name, data + 1, size - 1);
  prmkit::fuzz::expectCleanRefusal([&] { prmkit::loadMeshFile(file); });
  return 0;
}
