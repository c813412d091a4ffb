#include "io/commit_journal.h"

#include "io/output_folder.h"

#include <fmt/format.h>

#include <cerrno>
#include <exception>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <optional>
#include <random>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace prmkit::detail {

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

namespace {

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

}  // namespace

std::string journalText(const Journal& journal) {
  std::string text = "prmkit commit 1\n";
  for (const auto& [temporary, target] : journal.renames) text += fmt::format("rename\t{}\t{}\n", temporary, target);
  for (const auto& target : journal.removals) text += fmt::format("remove\t{}\n", target);
  return text + "end\n";
}

void performJournal(int dirFd, const Journal& journal, const std::function<void(std::size_t)>& afterRename) {
  std::size_t done = 0;
  // A rename that cannot happen (a folder planted at the target since) does
  // not stop the others, and leaves neither its temporary nor the journal:
  // a journal that can never be completed would fail every later run.
  std::exception_ptr failure;
  for (const auto& [temporary, target] : journal.renames) {
    struct stat info {};
    // Done already when the temporary is gone (a commit resumed after a kill).
    if (::fstatat(dirFd, temporary.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(info.st_mode)) {
      try {
        renameInto(dirFd, temporary, target);
      } catch (...) {
        ::unlinkat(dirFd, temporary.c_str(), 0);
        if (!failure) failure = std::current_exception();
      }
    }
    if (afterRename) afterRename(++done);
  }
  for (const auto& target : journal.removals) removeFrom(dirFd, target);
  ::fsync(dirFd);
  ::unlinkat(dirFd, std::string(kCommitJournalName).c_str(), 0);
  ::fsync(dirFd);
  if (failure) std::rethrow_exception(failure);
}

namespace {

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

}  // namespace

/// Finishes an interrupted commit, then removes the temporaries that no
/// process holds (their writer died before its journal).
void recoverFolder(int dirFd) {
  if (const auto journal = readJournal(dirFd)) {
    try {
      performJournal(dirFd, *journal, {});
    } catch (const std::exception&) {  // what could be renamed was; the rest is gone with the journal
    }
  } else
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

}  // namespace prmkit::detail
