#pragma once
// The one checker interface. Public methods are
// non-virtual: they validate input, time the call and count it, then call the
// strategy's private virtuals, so that logic lives in one place.
#include "checkers/check_stats.h"
#include "scene/scene.h"
#include "robots/robot.h"

#include <limits>
#include <memory>
#include <optional>
#include <span>

namespace prmkit {

enum class Verdict { Free, Colliding, Unknown };
const char* toString(Verdict verdict);

struct EdgeResult {
  Verdict verdict = Verdict::Free;
  double confidence = 100.0;  // percent; 100 for exact verdicts
  /// Edge parameter in [0, 1] of a configuration found in collision (NaN if none).
  double witness_t = std::numeric_limits<double>::quiet_NaN();
};

struct PathResult {
  Verdict verdict = Verdict::Free;
  /// Verdict of each segment; empty where the checker did not need to check it.
  std::vector<std::optional<EdgeResult>> segments;
  /// Index of the first segment found colliding, if any.
  std::optional<std::size_t> first_colliding;
};

/// A path of `segments` segments whose segment `segment` collides at
/// parameter t, the others unchecked.
PathResult collidingPath(std::size_t segments, std::size_t segment, double t);

/// The scale relative tolerances follow (m): the diagonal of the scene's
/// bounds, or the robot's largest link diameter if larger; 1 if both are 0.
double problemSize(const Scene& scene, const Robot& robot);

/// The exact strategies' certificate (Schwarzer, Saha & Latombe 2005, Eq. 1):
/// a motion along which no robot point travels more than `motionBound` is
/// free when l < d(q_a) + d(q_b), with a relative margin for the rounding of
/// the sums and products that computed both sides (about 1e-15 each), so
/// that a certificate never rests on the last bits.
inline bool certifiesFree(double distanceA, double distanceB, double motionBound) {
  return distanceA + distanceB > motionBound * (1.0 + 1e-12);
}
/// The exact strategies' default eta (settings `eta` = 0): 1e-6 of the problem's size (m).
inline double defaultEta(const Scene& scene, const Robot& robot) { return 1e-6 * problemSize(scene, robot); }

/// The cells 0 .. cells - 1 of a segment in the order of the van der Corput
/// sequence (1/2, 1/4, 3/4, ...): every prefix spreads over the segment, so
/// that probes taken in this order find a collision early.
std::vector<int> spreadOrder(std::size_t cells);

class Checker {
 public:
  /// `counters`: the strategy's own (static storage: its kCounters), which its code increments in stats_.strategy.
  Checker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene,
          std::span<const CounterSpec> counters = {});
  virtual ~Checker() = default;
  Checker& operator=(const Checker&) = delete;

  virtual std::string name() const = 0;
  /// The name and the settings in use, with units, for people.
  virtual std::string description() const = 0;
  /// Verdicts can be Unknown with a confidence below 100 (time-budgeted
  /// strategies): planners then verify their final paths by default.
  virtual bool confidenceBased() const { return false; }
  /// Never reports a colliding edge as free.
  virtual bool exact() const = 0;
  /// Never reports a colliding configuration as free (every strategy but
  /// one that approximates the bodies, `spheres`).
  virtual bool staticChecksExact() const { return true; }
  /// A Free verdict of checkEdge also proves both of its ends free: the
  /// strategy's certificates cover the closed segment (an end in collision
  /// can never be certified), so an exact verifier with it need not check a
  /// path's vertices before its edges.
  virtual bool freeEdgesCoverEnds() const { return false; }
  /// Planners check the paths they find with the exact verifier by default
  /// (PlannerSettings::verify_final_path): strategies whose verdicts carry
  /// a confidence, and those that ask to be certified so.
  virtual bool asksFinalPathVerification() const { return confidenceBased(); }
  /// A fresh instance with the same settings and zeroed stats, for another thread.
  virtual std::unique_ptr<Checker> clone() const = 0;
  /// A fresh instance of the same strategy and settings for `robot`, a robot
  /// with the same coordinates and links (Robot::shrunk's: iterative
  /// relaxation), on the same scene. std::invalid_argument for another kind
  /// of robot; std::logic_error from a checker that cannot be remade.
  std::unique_ptr<Checker> forRobot(std::shared_ptr<const Robot> robot) const;

  /// Static check: in bounds and collision-free. Throws std::invalid_argument
  /// on a configuration of the wrong size or with non-finite numbers.
  bool isValid(const Config& q);
  /// Checks the motion a -> b along Robot::interpolate. Like OMPL's
  /// MotionValidator, the endpoints are assumed valid (checked with isValid).
  EdgeResult checkEdge(const Config& a, const Config& b);
  /// Checks a tree's move from a valid configuration a to b: b (bounds
  /// included) and the motion a -> b, as OMPL's checkMotion does; a colliding
  /// b is the witness at t = 1. What isValid(b) then checkEdge(a, b) decide,
  /// in one call, so that a strategy may check b with the motion's samples.
  EdgeResult checkMove(const Config& a, const Config& b);
  /// Checks consecutive segments of a path (endpoints assumed valid). The
  /// verdict is Colliding if any segment collides, Unknown if none collides
  /// but one is Unknown, else Free.
  PathResult checkPath(std::span<const Config> path);

  /// What checks learn and keep for later checks (adaptive: distance bounds
  /// at roadmap nodes) reaches later checks at once, or in rounds between
  /// startRounds() and stopRounds(): a check then sees what the rounds before
  /// its own learnt, on this checker and on every clone made of it since
  /// startRounds(), and nothing of its own round's. A verdict, and the work
  /// behind it, then depend on the check and the rounds before it, never on
  /// which instance made it or on how many there are (a planner's result does
  /// not depend on its thread count). Strategies that keep nothing ignore rounds.
  void startRounds() { doStartRounds(); }
  /// Ends the round: what its checks learnt (on this checker and its clones),
  /// merged in an order-independent way, becomes visible. Only while none of them is checking.
  void endRound() { doEndRound(); }
  /// Ends the last round and goes back to learning at once.
  void stopRounds() { doStopRounds(); }

  CheckStats stats() const { return stats_; }
  void resetStats() { stats_ = CheckStats(stats_.strategy.declared()); }
  const Robot& robot() const { return *robot_; }
  const Scene& scene() const { return *scene_; }

 protected:
  Checker(const Checker& other);
  std::shared_ptr<const Robot> robot_;
  std::shared_ptr<const Scene> scene_;
  CheckStats stats_;

 private:
  void requireConfig(const Config& q) const;
  virtual bool doIsValid(const Config& q) = 0;
  virtual EdgeResult doCheckEdge(const Config& a, const Config& b) = 0;
  /// checkMove past its argument and bounds checks: doIsValid(b), then doCheckEdge.
  virtual EdgeResult doCheckMove(const Config& a, const Config& b);
  /// forRobot past its checks; nothing from a checker that cannot be remade (tests' fakes).
  virtual std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const {
    (void)robot;
    return nullptr;
  }

 protected:
  /// Default: edge by edge, stopping at the first colliding segment (a
  /// strategy's own may end with it).
  virtual PathResult doCheckPath(std::span<const Config> path);

 private:
  virtual void doStartRounds() {}
  virtual void doEndRound() {}
  virtual void doStopRounds() {}
};

}  // namespace prmkit
