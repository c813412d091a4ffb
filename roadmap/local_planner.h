#pragma once
// The local planner every roadmap planner shares: which edge verdicts a
// planner may use, and how far a straight motion can go before an obstacle.
#include "checkers/checker.h"

#include <functional>

namespace prmkit {

/// An edge a planner may put in its roadmap: Free, or Unknown (a checker with
/// confidence values, such as `budgeted`) with at least `minConfidence` percent.
bool usableEdge(const EdgeResult& edge, double minConfidence);

/// The end of the longest prefix of a -> b known valid by the checker's own
/// verdicts, given that the configuration at `invalidFrom` is not: the gap is
/// narrowed by bisection to below 0.1% of the edge. `accepted` says which
/// edge verdicts count as valid. Used where a motion must stop before an
/// obstacle (OMPL's lastValid, random-bounce expansion).
struct ValidPrefix {
  double t = 0.0;      // edge parameter of the end; 0 when no prefix is known valid
  Config end;          // the configuration at t (valid)
  EdgeResult verdict;  // the accepted verdict of the prefix a -> end (Free for t = 0)
};
ValidPrefix validPrefix(Checker& checker, const Config& a, const Config& b, double invalidFrom,
                        const std::function<bool(const EdgeResult&)>& accepted);

}  // namespace prmkit
