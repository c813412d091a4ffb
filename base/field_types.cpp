#include "base/field_types.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace prmkit {

bool NumberRange::contains(double value) const {
  if (!std::isfinite(value) || value > max) return false;
  return min_exclusive ? value > min : value >= min;
}

std::string NumberRange::describe() const {
  const bool bounded = std::isfinite(max);
  std::string text;
  if (!std::isfinite(min))
    text = bounded ? fmt::format("<= {:g}", max) : "finite";
  else if (!bounded)
    text = fmt::format("{} {:g}", min_exclusive ? ">" : ">=", min);
  else
    text = fmt::format("in {}{:g}, {:g}]", min_exclusive ? "(" : "[", min, max);
  return unit.empty() ? text : fmt::format("{} ({})", text, unit);
}

void FieldValidator::check(std::string_view name, double value, const NumberRange& range) const {
  if (!range.contains(value))
    throw std::invalid_argument(fmt::format("{}.{} must be {}, got {:g}", section_, name, range.describe(), value));
}

std::string FieldDescriptions::formatNumber(double value) { return fmt::format("{}", value); }

}  // namespace prmkit
