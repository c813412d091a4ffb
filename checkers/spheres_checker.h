#pragma once
// `spheres`: VAMP's strategy (Thomason, Kingston & Kavraki, "Motions in
// Microseconds via Vectorized Sampling-Based Planning", ICRA 2024). Each
// link is a set of spheres (a spherized URDF's, `robot.spheres`, or fitted
// here to contain the link's mesh); configurations are checked a SIMD batch
// at a time (checkers/sphere_kernel.h), and a motion "raked": its samples
// spread over the lanes, the first batch across the whole edge, each next
// one filling between, stopping at the first hit. Approximate by design:
// given spheres need not contain the links, and samples step over what lies
// between them, so its verdicts are not exact (the conformance suite counts
// its misses). `certify: containing` makes every verdict exact: spheres
// fitted to contain the links prove "free" (checkers/containing_proof.h),
// and what they cannot prove goes to `adaptive`. `certify: path` makes the
// returned path exact: the planner checks the found path with the exact
// verifier (`adaptive`), vertices and edges, and searches again without
// what fails (lazy certification).
#include "checkers/adaptive_checker.h"
#include "checkers/checker.h"
#include "checkers/containing_proof.h"
#include "checkers/discrete_checker.h"
#include "checkers/path_probes.h"
#include "checkers/settings_fields.h"
#include "checkers/sphere_kernel.h"

#include <set>

namespace prmkit {

struct SpheresSettings {
  enum class Model { Auto, Given, Fitted };
  enum class Certify { None, Containing, Path };
  /// Where a motion is sampled (space, resolution, eps), as `discrete`'s.
  DiscreteSettings sampling;
  /// The robot's spheres (`given`, from `robot.spheres`), spheres fitted to
  /// contain each link's mesh (`fitted`), or given when there are (`auto`).
  Model model = Model::Auto;
  /// Spheres fitted per link (shapes/sphere_set.h).
  std::size_t spheres_per_link = 16;
  Certify certify = Certify::None;
  /// `certify: containing`: spheres fitted a link to contain it.
  std::size_t containing_spheres_per_link = 32;
  /// `certify: containing`: the most (m) a containing sphere grows to hold
  /// its link between a motion's samples; smaller takes more samples, each
  /// less often left to the exact checks. 0 selects 1e-3 of the scene's size.
  double growth_step = 0.0;

  template <class Fields>
  void fields(Fields& f) {
    sampling.samplingFields(f);
    f.choice("model", model,
             std::array{Choice<Model>{"auto", Model::Auto}, Choice<Model>{"given", Model::Given},
                        Choice<Model>{"fitted", Model::Fitted}});
    f.integer("spheres_per_link", spheres_per_link,
              {.min = 1, .max = static_cast<double>(kMaxSpheresPerBody), .unit = "count"});
    f.choice("certify", certify,
             std::array{Choice<Certify>{"none", Certify::None}, Choice<Certify>{"containing", Certify::Containing},
                        Choice<Certify>{"path", Certify::Path}});
    f.integer("containing_spheres_per_link", containing_spheres_per_link,
              {.min = 1, .max = static_cast<double>(kMaxSpheresPerBody), .unit = "count"});
    f.number("growth_step", growth_step,
             {.min = 0.0, .max = kMaxCoordinate, .length = true, .unit = "m; 0: 1e-3 of the scene's size"});
  }
  void afterRead(const std::set<std::string>& given) { sampling.afterRead(given); }
};

class SpheresChecker final : public Checker {
 public:
  using Settings = SpheresSettings;
  static constexpr std::string_view kName = "spheres";
  /// Its own counters (CheckStats::strategy): the kernel's sphere tests,
  /// then those of `certify: containing` (the checks the spheres proved
  /// free, those left to `adaptive`, and what `adaptive` counted of its own).
  static constexpr std::array<CounterSpec, 6> kCounters{
      {kSphereTestsCounter,
       {"containing_proofs", "count", "checks proved free by spheres that contain the links"},
       {"exact_fallbacks", "count", "checks the containing spheres could not prove free"},
       {"confirmed_guesses", "count", "of those, motions found colliding by one exact static check where spheres met"},
       kBisectionStepsCounter,
       kUnresolvedCounter}};
  enum Counter : std::size_t {
    kSphereTests,
    kContainingProofs,
    kExactFallbacks,
    kConfirmedGuesses,
    kBisectionSteps,
    kUnresolved
  };
  /// Throws std::invalid_argument when `model: given` finds no robot spheres.
  SpheresChecker(std::shared_ptr<const Robot> robot, std::shared_ptr<const Scene> scene, SpheresSettings settings);
  std::string name() const override { return std::string(kName); }
  std::string description() const override;
  bool exact() const override { return settings_.certify == SpheresSettings::Certify::Containing; }
  /// Containing spheres' proofs hold both ends (ContainingProof::freeAlong),
  /// and what they leave goes to adaptive, whose free edges do too.
  bool freeEdgesCoverEnds() const override { return exact(); }
  bool staticChecksExact() const override { return exact(); }
  bool asksFinalPathVerification() const override { return settings_.certify == SpheresSettings::Certify::Path; }
  std::unique_ptr<Checker> clone() const override;
  const SpheresSettings& settings() const { return settings_; }
  /// The spheres of each link the checks use (link frame).
  const std::vector<std::vector<Sphere>>& linkSpheres() const { return *spheres_; }
  /// Checks up to kSphereLanes configurations together (a batch for
  /// benchmarks and samplers); bit i is set when configs[i] collides.
  LaneMask collidingBatch(std::span<const Config> configs);

