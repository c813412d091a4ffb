#include "io/output_folder.h"

#include "io/yaml_reader.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <optional>
#include <fcntl.h>
#include <linux/magic.h>
#include <random>
#include <sstream>
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

std::runtime_error systemError(const std::string& what) {
  return std::runtime_error(fmt::format("{}: {}", what, std::strerror(errno)));
}

/// A name prmkit may make in an output folder: a file, or one subfolder and a
/// file; no empty part, "." or "..". Journals are read back from the folder,
/// where anyone may have written them, so their names are checked too.
bool validOutputName(std::string_view name) {
  if (name.empty() || name.size() > 512 || name.find('\0') != std::string_view::npos) return false;
  const std::size_t slash = name.find('/');
  if (slash != std::string_view::npos && name.find('/', slash + 1) != std::string_view::npos) return false;
  for (const std::string_view part :
       {name.substr(0, slash), slash == std::string_view::npos ? std::string_view("x") : name.substr(slash + 1)})
    if (part.empty() || part == "." || part == ".." || part.size() > 255) return false;
  return true;
}

bool validTemporaryName(std::string_view name) {
  return name.size() > kTemporaryPrefix.size() && name.size() <= 255 &&
         name.substr(0, kTemporaryPrefix.size()) == kTemporaryPrefix && name.find('/') == std::string_view::npos;
}

void writeAll(int fd, std::string_view content, const std::string& what) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw systemError(fmt::format("cannot write '{}'", what));
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

/// A temporary in the folder `dirFd`, made exclusively under a random name
/// and held under a shared flock until it is closed, so that a lock holder
/// cleaning stale temporaries leaves it alone. Returns its name and descriptor.
std::pair<std::string, int> createTemporary(int dirFd, const std::string& what) {
  static thread_local std::mt19937_64 random{std::random_device{}() ^ static_cast<std::uint64_t>(::getpid())};
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = fmt::format("{}{:016x}", kTemporaryPrefix, random());
    const int fd = ::openat(dirFd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      throw systemError(fmt::format("cannot create a temporary file for '{}'", what));
    }
    // A cleaner may have taken the file between its creation and this lock
    // (it found no holder) and removed it: then its link count is 0.
    struct stat info {};
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0 && ::fstat(fd, &info) == 0 && info.st_nlink > 0) return {name, fd};
    ::close(fd);
  }
  throw std::runtime_error(fmt::format("cannot create a temporary file for '{}'", what));
}

/// The folder of `name` inside `dirFd` (itself for a plain file name, or its
/// one subfolder, made when missing) and the file's own name. A subfolder
/// entry that is not a real folder (a planted symlink) is replaced, as a
/// rename replaces a file.
std::pair<int, std::string> openParent(int dirFd, const std::string& name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string::npos) return {::dup(dirFd), name};
  const std::string sub = name.substr(0, slash);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (::mkdirat(dirFd, sub.c_str(), 0755) != 0 && errno != EEXIST)
      throw systemError(fmt::format("cannot make the folder '{}'", sub));
    const int fd = ::openat(dirFd, sub.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) return {fd, name.substr(slash + 1)};
    if (errno != ELOOP && errno != ENOTDIR) throw systemError(fmt::format("cannot open the folder '{}'", sub));
    if (::unlinkat(dirFd, sub.c_str(), 0) != 0) throw systemError(fmt::format("cannot replace '{}'", sub));
  }
  throw std::runtime_error(fmt::format("cannot make the folder '{}'", sub));
}

void renameInto(int dirFd, const std::string& temporary, const std::string& target) {
  const auto [parentFd, file] = openParent(dirFd, target);
  const int renamed = ::renameat(dirFd, temporary.c_str(), parentFd, file.c_str());
  const int error = errno;
  ::close(parentFd);
  errno = error;
  if (renamed != 0) throw systemError(fmt::format("cannot rename into '{}'", target));
}

