#pragma once
// Where prmkit writes: output folders and the files in them. prmkit often
// runs as root in containers, and an output folder may hold entries planted
// by someone else (a symlink named path.csv pointing at /etc/passwd, a FIFO
// named like a temporary). Every file is therefore made relative to a folder
// opened once, created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW) under an
// unpredictable name and renamed over its target, which replaces a planted
// symlink instead of following it. A set of files is committed as a whole:
// a journal written before the first rename lets the next prmkit that takes
// the folder's lock finish an interrupted commit (docs/commands.md, "Output
// folders").
#include <chrono>
#include <cstddef>
#include <optional>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prmkit {

/// Refuses (InputError naming `option`) an output folder that cannot be made:
/// an empty name, a path through a regular file or a dangling symlink, below
/// a folder that cannot be written (/proc, a read-only mount). Creates
/// nothing, so that it can run before any work and a refused run leaves no trace.
void requireOutputFolder(const std::filesystem::path& dir, const std::string& option);
/// The same for an output file: its folder, and the file itself is not a
/// folder or a dangling symlink.
void requireOutputFile(const std::filesystem::path& file, const std::string& option);
/// Refuses (InputError naming `option`) an output folder where one of the
/// files a run will write (`names`, as OutputFiles takes them) is a folder:
/// a rename cannot replace it, so it is found before the work, not after.
void requireOutputNames(const std::filesystem::path& dir, const std::vector<std::string>& names,
                        const std::string& option);

/// The name of a commit's journal in an output folder: present only while a
/// set of files is being renamed into place, or after a run was killed then.
inline constexpr std::string_view kCommitJournalName = ".prmkit-commit";
/// Every temporary file prmkit makes in an output folder starts with this.
inline constexpr std::string_view kTemporaryPrefix = ".prmkit-tmp-";

/// An output folder, created when missing, opened and held under an exclusive
/// lock (its `.prmkit.lock`, flock) for as long as this lives. A sweep,
/// resume or merge takes it without waiting and stops with an error when
/// another holds it; `plan` waits for it around its commit, so that the files
/// in a folder come from one run even when two runs share it. Taking the lock
/// first finishes what a killed run left: a commit whose journal exists is
/// rolled forward, temporaries no live process holds are removed.
/// InputError when the folder cannot be made or locked (a lock file that is a
/// symlink or not a regular file is refused).
class FolderLock {
 public:
  enum class Wait { No, Yes };
  /// With Wait::Yes and a `deadline`, waits for another holder until then at
  /// most (a run's time limit), then throws InputError saying who holds it.
  FolderLock(const std::filesystem::path& folder, Wait wait,
             std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();

  const std::filesystem::path& folder() const { return folder_; }
  /// The open folder: every file prmkit makes in it is made relative to this.
  int descriptor() const { return folderFd_; }
  /// A file in the folder opened for appending (sweeps' runs.jsonl), created
  /// when missing; refused when it is a symlink, not a regular file, or has
  /// other hard links (appending would write into a file elsewhere).
  int openForAppend(const std::string& name) const;

 private:
  std::filesystem::path folder_;
  int folderFd_ = -1;
  int lockFd_ = -1;
};

/// Files written as one set: each first into a temporary beside its target,
/// then, once all were written and synced, a journal names every rename and
/// removal, the renames happen, and the journal goes. Killed before the
/// journal, the folder keeps the previous files; after it, the next lock
/// holder completes the set. Names are a file name or one subfolder and a
/// file name ("ompl/x.log"); they come from prmkit, never from input.
class OutputFiles {
 public:
  void add(const std::string& name, std::string content);
  /// A previous run's file that this run must not leave behind (a stale path.csv).
  void remove(const std::string& name);
  /// Writes and renames everything into the locked folder; returns the final
  /// paths. Throws std::runtime_error.
  std::vector<std::filesystem::path> commit(const FolderLock& lock);
  /// Tests only: called after each rename of a commit with the number done,
  /// so that a test can kill the process between two renames.
  void setAfterRenameForTests(std::function<void(std::size_t)> hook) { afterRename_ = std::move(hook); }

 private:
  std::vector<std::pair<std::string, std::string>> files_;
  std::vector<std::string> removals_;
  std::function<void(std::size_t)> afterRename_;
};

/// One file written into place by a temporary and a rename (one rename is
/// atomic: no journal, no lock), e.g. `check --out` and `verify --html`;
/// its folder is made when missing.
/// Throws std::runtime_error.
std::filesystem::path writeFileAtomically(const std::filesystem::path& file, std::string_view content);

}  // namespace prmkit
