#pragma once
// A static collision check that walks the bounding-volume traversal tree
// (BVTT: pairs of FCL OBBRSS nodes, one tree per mesh pair, all in one
// priority queue) under a budget of BV tests, with the confidence values of
// Lin & Li, "A Time-Budgeted Collision Detection Method" (Fig. 8 and 9).
//
// Choices the paper leaves open, made here:
// - the cut list is ordered by (mesh pair, node of a, node of b), FCL's node
//   numbering standing in for the BVTT's left-to-right order;
// - groups of `group_size` consecutive cut nodes; a group is a dangerous
//   region when the standard deviation of its depths exceeds
//   `depth_deviation_threshold`;
// - with no dangerous region (no previous check, or a flat cut), every node of
//   the previous cut counts as dangerous; with no previous cut at all the
//   fraction r is 0;
// - the first check of a sequence starts from `initial_confidence`;
// - an answer that is not exact never claims 100: it is capped just below.
#include "base/field_types.h"
#include "geometry/query_counts.h"
#include "scene/scene.h"
#include "robots/robot.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace prmkit {

enum class TraversalOrder {
  DepthFirst,  // plain recursion order (the paper's baseline, DF)
  Coherence,   // the paper's best-first rule (BF): deepest previous cut first
  Overlap,     // greedy best-first on relative overlap d / (r_X + r_Y) (lecture slides)
};

/// Upper bounds of the traversal's settings: a budget past every BV test of
/// any BVTT is no budget; a group larger than a cut is one group.
inline constexpr std::uint64_t kMaxBudgetBvTests = 1'000'000'000'000;
inline constexpr std::size_t kMaxGroupSize = 1'000'000;

struct TraversalSettings {
  std::uint64_t budget_bv_tests = 0;  // 0: no budget, every check is exact
  TraversalOrder order = TraversalOrder::Coherence;
  std::size_t group_size = 8;
  double depth_deviation_threshold = 0.5;
  double initial_confidence = 100.0;  // percent

  template <class Fields>
  void fields(Fields& f) {
    f.integer("budget", budget_bv_tests, {.min = 0.0, .max = kMaxBudgetBvTests, .unit = "BV tests"});
    f.choice("order", order,
             std::array{Choice<TraversalOrder>{"coherence", TraversalOrder::Coherence},
                        Choice<TraversalOrder>{"depth_first", TraversalOrder::DepthFirst},
                        Choice<TraversalOrder>{"overlap", TraversalOrder::Overlap}});
    f.integer("group_size", group_size, {.min = 2.0, .max = kMaxGroupSize});
    f.number("depth_deviation_threshold", depth_deviation_threshold, {.min = 0.0, .max = 1e6});
    f.number("initial_confidence", initial_confidence, {.min = 0.0, .max = 100.0, .unit = "%"});
  }
};

/// Two meshes in world poses that must not touch.
struct MeshPair {
  const BvhModel* a;
  Transform pose_a;
  const BvhModel* b;
  Transform pose_b;
};

/// Every (link, obstacle) and self-collision pair of a robot whose links are
/// at `poses`, in a fixed order (so that consecutive checks share a cut).
void robotMeshPairs(const Robot& robot, const Scene& scene, const std::vector<Transform>& poses,
                    std::vector<MeshPair>& out);

struct TraversalResult {
  bool colliding = false;     // a triangle contact was found (exact)
  bool complete = true;       // finished within budget or found a contact: the answer is exact
  double confidence = 100.0;  // percent; 100 exactly when complete
  std::uint64_t bv_tests = 0;
};

class BvttTraversal {
 public:
  /// Throws std::invalid_argument on invalid settings.
  explicit BvttTraversal(TraversalSettings settings);
  const TraversalSettings& settings() const { return settings_; }

  /// Static check of all pairs; the pairs must be given in the same order in
  /// consecutive checks for the previous cut to mean anything. Counts BV and
  /// triangle tests and one pair test per mesh pair into `stats`. `budget`
  /// overrides the settings' budget for this check (0: none).
  TraversalResult check(std::span<const MeshPair> pairs, QueryCounts& stats,
                        std::optional<std::uint64_t> budget = std::nullopt);
  /// Forgets the previous cut and confidence (the next check starts a sequence).
  void forget();

 private:
  struct Node {
    double priority;
    std::uint64_t sequence;  // ties: the node pushed last first (recursion order)
    std::uint32_t pair;
    int a, b;
    int depth;            // the root of a pair's BVTT has depth 1 (the paper's Fig. 2)
    std::int64_t parent;  // index in visited_, -1 for a root
  };
  struct Visit {
    std::uint64_t key;
    std::int64_t parent;
    int depth;
    int deepest;  // deepest depth reached below (filled after the traversal)
  };
  static std::uint64_t key(std::uint32_t pair, int a, int b);
  double priority(const Node& node, const MeshPair& pair, const Eigen::Matrix3d& rotation,
                  const Eigen::Vector3d& translation) const;
  /// Keeps this check's cut, deepest depths and dangerous regions for the next.
  void remember();

  TraversalSettings settings_;
  std::vector<Node> heap_;
  std::vector<Visit> visited_;
  std::vector<std::pair<std::uint64_t, int>> cut_;  // (key, depth) of this check's cut
  std::unordered_map<std::uint64_t, int> previousDeepest_;
  std::unordered_set<std::uint64_t> dangerous_;  // from the previous cut
  std::size_t previousCutSize_ = 0;
  std::unordered_set<std::uint64_t> previousCut_;
  double previousConfidence_;
};

}  // namespace prmkit
