#include "base/termination.h"

#include <fmt/format.h>

namespace prmkit {

namespace {
thread_local std::optional<Termination> setupTermination;
}  // namespace

Termination::Termination() : Termination(Clock::now(), std::nullopt) {}

Termination::Termination(Clock::time_point started, std::optional<Clock::time_point> deadline)
    : stop_(std::make_shared<std::atomic<bool>>(false)), started_(started), deadline_(deadline) {}

Termination Termination::after(double seconds, Clock::time_point start) {
  if (!(seconds < kNoDeadline_s)) return Termination(start, std::nullopt);
  return Termination(start,
                     start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
}

double Termination::secondsLeft() const {
  if (!deadline_) return kNoDeadline_s;
  return std::chrono::duration<double>(*deadline_ - Clock::now()).count();
}

ScopedSetupTermination::ScopedSetupTermination(Termination termination) : previous_(setupTermination) {
  setupTermination = std::move(termination);
}

ScopedSetupTermination::~ScopedSetupTermination() { setupTermination = previous_; }

void checkSetupDeadline(std::string_view step, std::string_view subject) {
  if (!setupTermination || !setupTermination->expired()) return;
  throw SetupTimeLimit(subject.empty() ? fmt::format("the time limit ran out while {}", step)
                                       : fmt::format("the time limit ran out while {} '{}'", step, subject));
}

}  // namespace prmkit
