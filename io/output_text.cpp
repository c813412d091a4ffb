#include "io/output_text.h"

#include <cctype>

namespace prmkit {

std::string markupEscaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string fileStem(std::string_view name) {
  std::string stem;
  for (const char c : name.substr(0, 100)) {
    const bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    stem += safe ? c : '_';
  }
  for (char& c : stem) {
    if (c != '.') break;
    c = '_';
  }
  return stem.empty() ? "unnamed" : stem;
}

}  // namespace prmkit
