#pragma once
// Shared by the fuzz targets: the input is written to a file (every prmkit
// reader takes a path), read, and any refusal other than the two that mean
// "bad input" (exit 2) is a finding, as are crashes, sanitizer reports,
// hangs and memory blow-ups (libFuzzer's -timeout and -rss_limit_mb).
#include "base/input_file.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace prmkit::fuzz {

/// A folder of this process's own, made once.
inline const std::filesystem::path& workFolder() {
  static const std::filesystem::path folder = [] {
    auto path = std::filesystem::temp_directory_path() / ("prmkit-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  return folder;
}

inline std::filesystem::path writeFile(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const auto path = workFolder() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

inline std::filesystem::path writeFile(const std::string& name, const std::string& text) {
  return writeFile(name, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

/// Runs `read`; bad input must end in InvalidInput or std::invalid_argument
/// (what the CLI turns into exit 2). Anything else aborts, so that libFuzzer
/// keeps the input as a finding.
template <class Read>
void expectCleanRefusal(Read&& read) {
  try {
    read();
  } catch (const InvalidInput&) {
  } catch (const std::invalid_argument&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "escaped exception (would exit 3, not 2): %s\n", e.what());
    std::abort();
  }
}

}  // namespace prmkit::fuzz
