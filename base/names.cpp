#include "base/names.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace prmkit {

namespace {

/// Optimal string alignment distance (Damerau-Levenshtein without repeated
/// edits of one substring), case-insensitive. Two rows of the table and the
/// one before them: the names are short, the memory is O(length).
std::size_t editDistance(std::string_view a, std::string_view b) {
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

}  // namespace

std::string closestName(std::string_view typed, const std::vector<std::string>& allowed) {
  // Names of user input are capped: a megabyte-long "name" gets no suggestion.
  constexpr std::size_t kLongestCompared = 256;
  if (typed.empty() || typed.size() > kLongestCompared) return {};
  const std::size_t slip = std::max<std::size_t>(1, typed.size() / 3);
  std::string best;
  std::size_t bestDistance = slip + 1;
  for (const std::string& name : allowed) {
    if (name.size() > kLongestCompared) continue;
    const std::size_t distance = editDistance(typed, name);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return best;
}

std::string unknownNameMessage(std::string_view kind, std::string_view typed, const std::vector<std::string>& allowed,
                               std::string_view orElse) {
  const std::string closest = closestName(typed, allowed);
  const std::string question = closest.empty() ? "" : fmt::format("did you mean '{}'? ", closest);
  return fmt::format("unknown {} '{}' ({}expected one of: {}{})", kind, typed, question, fmt::join(allowed, ", "),
                     orElse);
}

}  // namespace prmkit
