#pragma once
// A queries file (docs/problem-format.md, "Queries"): start and goal pairs
// that `plan --queries` answers one after the other on one roadmap.
#include "io/problem.h"

#include <filesystem>
#include <vector>

namespace prmkit {

/// Most queries one file may hold.
inline constexpr std::size_t kMaxQueries = 100'000;

struct QueryEnds {
  Config start, goal;
};

/// Reads `file` (YAML: `queries:`, a list of maps with `start` and `goal`,
/// each written as the problem's own); every end is checked as the
/// problem's are (readEndpointConfig). Throws InputError with file:line:column.
std::vector<QueryEnds> readQueries(const std::filesystem::path& file, const Problem& problem);

}  // namespace prmkit
