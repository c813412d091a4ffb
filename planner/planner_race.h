#pragma once
// Lazy PRM against a rival planner on another thread (lazy_prm's `race`):
// hard puzzles that defeat one planner often fall to another (a roadmap
// finds the bug trap's exit, a tree with KPIECE's cells threads an alpha
// puzzle's loops), and the second core has nothing else to do. The race is
// decided by work, not by time, so that a run is the same for its seed and
// thread count whatever the machine's load: each planner's work is counted
// in raceWork units of its own checker (a count its thread alone changes),
// the rival's `race_weight` times over (it runs below lazy PRM's priority,
// on the time lazy PRM leaves idle, so that a puzzle lazy PRM solves costs
// little more than without the race); the rival joins once lazy PRM's work
// passes `race_after` and counts on from there; each planner stops once its work passes the least work any
// planner solved with; the path of the planner that solved with the least
// work wins (lazy PRM on a tie). A planner that is ahead in time waits for
// the other only until the other's work catches up.
#include "planner/planner.h"

#include <atomic>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <thread>

namespace prmkit {

/// The rival thread's nice value (lazy PRM's threads keep the process's).
inline constexpr int kRivalNiceness = 10;

class PlannerRace {
 public:
  /// `ownName` is lazy PRM's kind (lazy_prm, lazy_prm_star). `rival` plans from start to goal on a clone of `checker`
  /// once lazy PRM's work passes `startAfter`, each unit of its work counted `rivalWeight` times, until `termination`
  /// ends (the run's) or it is beaten.
  PlannerRace(std::string ownName, std::unique_ptr<Planner> rival, std::string rivalName, std::uint64_t startAfter,
              std::uint64_t rivalWeight, const Checker& checker, Config start, Config goal, Termination termination);
  /// Stops the rival and waits for it.
  ~PlannerRace();
  PlannerRace(const PlannerRace&) = delete;
  PlannerRace& operator=(const PlannerRace&) = delete;

  /// On lazy PRM's thread, with its work so far: starts the rival once the
  /// work passes race_after; true when a planner solved with less work (lazy
  /// PRM has lost and stops).
  bool beaten(std::uint64_t work);
  /// What the race came to, once lazy PRM has stopped (`solved` with `work`,
  /// or not): waits for the rival; its result when it won.
  struct Outcome {
    std::optional<PlanResult> rival_path;  // the rival's run, when its path won
    CheckStats rival_checks;               // the rival's checker work, won or not
    std::vector<RacePart> parts;           // lazy PRM, then the rival
  };
  Outcome finish(bool solved, std::uint64_t work, double time_s, std::uint64_t samplesDrawn);
  /// From lazy PRM's thread, before finish: the rival stops (as at its time limit) with what it has.
  void cancel();

 private:
  void lower(std::uint64_t work);
  void stop();

  std::string ownName_;
  std::unique_ptr<Planner> rival_;
  std::string rivalName_;
  std::uint64_t startAfter_;
  std::uint64_t rivalWeight_;
  const Checker& checker_;
  Config start_, goal_;
  Termination termination_;
  std::unique_ptr<Checker> clone_;
  std::uint64_t startWork_ = 0;  // lazy PRM's work when the rival started
  /// The least work a planner solved with (none: the largest count).
  std::atomic<std::uint64_t> best_{std::numeric_limits<std::uint64_t>::max()};
  std::optional<PlanResult> rivalResult_;
  std::exception_ptr rivalFailure_;
  std::thread thread_;
};

}  // namespace prmkit
