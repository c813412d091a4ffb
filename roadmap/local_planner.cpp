#include "roadmap/local_planner.h"

#include <cmath>

namespace prmkit {

bool usableEdge(const EdgeResult& edge, double minConfidence) {
  return edge.verdict == Verdict::Free || (edge.verdict == Verdict::Unknown && edge.confidence >= minConfidence);
}

ValidPrefix validPrefix(Checker& checker, const Config& a, const Config& b, double invalidFrom,
                        const std::function<bool(const EdgeResult&)>& accepted) {
  // [0, prefix.t] is a valid motion; shrink the gap to the invalid parameter.
  // Ten halvings leave it below 0.1% of the edge.
  constexpr int kPrefixHalvings = 10;
  ValidPrefix prefix{0.0, a, EdgeResult{}};
  Config q;
  for (int i = 0; i < kPrefixHalvings; ++i) {
    const double mid = 0.5 * (prefix.t + invalidFrom);
    checker.robot().interpolate(a, b, mid, q);
    if (!checker.isValid(q)) {
      invalidFrom = mid;
      continue;
    }
    const EdgeResult edge = checker.checkEdge(a, q);
    if (accepted(edge)) {
      prefix = ValidPrefix{mid, q, edge};
    } else {
      // The sub-edge a -> q(mid) is the piece [0, mid] of a -> b, traversed at the same pace.
      invalidFrom = std::isnan(edge.witness_t) ? mid : std::max(prefix.t, edge.witness_t * mid);
    }
  }
  return prefix;
}

}  // namespace prmkit
