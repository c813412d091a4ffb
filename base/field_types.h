#pragma once
// A strategy's settings struct lists its fields once, in a member template
// `fields(Fields&)` (in the manner of Drake's `Serialize(Archive*)`): each
// field's name, range and unit, or its named choices. The problem reader
// (io/settings_reader.cpp), the checkers' and planners' validation, the `scale` of a problem and
// the test that keeps docs/problem-format.md in step all walk that one list,
// so a field is declared, checked and documented in one place.
//
// A Fields visitor has these members (any may ignore what it does not need):
//   number(name, double&, NumberRange)
//   integer(name, Integer&, NumberRange)      for any integer type
//   choice(name, T&, Choices)                  a range of Choice<T>
//   boolean(name, bool&)
//   geometry(Geometry&)   checkers only: the checker-wide `geometry`, not a
//                         field of the section (checkers/settings_fields.h)
//
// The vocabulary and the visitors every settings struct needs are here, below
// every strategy, so that kernels under the checkers (the BVTT traversal)
// and the planners declare and check their fields the same way.
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace prmkit {

/// The values a numeric field accepts (always finite), and its unit.
struct NumberRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;  // (min, max] instead of [min, max]
  /// A length (m): multiplied by a problem's `scale` with every other length.
  bool length = false;
  std::string_view unit = "";  // for messages: "m", "%", "BV tests", ...

  bool contains(double value) const;
  /// ">= 0", "> 0", "in [0, 64]", "in (0, 1]".
  std::string describe() const;
};

/// One spelling of a choice field and the value it stands for.
template <class T>
struct Choice {
  std::string_view name;
  T value;
};

/// The names of the fields, in their order.
struct FieldNames {
  std::vector<std::string> names;
  void number(std::string_view name, double&, const NumberRange&) { names.emplace_back(name); }
  template <class Integer>
  void integer(std::string_view name, Integer&, const NumberRange&) {
    names.emplace_back(name);
  }
  template <class T, class Choices>
  void choice(std::string_view name, T&, const Choices&) {
    names.emplace_back(name);
  }
  void boolean(std::string_view name, bool&) { names.emplace_back(name); }
  template <class Shared>
  void geometry(Shared&) {}
};

/// Each field described for people and scripts (`prmkit list`): its name,
/// kind, default (as a problem file writes it), accepted values and unit.
struct FieldDescription {
  std::string name, kind, default_value, accepts, unit;
};
struct FieldDescriptions {
  std::vector<FieldDescription> fields;
  void number(std::string_view name, double& value, const NumberRange& range) {
    fields.push_back({std::string(name), "number", formatNumber(value), range.describe(), std::string(range.unit)});
  }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange& range) {
    fields.push_back({std::string(name), "integer", std::to_string(value), range.describe(), std::string(range.unit)});
  }
  template <class T, class Choices>
  void choice(std::string_view name, T& value, const Choices& choices) {
    std::string current, names;
    for (const auto& choice : choices) {
      if (choice.value == value) current = std::string(choice.name);
      names += (names.empty() ? "" : ", ") + std::string(choice.name);
    }
    fields.push_back({std::string(name), "choice", current, "one of " + names, ""});
  }
  void boolean(std::string_view name, bool& value) {
    fields.push_back({std::string(name), "boolean", value ? "true" : "false", "true or false", ""});
  }
  template <class Shared>
  void geometry(Shared&) {}
  /// The shortest text that reads back as `value`.
  static std::string formatNumber(double value);
};

/// Throws std::invalid_argument naming `section.field` and its range for the
/// first field out of its range: what each checker's constructor runs.
class FieldValidator {
 public:
  explicit FieldValidator(std::string section) : section_(std::move(section)) {}
  void number(std::string_view name, double& value, const NumberRange& range) { check(name, value, range); }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange& range) {
    check(name, static_cast<double>(value), range);
  }
  template <class T, class Choices>
  void choice(std::string_view, T&, const Choices&) {}
  void boolean(std::string_view, bool&) {}
  template <class Shared>
  void geometry(Shared&) {}

 private:
  void check(std::string_view name, double value, const NumberRange& range) const;
  std::string section_;
};

/// Multiplies every length field by a factor (a problem's `scale`).
struct LengthScaler {
  double factor;
  void number(std::string_view, double& value, const NumberRange& range) {
    if (range.length) value *= factor;
  }
  template <class Integer>
  void integer(std::string_view, Integer&, const NumberRange&) {}
  template <class T, class Choices>
  void choice(std::string_view, T&, const Choices&) {}
  void boolean(std::string_view, bool&) {}
  template <class Shared>
  void geometry(Shared&) {}
};

/// Runs FieldValidator over a copy of the settings (fields() takes them by reference).
template <class Settings>
void validateFields(Settings settings, std::string section) {
  FieldValidator validator(std::move(section));
  settings.fields(validator);
}

template <class Settings>
std::vector<std::string> fieldNames(Settings settings) {
  FieldNames names;
  settings.fields(names);
  return names.names;
}

}  // namespace prmkit
