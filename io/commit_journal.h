#pragma once
// The file operations behind io/output_folder.h, relative to an open folder:
// temporaries made exclusively and held while they live, renames into the
// folder or one subfolder of it, and the journal that commits a set of
// files as a whole (written before the first rename, completed by the next
// lock holder after a kill). Only output_folder.cpp uses this.
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prmkit::detail {

/// A std::runtime_error saying `what` and errno's text.
std::runtime_error systemError(const std::string& what);

/// A name prmkit may make in an output folder: a file, or one subfolder and
/// a file; no empty part, "." or "..".
bool validOutputName(std::string_view name);

/// What a commit renames and removes, in order.
struct Journal {
  std::vector<std::pair<std::string, std::string>> renames;  // temporary, target
  std::vector<std::string> removals;
};

/// The journal as its file holds it (a header line, one line a step, an end line).
std::string journalText(const Journal& journal);
/// Renames and removes what the journal says in the folder `dirFd` (a
/// rename whose temporary is gone was done before), calling `afterRename`
/// with the number done after each, then removes the journal file.
void performJournal(int dirFd, const Journal& journal, const std::function<void(std::size_t)>& afterRename);
/// Completes an interrupted commit of the folder `dirFd` (its journal, if
/// whole and naming only what prmkit writes; any other is removed), then
/// removes the temporaries no live process holds.
void recoverFolder(int dirFd);

/// A temporary written and synced, still open (and so still held) until it
/// is renamed into place.
struct WrittenTemporary {
  std::string name;
  int fd = -1;
};
/// Writes `content` into a new temporary in `dirFd` (`what` names the
/// target in errors); the caller closes it after its rename.
WrittenTemporary writeTemporary(int dirFd, std::string_view content, const std::string& what);
/// The same, closed; returns its name.
std::string writeClosedTemporary(int dirFd, std::string_view content, const std::string& what);

}  // namespace prmkit::detail
