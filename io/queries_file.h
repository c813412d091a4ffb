#pragma once
// A queries file (docs/problem-format.md, "Queries"): start and goal pairs
// that `plan --queries` answers one after the other on one roadmap, read as
// written (setup/build_problem.h reads them as the robot does).
#include "io/problem_spec.h"

#include <filesystem>
#include <vector>

namespace prmkit {

/// Most queries one file may hold.
inline constexpr std::size_t kMaxQueries = 100'000;

struct QuerySpec {
  EndpointSpec start, goal;
};

/// Reads `file` (YAML: `queries:`, a list of maps with `start` and `goal`,
/// each written as the problem's own). Throws InputError with file:line:column.
std::vector<QuerySpec> readQuerySpecs(const std::filesystem::path& file);

}  // namespace prmkit
