#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace prmkit {

/// The `prmkit` program. Exit codes: 0 solved / valid, 1 no solution within
/// the limits / path collides, 2 bad input, 3 an internal error.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace prmkit
