#include "base/setup_deadline.h"

#include <fmt/format.h>

namespace prmkit {

namespace {
thread_local std::optional<std::chrono::steady_clock::time_point> setupDeadline;
}  // namespace

ScopedSetupDeadline::ScopedSetupDeadline(std::chrono::steady_clock::time_point deadline) : previous_(setupDeadline) {
  setupDeadline = deadline;
}

ScopedSetupDeadline::~ScopedSetupDeadline() { setupDeadline = previous_; }

void checkSetupDeadline(std::string_view step, std::string_view subject) {
  if (!setupDeadline || std::chrono::steady_clock::now() < *setupDeadline) return;
  throw SetupTimeLimit(subject.empty() ? fmt::format("the time limit ran out while {}", step)
                                       : fmt::format("the time limit ran out while {} '{}'", step, subject));
}

}  // namespace prmkit
