#include "base/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
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

/// The first byte where `text` is not UTF-8 (a truncated or overlong
/// sequence, a surrogate, a code point above U+10FFFF), if any.
std::optional<std::size_t> invalidUtf8(const std::string& text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char lead = bytes[i];
    std::size_t length = 0;
    std::uint32_t code = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      code = lead & 0x1Fu;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      code = lead & 0x0Fu;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      code = lead & 0x07u;
    } else {
      return i;
    }
    if (text.size() - i < length) return i;
    for (std::size_t k = 1; k < length; ++k) {
      if ((bytes[i + k] & 0xC0u) != 0x80u) return i;
      code = (code << 6) | (bytes[i + k] & 0x3Fu);
    }
    const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    if (overlong || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return i;
    i += length;
  }
  return std::nullopt;
}

std::string readTextFile(const std::filesystem::path& file, std::uintmax_t maxBytes, const std::string& what) {
  std::string text = readInputFile(file, maxBytes, what);
  if (const auto at = invalidUtf8(text)) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*at), '\n');
    const auto lineStart = text.rfind('\n', *at == 0 ? 0 : *at - 1);
    const std::size_t column = lineStart == std::string::npos || *at == 0 ? *at + 1 : *at - lineStart;
    throw InputFileError(fmt::format("{}:{}:{}: not UTF-8 text (byte 0x{:02x}); a {} is UTF-8 text", file.string(),
                                     line, column, static_cast<unsigned char>(text[*at]), what));
  }
  return text;
}

}  // namespace prmkit
