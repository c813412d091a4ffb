#pragma once
#include <cstdlib>
#include <filesystem>
#include <string>

namespace prmkit::test {

inline std::filesystem::path sourceDir() { return PRMKIT_SOURCE_DIR; }
inline std::filesystem::path problemFile(const std::string& name) {
  return sourceDir() / "configs" / "problems" / (name + ".yaml");
}
/// Scales iteration counts down under sanitizers (PRMKIT_TEST_SCALE, default 1).
inline int scaled(int n) {
  const char* s = std::getenv("PRMKIT_TEST_SCALE");
  const double scale = s ? std::atof(s) : 1.0;
  return std::max(1, static_cast<int>(n * (scale > 0 ? scale : 1.0)));
}

}  // namespace prmkit::test
