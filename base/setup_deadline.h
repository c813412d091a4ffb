#pragma once
// A run's time limit covers its setup too: loading the problem (mesh files,
// obstacles, links) and building what the checkers need (BVHs, convex
// covers). Those steps sit far below the command that knows the limit, so
// the limit reaches them as a deadline of the current thread, set for the
// setup's span by ScopedSetupDeadline; each step looks at it before it
// starts and stops the run with SetupTimeLimit once it has passed. A single
// step is bounded by the file limits instead (base/input_file.h).
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace prmkit {

/// The setup's deadline passed: not bad input (exit 1, as a run that
/// planned until its limit), and what was being done is in the message.
struct SetupTimeLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Sets the current thread's setup deadline for its lifetime; the previous
/// one (normally none) comes back when it ends.
class ScopedSetupDeadline {
 public:
  explicit ScopedSetupDeadline(std::chrono::steady_clock::time_point deadline);
  ~ScopedSetupDeadline();
  ScopedSetupDeadline(const ScopedSetupDeadline&) = delete;
  ScopedSetupDeadline& operator=(const ScopedSetupDeadline&) = delete;

 private:
  std::optional<std::chrono::steady_clock::time_point> previous_;
};

/// Throws SetupTimeLimit naming `step` (and `subject`, quoted, if any) when
/// this thread has a setup deadline and it has passed; otherwise does nothing.
void checkSetupDeadline(std::string_view step, std::string_view subject = {});

}  // namespace prmkit
