#include "parallel/overrun_watchdog.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace prmkit {

namespace {

/// The grace past the time limit after which a watched run ends the
/// process (s); 0: never.
std::atomic<double> overrunGrace{0.0};

}  // namespace

void OverrunWatchdog::stopProcessOnOverrun(double grace_s) { overrunGrace.store(std::max(0.0, grace_s)); }

OverrunWatchdog::OverrunWatchdog(double seconds_left, std::string what) {
  const double grace = overrunGrace.load();
  if (grace <= 0.0) return;
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(std::max(0.0, seconds_left) + grace));
  thread_ = std::thread([this, until, grace, what = std::move(what)] {
    std::unique_lock lock(mutex_);
    if (done_.wait_until(lock, until, [this] { return finished_; })) return;
    std::fprintf(stderr,
                 "prmkit: error: %s was still running %.3g s after its time limit (OMPL's planner ignores its "
                 "termination condition with these parameters); stopped, nothing written\n",
                 what.c_str(), grace);
    std::fflush(stderr);
    std::_Exit(2);
  });
}

OverrunWatchdog::~OverrunWatchdog() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  done_.notify_one();
  thread_.join();
}

}  // namespace prmkit
