#include "io/output_folder.h"

#include "io/commit_journal.h"

#include "io/yaml_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <thread>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

namespace prmkit {

namespace {

namespace fs = std::filesystem;

/// The checks of requireOutputFolder; messages name `shown`, what the user typed.
void requireWritableFolder(const fs::path& dir, const std::string& option, const std::string& shown) {
  if (dir.empty()) throw InputError(fmt::format("{} '': expected a folder name", option));
  // The deepest part of the path that exists must be a folder this process
  // may write into (where the rest will be made). A dangling symlink exists
  // as a name but cannot be made into a folder.
  fs::path existing = fs::absolute(dir).lexically_normal();
  std::error_code ec;
  while (!fs::exists(fs::symlink_status(existing, ec)) && existing.has_relative_path())
    existing = existing.parent_path();
  if (fs::is_symlink(fs::symlink_status(existing, ec)) && !fs::exists(existing, ec))
    throw InputError(fmt::format("{} '{}': '{}' is a symlink to nothing", option, shown, existing.string()));
  if (!fs::is_directory(existing, ec))
    throw InputError(fmt::format("{} '{}': '{}' is not a folder", option, shown, existing.string()));
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    throw InputError(
        fmt::format("{} '{}': cannot write into '{}': {}", option, shown, existing.string(), std::strerror(errno)));
  // Linux lets root pass access() on /proc and /sys, whose folders take no new files.
  struct statfs info {};
  if (::statfs(existing.c_str(), &info) == 0 && (info.f_type == PROC_SUPER_MAGIC || info.f_type == SYSFS_MAGIC))
    throw InputError(fmt::format("{} '{}': cannot write into '{}'", option, shown, existing.string()));
}

}  // namespace

using namespace detail;

void requireOutputFolder(const fs::path& dir, const std::string& option) {
  requireWritableFolder(dir, option, dir.string());
  // FolderLock refuses it too, but only after the work.
  std::error_code ec;
  const auto lock = fs::symlink_status(dir / ".prmkit.lock", ec);
  if (fs::exists(lock) && !fs::is_regular_file(lock))
    throw InputError(
        fmt::format("{} '{}': '{}' is not a regular file (a symlink or a special file planted there?): "
                    "remove it",
                    option, dir.string(), (dir / ".prmkit.lock").string()));
}

void requireOutputFile(const fs::path& file, const std::string& option) {
  std::error_code ec;
  if (file.empty()) throw InputError(fmt::format("{} '': expected a file name", option));
  if (fs::is_directory(file, ec))
    throw InputError(fmt::format("{} '{}': is a folder, expected a file name", option, file.string()));
  if (!file.has_filename()) throw InputError(fmt::format("{} '{}': expected a file name", option, file.string()));
  requireWritableFolder(fs::absolute(file).parent_path(), option, file.string());
}

void requireOutputNames(const fs::path& dir, const std::vector<std::string>& names, const std::string& option) {
  std::error_code ec;
  for (const std::string& name : names) {
    const auto status = fs::symlink_status(dir / name, ec);
    if (fs::is_directory(status))
      throw InputError(
          fmt::format("{} '{}': '{}' is a folder where this run writes a file: remove it or choose "
                      "another folder",
                      option, dir.string(), (dir / name).string()));
  }
}

FolderLock::FolderLock(const fs::path& folder, Wait wait, std::optional<std::chrono::steady_clock::time_point> deadline)
    : folder_(folder) {
  if (folder.empty()) throw InputError("the output folder's name is empty");
  std::error_code ec;
  fs::create_directories(folder, ec);
  folderFd_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folderFd_ < 0)
    throw InputError(fmt::format("{}: cannot open the output folder: {}", folder.string(),
                                 ec ? ec.message() : std::string(std::strerror(errno))));
  const fs::path file = folder / ".prmkit.lock";
  // O_NOFOLLOW: a lock file planted as a symlink would make prmkit create or
  // open a file elsewhere; O_NONBLOCK: a FIFO would block the open.
  lockFd_ = ::openat(folderFd_, ".prmkit.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat info {};
  if (lockFd_ < 0 || ::fstat(lockFd_, &info) != 0 || !S_ISREG(info.st_mode)) {
    const int error = errno;
    if (lockFd_ >= 0) ::close(lockFd_);
    ::close(folderFd_);
    throw InputError(lockFd_ >= 0 || error == ELOOP
                         ? fmt::format("{}: the folder's lock is not a regular file (a symlink or a special file "
                                       "planted there?): remove it",
                                       file.string())
                         : fmt::format("{}: cannot open the folder's lock: {}", file.string(), std::strerror(error)));
  }
  int locked = ::flock(lockFd_, LOCK_EX | LOCK_NB);
  if (locked != 0 && errno == EWOULDBLOCK && wait == Wait::Yes) {
    // Say why nothing happens: a sweep may hold the folder for hours.
    std::fprintf(stderr, "prmkit: waiting for %s, held by another prmkit run\n", file.c_str());
    if (deadline) {
      // Polled: flock has no timeout, and a run must end within its limit.
      while (locked != 0 && (errno == EWOULDBLOCK || errno == EINTR) && std::chrono::steady_clock::now() < *deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        locked = ::flock(lockFd_, LOCK_EX | LOCK_NB);
      }
      if (locked != 0 && errno == EWOULDBLOCK) {
        ::close(lockFd_);
        ::close(folderFd_);
        throw InputError(
            fmt::format("{}: another prmkit run held this folder (its {}) until this run's time "
                        "limit: nothing was written; choose another --out",
                        folder.string(), file.string()));
      }
    } else {
      do {
        locked = ::flock(lockFd_, LOCK_EX);
      } while (locked != 0 && errno == EINTR);
    }
  }
  if (locked != 0) {
    const int error = errno;
    ::close(lockFd_);
    ::close(folderFd_);
    throw InputError(error == EWOULDBLOCK
                         ? fmt::format("{}: another prmkit sweep or merge is writing to this folder (it holds {})",
                                       folder.string(), file.string())
                         : fmt::format("{}: cannot lock: {}", file.string(), std::strerror(error)));
  }
  recoverFolder(folderFd_);
}

FolderLock::~FolderLock() {
  ::close(lockFd_);
  ::close(folderFd_);
}

int FolderLock::openForAppend(const std::string& name) const {
  const int fd =
      ::openat(folderFd_, name.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  struct stat info {};
  if (fd < 0 || ::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw InputError(fd >= 0 || error == ELOOP
                         ? fmt::format("{}: not a regular file (a symlink or a special file planted there?)",
                                       (folder_ / name).string())
                         : fmt::format("{}: cannot open: {}", (folder_ / name).string(), std::strerror(error)));
  }
  if (info.st_nlink > 1) {
    ::close(fd);
    throw InputError(
        fmt::format("{}: has {} hard links, so appending would write into a file outside this folder: "
                    "remove it (or copy it) first",
                    (folder_ / name).string(), info.st_nlink));
  }
  return fd;
}

void OutputFiles::add(const std::string& name, std::string content) {
  if (!validOutputName(name)) throw std::logic_error(fmt::format("not an output file name: '{}'", name));
  for (auto& [existing, text] : files_)
    if (existing == name) {
      text = std::move(content);
      return;
    }
  files_.emplace_back(name, std::move(content));
}

void OutputFiles::remove(const std::string& name) {
  if (!validOutputName(name)) throw std::logic_error(fmt::format("not an output file name: '{}'", name));
  removals_.push_back(name);
}

std::vector<fs::path> OutputFiles::commit(const FolderLock& lock) {
  const int dirFd = lock.descriptor();
  // A folder planted at a file's name cannot be replaced by a rename: refused
  // before anything is written, so no journal or temporary is left behind.
  for (const auto& [name, content] : files_) {
    struct stat info {};
    if (::fstatat(dirFd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(info.st_mode))
      throw InputError(
          fmt::format("{}: is a folder where prmkit writes a file: remove it", (lock.folder() / name).string()));
  }
  Journal journal;
  journal.removals = removals_;
  try {
    for (const auto& [name, content] : files_)
      journal.renames.emplace_back(writeClosedTemporary(dirFd, content, (lock.folder() / name).string()), name);
    // The commit point: the journal appears whole (itself a renamed temporary).
    const std::string journalTemporary =
        writeClosedTemporary(dirFd, journalText(journal), std::string(kCommitJournalName));
    ::fsync(dirFd);
    if (::renameat(dirFd, journalTemporary.c_str(), dirFd, std::string(kCommitJournalName).c_str()) != 0) {
      const int error = errno;
      ::unlinkat(dirFd, journalTemporary.c_str(), 0);
      errno = error;
      throw systemError(fmt::format("cannot write '{}'", (lock.folder() / kCommitJournalName).string()));
    }
  } catch (...) {
    for (const auto& [temporary, target] : journal.renames) ::unlinkat(dirFd, temporary.c_str(), 0);
    throw;
  }
  performJournal(dirFd, journal, afterRename_);
  std::vector<fs::path> written;
  for (const auto& [name, content] : files_) written.push_back(lock.folder() / name);
  files_.clear();
  removals_.clear();
  return written;
}

fs::path writeFileAtomically(const fs::path& file, std::string_view content) {
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(folder, ec);  // requireOutputFile allowed it to be made
  const int dirFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd < 0) throw systemError(fmt::format("cannot open the folder of '{}'", file.string()));
  try {
    // Held open until renamed, so that a lock holder of this folder does not
    // take it for a dead run's temporary.
    const WrittenTemporary temporary = writeTemporary(dirFd, content, file.string());
    const int renamed = ::renameat(dirFd, temporary.name.c_str(), dirFd, file.filename().c_str());
    const int error = errno;
    if (renamed != 0) ::unlinkat(dirFd, temporary.name.c_str(), 0);
    ::close(temporary.fd);
    errno = error;
    if (renamed != 0) throw systemError(fmt::format("cannot write '{}'", file.string()));
  } catch (...) {
    ::close(dirFd);
    throw;
  }
  ::close(dirFd);
  return file;
}

}  // namespace prmkit
