#pragma once
// When a run ends: one object from the start of its setup to the end of its
// solve, with the run's deadline (its time limit, counted from when the run
// began, so setup counts against it) and a stop flag any thread may raise.
// The steps of setup sit far below the command that knows the limit (a mesh
// read, a BVH, a convex hull, an obstacle added), so they see the
// termination as the current thread's, installed for the setup's span by
// ScopedSetupTermination; each looks at it before it starts and stops the
// run with SetupTimeLimit once it has expired. The planner is handed the
// same object for its solve. A single step is bounded by the file limits
// instead (base/input_file.h).
#include <atomic>
#include <chrono>
#include <memory>
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

class Termination {
 public:
  using Clock = std::chrono::steady_clock;
  /// Limits of this many seconds or more have no deadline (a clock past them overflows).
  static constexpr double kNoDeadline_s = 1e9;

  /// Begun now, with no deadline: it ends only when stopped.
  Termination();
  /// Begun at `start`, ending `seconds` later (kNoDeadline_s or more: never by time).
  static Termination after(double seconds, Clock::time_point start = Clock::now());

  /// From any thread: the run ends as at its deadline.
  void requestStop() const { stop_->store(true, std::memory_order_relaxed); }
  bool stopRequested() const { return stop_->load(std::memory_order_relaxed); }
  /// Stopped, or past the deadline.
  bool expired() const { return stopRequested() || (deadline_ && Clock::now() >= *deadline_); }
  Clock::time_point started() const { return started_; }
  /// Seconds since the run began.
  double elapsed_s() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
  /// Seconds to the deadline (negative past it; kNoDeadline_s without one).
  double secondsLeft() const;

 private:
  Termination(Clock::time_point started, std::optional<Clock::time_point> deadline);
  std::shared_ptr<std::atomic<bool>> stop_;  // shared by the copies of one termination
  Clock::time_point started_;
  std::optional<Clock::time_point> deadline_;
};

/// Makes `termination` the current thread's setup termination for its
/// lifetime; the previous one (normally none) comes back when it ends.
class ScopedSetupTermination {
 public:
  explicit ScopedSetupTermination(Termination termination);
  ~ScopedSetupTermination();
  ScopedSetupTermination(const ScopedSetupTermination&) = delete;
  ScopedSetupTermination& operator=(const ScopedSetupTermination&) = delete;

 private:
  std::optional<Termination> previous_;
};

/// Throws SetupTimeLimit naming `step` (and `subject`, quoted, if any) when
/// this thread has a setup termination and it has expired; otherwise does nothing.
void checkSetupDeadline(std::string_view step, std::string_view subject = {});

}  // namespace prmkit
