#pragma once
// The checkers' side of the settings fields (base/field_types.h): a
// strategy's `fields(Fields&)` also hands each visitor the checker-wide
// `geometry` through `geometry(Geometry&)`, which this visitor sets.
#include "base/field_types.h"
#include "geometry/collision_queries.h"

namespace prmkit {

/// Sets the checker-wide geometry in a strategy's settings.
struct GeometrySetter {
  Geometry value;
  void number(std::string_view, double&, const NumberRange&) {}
  template <class Integer>
  void integer(std::string_view, Integer&, const NumberRange&) {}
  template <class T, class Choices>
  void choice(std::string_view, T&, const Choices&) {}
  void boolean(std::string_view, bool&) {}
  void geometry(Geometry& geometry) { geometry = value; }
};

}  // namespace prmkit
