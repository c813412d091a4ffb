#pragma once
// The one shape of prmkit's registries (checking strategies, planners,
// sampling strategies): kinds by name, the compiled-in ones first in their
// list's order, then the ones registered at run time in registration order.
// A kind is a struct with at least a `name`; what else it carries (its
// factory, its settings section's defaults, its capabilities) is the
// family's. Everything that names a kind (the problem reader, the CLI's
// lists, `compare`, OMPL.app's keys) asks its family's registry.
#include "base/names.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

template <class Kind>
class Registry {
 public:
  /// `what` names the family in messages ("checker", "planner", "sampler");
  /// `compiled` are the compiled-in kinds. A family keeps its registry as a
  /// function's static, so that it is made, once, on first use.
  Registry(std::string what, std::vector<Kind> compiled) : what_(std::move(what)), kinds_(std::move(compiled)) {}

  /// Adds a kind after `accept` (which throws std::invalid_argument for a
  /// kind the family cannot take) has seen it; throws std::invalid_argument
  /// when its name is empty or taken. Not thread-safe: register before
  /// problems are read.
  template <class Accept>
  void add(Kind kind, Accept&& accept) {
    if (kind.name.empty()) throw std::invalid_argument(fmt::format("a {} needs a name", what_));
    if (find(kind.name))
      throw std::invalid_argument(fmt::format("a {} named '{}' is already registered", what_, kind.name));
    accept(kind);
    kinds().push_back(std::move(kind));
  }
  /// Every kind, compiled-in first.
  const std::vector<Kind>& all() { return kinds(); }
  /// The kind called `name`, or none.
  const Kind* find(std::string_view name) {
    for (const Kind& kind : kinds())
      if (kind.name == name) return &kind;
    return nullptr;
  }
  /// The kind called `name`; throws std::invalid_argument naming the known
  /// ones (and the closest, for a slip), then `orElse`.
  const Kind& get(std::string_view name, std::string_view orElse = {}) {
    if (const Kind* kind = find(name)) return *kind;
    throw std::invalid_argument(unknownNameMessage(what_, name, names(), orElse));
  }
  /// Every kind's name, in all() order.
  std::vector<std::string> names() {
    std::vector<std::string> names;
    for (const Kind& kind : kinds()) names.push_back(kind.name);
    return names;
  }

 private:
  std::vector<Kind>& kinds() { return kinds_; }
  std::string what_;
  std::vector<Kind> kinds_;
};

}  // namespace prmkit
