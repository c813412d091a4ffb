#pragma once
// Input files read whole are checked before the first byte is read: a
// special file (/dev/zero, a FIFO, a directory) would be read forever or
// block, and a huge one would exhaust memory in a parser that gives no
// location; both are refused with the file named and the limit stated.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace prmkit {

/// What every reader of user data throws when the data is bad (a file, its
/// syntax, a value): the base of InputFileError, MeshLoadError,
/// RobotLoadError and the problem reader's InputError. The command line turns
/// it into exit code 2; any other exception is a failure of prmkit's own
/// (exit 3).
struct InvalidInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct InputFileError : InvalidInput {
  using InvalidInput::InvalidInput;
};

/// Largest mesh file (STL, OBJ, COLLADA, ...) prmkit reads: about 5 million
/// triangles of binary STL.
inline constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t{256} << 20;
/// Largest text description (URDF, SRDF, OMPL.app .cfg).
inline constexpr std::uintmax_t kMaxDescriptionFileBytes = std::uintmax_t{64} << 20;

/// Largest table of configurations (a path or an edge list, CSV or text).
inline constexpr std::uintmax_t kMaxTableFileBytes = std::uintmax_t{256} << 20;

/// User text quoted in a message, cut to its first `most` characters (an
/// unexpected header may be a whole file without line breaks).
std::string excerpt(std::string_view text, std::size_t most = 60);

/// Throws InputFileError unless `file` is a regular file of at most
/// `maxBytes`; `what` names the kind of file in the message ("mesh file").
void requireInputFile(const std::filesystem::path& file, std::uintmax_t maxBytes, const std::string& what);

/// The whole file, after requireInputFile; a file that grows past the limit
/// while it is read is refused too.
std::string readInputFile(const std::filesystem::path& file, std::uintmax_t maxBytes, const std::string& what);

/// The first byte where `text` is not UTF-8 (a truncated or overlong
/// sequence, a surrogate, a code point above U+10FFFF), if any.
std::optional<std::size_t> invalidUtf8(const std::string& text);

/// readInputFile for text: problem, scene, URDF, SRDF, .cfg, path and edge
/// files must be UTF-8 (names in them reach JSON, SVG and HTML outputs);
/// the first byte that is not is refused with file:line:column.
std::string readTextFile(const std::filesystem::path& file, std::uintmax_t maxBytes, const std::string& what);

}  // namespace prmkit
