#pragma once
// Messages for a name the user typed that is not one of the names allowed
// there (a checker, a planner, a key of a problem file, a list item).
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

/// The allowed name closest to `typed` by edit distance (insertions,
/// deletions, substitutions and swaps of neighbours, ignoring case), if it
/// is close enough to be a slip: at most a third of the typed length apart
/// (one edit for names of up to five letters). Empty otherwise.
std::string closestName(std::string_view typed, const std::vector<std::string>& allowed);

/// "unknown KIND 'TYPED' (did you mean 'NAME'? expected one of: A, B, C)";
/// the question only when closestName finds one; `orElse` follows the list
/// (", or a mix such as ...").
std::string unknownNameMessage(std::string_view kind, std::string_view typed, const std::vector<std::string>& allowed,
                               std::string_view orElse = {});

}  // namespace prmkit