 private:
  std::unique_ptr<Checker> makeForRobot(std::shared_ptr<const Robot> robot) const override;
  SpheresChecker(const SpheresChecker& other);
  bool doIsValid(const Config& q) override;
  EdgeResult doCheckEdge(const Config& a, const Config& b) override;
  EdgeResult doCheckMove(const Config& a, const Config& b) override;
  PathResult doCheckPath(std::span<const Config> path) override;
  /// Samples first .. last of the n segments of a -> b in rounds of
  /// kSphereLanes (VAMP's rake): round s puts sample last - s - j * rounds
  /// on lane j, so the first round spans the motion from its far end and
  /// later ones fill between; the rounds in van der Corput order.
  EdgeResult rake(const Config& a, const Config& b, std::size_t n, std::size_t first, std::size_t last);
  /// `certify: containing`: made by the constructor.
  void makeCertifier();
  /// `certify: containing`'s motion: proved free by the spheres (the
  /// near pairs then checked by `exactCheck` on nearExact_), else decided by
  /// `exactCheck` on exact_.
  EdgeResult certifiedMotion(const Config& a, const Config& b,
                             EdgeResult (Checker::*exactCheck)(const Config&, const Config&));
  /// The exact check of the self pairs the spheres left (the near and the
  /// tabled ones; none when there are no near ones and the tables certify).
  Checker* pairsLeft(bool tablesCertify) const;
  /// `certify: containing`'s static check.
  bool certifiedValid(const Config& q);
  /// The exact static check finds a -> b's configuration at t colliding (counted in confirmed_guesses).
  bool confirmedColliding(const Config& a, const Config& b, double t);
  /// What an exact checker counted in the call just made, added to this one's stats.
  void absorb(Checker& exact);

  SpheresSettings settings_;
  bool given_ = false;  // the robot's spheres, not fitted (set by the constructor's choice of spheres_)
  std::shared_ptr<const std::vector<std::vector<Sphere>>> spheres_;
  SphereKernel kernel_;
  std::array<Config, kSphereLanes> samples_;
  ProbeSchedule rakeOrders_;  // the rounds' van der Corput orders by count
  // `certify: containing`: the proof, `adaptive` (with self pair tables)
  // for what it cannot prove, and on the self pairs the spheres leave alone.
  std::unique_ptr<ContainingProof> proof_;
  std::unique_ptr<AdaptiveChecker> exact_, pairsExact_;
};

}  // namespace prmkit
