#pragma once
// A planner of OMPL's that ignores its termination condition inside one step
// (it samples a whole batch, or extends by a tiny range) can hold a run far
// past its time limit, and a thread cannot be stopped safely. A process that
// plans alone (the command line's `plan`) turns the watchdog on: a run still
// inside OMPL `grace_s` after its time limit then ends the process with a
// message on standard error and exit code 2, writing nothing. Elsewhere
// (Python, a sweep's runs) the bounds on OMPL's parameters are what keeps
// runs within their limits.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace prmkit {

class OverrunWatchdog {
 public:
  /// Turns the watchdog on for this process (grace_s > 0) or off (0).
  static void stopProcessOnOverrun(double grace_s);

  /// Watches the work of this scope, `seconds_left` before its time limit;
  /// `what` names it in the message. Does nothing while the watchdog is off.
  OverrunWatchdog(double seconds_left, std::string what);
  ~OverrunWatchdog();
  OverrunWatchdog(const OverrunWatchdog&) = delete;
  OverrunWatchdog& operator=(const OverrunWatchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace prmkit
