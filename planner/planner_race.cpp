#include "planner/planner_race.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <utility>

namespace prmkit {

PlannerRace::PlannerRace(std::string ownName, std::unique_ptr<Planner> rival, std::string rivalName,
                         std::uint64_t startAfter, std::uint64_t rivalWeight, const Checker& checker, Config start,
                         Config goal, Termination termination)
    : ownName_(std::move(ownName)),
      rival_(std::move(rival)),
      rivalName_(std::move(rivalName)),
      startAfter_(startAfter),
      rivalWeight_(rivalWeight),
      checker_(checker),
      start_(std::move(start)),
      goal_(std::move(goal)),
      termination_(std::move(termination)) {}

PlannerRace::~PlannerRace() { stop(); }

void PlannerRace::stop() {
  if (!thread_.joinable()) return;
  rival_->requestStop();
  thread_.join();
}

void PlannerRace::cancel() {
  if (thread_.joinable()) rival_->requestStop();
}

void PlannerRace::lower(std::uint64_t work) {
  std::uint64_t best = best_.load();
  while (work < best && !best_.compare_exchange_weak(best, work)) {
  }
}

bool PlannerRace::beaten(std::uint64_t work) {
  if (!clone_ && work > startAfter_ && !termination_.expired()) {
    // The clone is made here, on lazy PRM's thread, from its checker (one
    // checker instance per thread); the rival's counts start at 0.
    clone_ = checker_.clone();
    startWork_ = work;
    const CheckStats before = clone_->stats();
    rival_->stopAlsoWhen(
        [this, before] { return startWork_ + rivalWeight_ * raceWork(clone_->stats() - before) > best_.load(); });
    thread_ = std::thread([this] {
      // Below lazy PRM's threads: the rival takes the time they leave idle
      // (lazy PRM's helpers wait while its own thread searches), and a
      // puzzle lazy PRM solves is solved about as fast as without the race.
      // Linux gives each thread its own nice value; a failure leaves it as it was.
      setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kRivalNiceness);
      try {
        PlanResult result = rival_->solve(*clone_, start_, goal_, nullptr, termination_);
        if (result.solved) lower(startWork_ + rivalWeight_ * raceWork(result.check_stats));
        rivalResult_ = std::move(result);
      } catch (...) {
        rivalFailure_ = std::current_exception();
      }
    });
  }
  return work > best_.load();
}

PlannerRace::Outcome PlannerRace::finish(bool solved, std::uint64_t work, double time_s, std::uint64_t samplesDrawn) {
  if (solved) lower(work);
  // The rival stops by itself: beaten (its work passed lazy PRM's), solved,
  // at the run's end, or by cancel().
  if (thread_.joinable()) thread_.join();
  if (rivalFailure_) std::rethrow_exception(rivalFailure_);
  Outcome outcome;
  RacePart lazy{.planner = ownName_,
                .started = true,
                .solved = solved,
                .work = work,
                .samples_drawn = samplesDrawn,
                .time_s = time_s};
  RacePart rival{.planner = rivalName_, .start_work = startWork_, .work = startWork_};
  if (rivalResult_) {
    rival.started = true;
    rival.solved = rivalResult_->solved;
    rival.work = startWork_ + rivalWeight_ * raceWork(rivalResult_->check_stats);
    rival.samples_drawn = rivalResult_->planner_stats.samples_drawn;
    rival.time_s = rivalResult_->time_s;
    outcome.rival_checks = rivalResult_->check_stats;
  }
  // The least work wins; lazy PRM on a tie.
  const bool rivalWins = rival.solved && (!solved || rival.work < work);
  lazy.won = solved && !rivalWins;
  rival.won = rivalWins;
  if (rivalWins) outcome.rival_path = std::move(rivalResult_);
  outcome.parts = {lazy, rival};
  return outcome;
}

}  // namespace prmkit
