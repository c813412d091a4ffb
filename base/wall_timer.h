#pragma once
// Time measured by the code that does the work: the checkers' `time_s` and
// the planners' `search_time_s` add up the wall time of the calls they wrap.
#include <chrono>

namespace prmkit {

/// Adds the wall time from its construction to its destruction to `total` (s).
class WallTimer {
 public:
  explicit WallTimer(double& total) : total_(total), started_(std::chrono::steady_clock::now()) {}
  ~WallTimer() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(); }
  WallTimer(const WallTimer&) = delete;
  WallTimer& operator=(const WallTimer&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace prmkit
