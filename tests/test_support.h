#pragma once
#include "app/cli.h"

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>
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

struct Run {
  int code;
  std::string out, err;
};

inline Run cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = runCli(args, out, err);
  return {code, out.str(), err.str()};
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() / std::filesystem::path("prmkit-test-" + std::to_string(::getpid()) + "-" +
                                                 std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

/// `text` with the first `from` replaced by `to` (which must be there).
inline std::string replaceOnce(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("replaceOnce: '" + from + "' not found");
  return text.replace(at, from.size(), to);
}

}  // namespace prmkit::test
