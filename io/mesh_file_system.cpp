#include "io/mesh_file_system.h"

#include <array>

#include <assimp/IOStream.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

namespace prmkit {

namespace {

namespace fs = std::filesystem;

/// A file read whole into memory: assimp seeks and reads as it likes, and
/// nothing is read from the file system after the checks.
class BufferStream : public Assimp::IOStream {
 public:
  explicit BufferStream(std::string data) : data_(std::move(data)) {}
  size_t Read(void* buffer, size_t size, size_t count) override {
    if (size == 0 || at_ >= data_.size()) return 0;
    const size_t items = std::min(count, (data_.size() - at_) / size);
    std::memcpy(buffer, data_.data() + at_, items * size);
    at_ += items * size;
    return items;
  }
  size_t Write(const void*, size_t, size_t) override { return 0; }
  aiReturn Seek(size_t offset, aiOrigin origin) override {
    size_t to = 0;
    if (origin == aiOrigin_SET)
      to = offset;
    else if (origin == aiOrigin_CUR)
      to = at_ + offset;
    else if (origin == aiOrigin_END)
      to = data_.size() - std::min(offset, data_.size());
    else
      return aiReturn_FAILURE;
    if (to > data_.size()) return aiReturn_FAILURE;
    at_ = to;
    return aiReturn_SUCCESS;
  }
  size_t Tell() const override { return at_; }
  size_t FileSize() const override { return data_.size(); }
  void Flush() override {}

 private:
  std::string data_;
  size_t at_ = 0;
};

/// A zip archive (3MF, ZAE, PK3) by its name, or by what a zip reader looks
/// for: a local file header at the start, or the end-of-directory record
/// ("PK\x05\x06") within the last 64 KiB and 22 bytes, where minizip
/// searches for it (so the first bytes need not say "PK").
bool isZipArchive(const fs::path& file, std::string_view data) {
  const std::string extension = lowerExtension(file);
  if (extension == ".3mf" || extension == ".zae" || extension == ".pk3" || extension == ".zip") return true;
  if (data.substr(0, 4) == std::string_view("PK\x03\x04", 4)) return true;
  const std::size_t tail = std::min<std::size_t>(data.size(), 65535 + 22);
  return data.substr(data.size() - tail).find(std::string_view("PK\x05\x06", 4)) != std::string_view::npos;
}

bool inside(const fs::path& file, const fs::path& folder) {
  const fs::path relative = file.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::string lowerExtension(const fs::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

MeshFileSystem::MeshFileSystem(const fs::path& meshFile, std::uintmax_t maxBytes) : remainingBytes_(maxBytes) {
  std::error_code ec;
  const fs::path given = fs::absolute(meshFile, ec).lexically_normal();
  meshFile_ = given;
  allowedFolders_.push_back(fs::weakly_canonical(given.parent_path(), ec));
  // A mesh file reached through a symlink (a ROS package's share folder) may
  // name files beside its real self too.
  const fs::path real = fs::weakly_canonical(given, ec);
  if (!ec) allowedFolders_.push_back(real.parent_path());
}

std::string MeshFileSystem::refusal(const fs::path& file) const {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(file, ec), ec);
  if (ec) return fmt::format("'{}': {}", file.string(), ec.message());
  if (std::none_of(allowedFolders_.begin(), allowedFolders_.end(),
                   [&](const fs::path& folder) { return inside(real, folder); }))
    return fmt::format("'{}': outside the mesh file's folder '{}'", file.string(), allowedFolders_.front().string());
  return {};
}

void MeshFileSystem::asked(const char* file) {
  std::error_code ec;
  const fs::path path = fs::absolute(file, ec).lexically_normal();
  if (path == meshFile_) return;
  const std::string extension = lowerExtension(path);
  static const std::array<std::string_view, 10> looks{".mtl", ".png", ".jpg", ".jpeg", ".tga",
                                                      ".bmp", ".gif", ".dds", ".tif",  ".tiff"};
  if (std::find(looks.begin(), looks.end(), extension) == looks.end()) geometryFromMeshFileAlone_ = false;
}

bool MeshFileSystem::Exists(const char* file) const {
  if (file == nullptr || !refusal(file).empty()) return false;
  struct stat info {};
  return ::stat(file, &info) == 0 && S_ISREG(info.st_mode);
}

Assimp::IOStream* MeshFileSystem::Open(const char* file, const char* mode) {
  if (file == nullptr) return nullptr;
  asked(file);
  if (mode != nullptr && std::strpbrk(mode, "wa+") != nullptr) {
    refusals_.push_back(fmt::format("'{}': opened for writing", file));
    return nullptr;
  }
  if (std::string why = refusal(file); !why.empty()) {
    refusals_.push_back(std::move(why));
    return nullptr;
  }
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer.
  const int fd = ::open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    refusals_.push_back(fmt::format("'{}': {}", file, std::strerror(errno)));
    return nullptr;
  }
  struct stat info {};
  std::string why;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
    why = fmt::format("'{}': not a regular file", file);
  else if (static_cast<std::uintmax_t>(info.st_size) > remainingBytes_)
    why = fmt::format("'{}': {} bytes, more than the {} bytes left of the mesh size limit", file, info.st_size,
                      remainingBytes_);
  std::string data;
  if (why.empty()) {
    // Read at most one byte more than stated: a file that grows is refused.
    data.resize(static_cast<std::size_t>(info.st_size) + 1);
    std::size_t got = 0;
    while (got < data.size()) {
      const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got != static_cast<std::size_t>(info.st_size)) why = fmt::format("'{}': changed while it was read", file);
    data.resize(std::min(got, data.size()));
  }
  // assimp's unzipper and 3MF reader stop the process (a failed assertion)
  // on archives fuzzing made in seconds (an entry whose CRC is wrong, a
  // package without its model): no zipped format is read.
  if (why.empty() && isZipArchive(file, data))
    why = fmt::format(
        "'{}': a zip archive (3MF, ZAE): zipped mesh formats are not read (unzip it, or convert it to "
        "STL, OBJ, COLLADA or glTF)",
        file);
  ::close(fd);
  if (!why.empty()) {
    refusals_.push_back(std::move(why));
    return nullptr;
  }
  remainingBytes_ -= data.size();
  return new BufferStream(std::move(data));
}

void MeshFileSystem::Close(Assimp::IOStream* stream) { delete stream; }

}  // namespace prmkit
