#include "environments/input_file.h"

#include <fmt/format.h>

#include <fstream>
#include <iterator>

namespace prmkit {

void requireInputFile(const std::filesystem::path& file, std::uintmax_t maxBytes, const std::string& what) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error))
    throw InputFileError(fmt::format("{} '{}' does not exist or is not a regular file", what, file.string()));
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  if (error)
    throw InputFileError(fmt::format("{} '{}': cannot read its size ({})", what, file.string(), error.message()));
  if (size > maxBytes)
    throw InputFileError(fmt::format("{} '{}' has {} bytes, more than the {} MiB prmkit reads", what, file.string(),
                                     size, maxBytes >> 20));
}

std::string excerpt(std::string_view text, std::size_t most) {
  if (text.size() <= most) return std::string(text);
  return std::string(text.substr(0, most)) + "...";
}

std::string readInputFile(const std::filesystem::path& file, std::uintmax_t maxBytes, const std::string& what) {
  requireInputFile(file, maxBytes, what);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputFileError(fmt::format("cannot open {} '{}'", what, file.string()));
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > maxBytes)
      throw InputFileError(fmt::format("{} '{}' grew past the {} MiB prmkit reads while it was read", what,
                                       file.string(), maxBytes >> 20));
  }
  return text;
}

}  // namespace prmkit