void removeFrom(int dirFd, const std::string& target) {
  const std::size_t slash = target.find('/');
  if (slash == std::string::npos) {
    ::unlinkat(dirFd, target.c_str(), 0);
    return;
  }
  const int parentFd =
      ::openat(dirFd, target.substr(0, slash).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (parentFd < 0) return;
  ::unlinkat(parentFd, target.substr(slash + 1).c_str(), 0);
  ::close(parentFd);
}

struct Journal {
  std::vector<std::pair<std::string, std::string>> renames;  // temporary, target
  std::vector<std::string> removals;
};

std::string journalText(const Journal& journal) {
  std::string text = "prmkit commit 1\n";
  for (const auto& [temporary, target] : journal.renames) text += fmt::format("rename\t{}\t{}\n", temporary, target);
  for (const auto& target : journal.removals) text += fmt::format("remove\t{}\n", target);
  return text + "end\n";
}

/// The journal as written by journalText; nothing (the commit is ignored)
/// when it is incomplete or names anything prmkit would not write.
std::optional<Journal> parseJournal(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != "prmkit commit 1") return std::nullopt;
  Journal journal;
  while (std::getline(in, line)) {
    if (line == "end") return journal;
    std::vector<std::string> parts;
    std::stringstream s(line);
    for (std::string part; std::getline(s, part, '\t');) parts.push_back(part);
    if (parts.size() == 3 && parts[0] == "rename" && validTemporaryName(parts[1]) && validOutputName(parts[2]))
      journal.renames.emplace_back(parts[1], parts[2]);
    else if (parts.size() == 2 && parts[0] == "remove" && validOutputName(parts[1]))
      journal.removals.push_back(parts[1]);
    else
      return std::nullopt;
  }
  return std::nullopt;
}

void performJournal(int dirFd, const Journal& journal, const std::function<void(std::size_t)>& afterRename) {
  std::size_t done = 0;
  for (const auto& [temporary, target] : journal.renames) {
    struct stat info {};
    // Done already when the temporary is gone (a commit resumed after a kill).
    if (::fstatat(dirFd, temporary.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode))
      renameInto(dirFd, temporary, target);
    if (afterRename) afterRename(++done);
  }
  for (const auto& target : journal.removals) removeFrom(dirFd, target);
  ::fsync(dirFd);
  ::unlinkat(dirFd, std::string(kCommitJournalName).c_str(), 0);
  ::fsync(dirFd);
}

/// Reads the folder's journal, if it is a regular file of sane size.
std::optional<Journal> readJournal(int dirFd) {
  const int fd =
      ::openat(dirFd, std::string(kCommitJournalName).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  std::string text;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size <= (1 << 20)) {
    text.resize(static_cast<std::size_t>(info.st_size));
    const ssize_t n = ::read(fd, text.data(), text.size());
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  ::close(fd);
  return parseJournal(text);
}

/// Finishes an interrupted commit, then removes the temporaries that no
/// process holds (their writer died before its journal).
void recoverFolder(int dirFd) {
  if (const auto journal = readJournal(dirFd))
    performJournal(dirFd, *journal, {});
  else
    ::unlinkat(dirFd, std::string(kCommitJournalName).c_str(), 0);
  const int listFd = ::dup(dirFd);
  DIR* dir = listFd >= 0 ? ::fdopendir(listFd) : nullptr;
  if (!dir) {
    if (listFd >= 0) ::close(listFd);
    return;
  }
  std::vector<std::string> stale;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (!validTemporaryName(name)) continue;
    const int fd = ::openat(dirFd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      stale.push_back(name);  // not a file prmkit made (a symlink or a FIFO under its prefix)
      continue;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      ::unlinkat(dirFd, name.c_str(), 0);
      continue;  // closing drops the lock; the name is gone first
    }
    ::close(fd);
  }
  ::closedir(dir);
  for (const auto& name : stale) ::unlinkat(dirFd, name.c_str(), 0);
}

/// A temporary written and synced, still open (and so still held) until it
/// is renamed into place.
struct WrittenTemporary {
  std::string name;
  int fd = -1;
};

WrittenTemporary writeTemporary(int dirFd, std::string_view content, const std::string& what) {
  auto [name, fd] = createTemporary(dirFd, what);
  try {
    writeAll(fd, content, what);
    if (::fsync(fd) != 0) throw systemError(fmt::format("cannot write '{}'", what));
  } catch (...) {
    ::close(fd);
    ::unlinkat(dirFd, name.c_str(), 0);
    throw;
  }
  return {name, fd};
}

/// Writes `content` into a new temporary in `dirFd`, synced and closed; returns its name.
std::string writeClosedTemporary(int dirFd, std::string_view content, const std::string& what) {
  const WrittenTemporary written = writeTemporary(dirFd, content, what);
  ::close(written.fd);
  return written.name;
}

}  // namespace

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

FolderLock::FolderLock(const fs::path& folder, Wait wait) : folder_(folder) {
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
    do {
      locked = ::flock(lockFd_, LOCK_EX);
    } while (locked != 0 && errno == EINTR);
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
