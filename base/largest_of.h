#pragma once
// The largest value of a function over a list of points, the inner loop of
// support functions and speed bounds that scan every vertex of a hull.
#include <algorithm>
#include <array>
#include <cstddef>

namespace prmkit {

/// max(initial, value(p) for every p of points), kept as four running maxima
/// over every fourth point: each step then waits on the maximum four points
/// back, not on the last one (one chain of dependent maxima made these scans
/// latency-bound). The same value as one running maximum: every value(p) is
/// computed alike, and a maximum does not depend on the order.
template <class Points, class Value>
double largestOf(const Points& points, double initial, Value value) {
  std::array<double, 4> best{initial, initial, initial, initial};
  const std::size_t count = points.size();
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4)
    for (std::size_t k = 0; k < 4; ++k) best[k] = std::max(best[k], value(points[i + k]));
  for (; i < count; ++i) best[0] = std::max(best[0], value(points[i]));
  return std::max(std::max(best[0], best[1]), std::max(best[2], best[3]));
}

}  // namespace prmkit
