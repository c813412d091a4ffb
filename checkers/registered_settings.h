#pragma once
// Settings of a strategy or a planner family in a registry: code that
// does not know the settings type still walks their fields with its own
// Fields visitor (settings_fields.h), through two adapters and a virtual
// interface, so the problem reader, `--set`, `scale` and validation treat a
// registered strategy exactly as one compiled into the registry.
#include "checkers/settings_fields.h"

#include <cstdint>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace prmkit {

/// A Fields visitor behind virtual calls: integers as 64-bit signed or
/// unsigned, a choice as the index of one of its spellings.
class AnyFields {
 public:
  virtual ~AnyFields() = default;
  virtual void number(std::string_view name, double& value, const NumberRange& range) = 0;
  virtual void signedInteger(std::string_view name, std::int64_t& value, const NumberRange& range) = 0;
  virtual void unsignedInteger(std::string_view name, std::uint64_t& value, const NumberRange& range) = 0;
  virtual void choice(std::string_view name, std::size_t& index, const std::vector<Choice<std::size_t>>& choices) = 0;
  virtual void boolean(std::string_view name, bool& value) = 0;
  virtual void geometry(Geometry& value) = 0;
};

/// Any Fields visitor as an AnyFields.
template <class Fields>
class AnyFieldsOf final : public AnyFields {
 public:
  explicit AnyFieldsOf(Fields& fields) : fields_(fields) {}
  void number(std::string_view name, double& value, const NumberRange& range) override {
    fields_.number(name, value, range);
  }
  void signedInteger(std::string_view name, std::int64_t& value, const NumberRange& range) override {
    fields_.integer(name, value, range);
  }
  void unsignedInteger(std::string_view name, std::uint64_t& value, const NumberRange& range) override {
    fields_.integer(name, value, range);
  }
  void choice(std::string_view name, std::size_t& index, const std::vector<Choice<std::size_t>>& choices) override {
    fields_.choice(name, index, choices);
  }
  void boolean(std::string_view name, bool& value) override { fields_.boolean(name, value); }
  void geometry(Geometry& value) override { fields_.geometry(value); }

 private:
  Fields& fields_;
};

/// An AnyFields as a Fields visitor, for a settings struct's fields().
struct FieldsOfAny {
  AnyFields& any;
  void number(std::string_view name, double& value, const NumberRange& range) { any.number(name, value, range); }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange& range) {
    if constexpr (std::is_signed_v<Integer>) {
      auto wide = static_cast<std::int64_t>(value);
      any.signedInteger(name, wide, range);
      value = static_cast<Integer>(wide);
    } else {
      auto wide = static_cast<std::uint64_t>(value);
      any.unsignedInteger(name, wide, range);
      value = static_cast<Integer>(wide);
    }
  }
  template <class T, class Choices>
  void choice(std::string_view name, T& value, const Choices& choices) {
    std::vector<Choice<std::size_t>> indexed;
    std::size_t index = 0;
    for (const auto& choice : choices) {
      if (choice.value == value) index = indexed.size();
      indexed.push_back({choice.name, indexed.size()});
    }
    any.choice(name, index, indexed);
    value = std::next(std::begin(choices), static_cast<std::ptrdiff_t>(index))->value;
  }
  void boolean(std::string_view name, bool& value) { any.boolean(name, value); }
  void geometry(Geometry& value) { any.geometry(value); }
};

/// One registered strategy's settings, with value semantics: a settings
/// struct of any type with a `fields(Fields&)` list (and optionally
/// `afterRead`), seen through the same members.
class RegisteredSettings {
 public:
  template <class Settings>
  RegisteredSettings(std::string name, Settings settings)
      : name_(std::move(name)), model_(std::make_unique<Model<Settings>>(std::move(settings))) {}
  RegisteredSettings(const RegisteredSettings& other)
      : name_(other.name_), model_(other.model_ ? other.model_->copy() : nullptr) {}
  RegisteredSettings& operator=(const RegisteredSettings& other) {
    if (this != &other) {
      name_ = other.name_;
      model_ = other.model_ ? other.model_->copy() : nullptr;
    }
    return *this;
  }
  RegisteredSettings(RegisteredSettings&&) = default;
  RegisteredSettings& operator=(RegisteredSettings&&) = default;

  const std::string& name() const { return name_; }
  template <class Fields>
  void fields(Fields& fields) {
    AnyFieldsOf<Fields> any(fields);
    model_->fields(any);
  }
  void afterRead(const std::set<std::string>& given) { model_->afterRead(given); }
  /// The settings as their own type (std::bad_cast if they are of another).
  template <class Settings>
  const Settings& as() const {
    return dynamic_cast<const Model<Settings>&>(*model_).settings;
  }
  template <class Settings>
  Settings& as() {
    return dynamic_cast<Model<Settings>&>(*model_).settings;
  }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual void fields(AnyFields& any) = 0;
    virtual void afterRead(const std::set<std::string>& given) = 0;
    virtual std::unique_ptr<Concept> copy() const = 0;
  };
  template <class Settings>
  struct Model final : Concept {
    explicit Model(Settings s) : settings(std::move(s)) {}
    void fields(AnyFields& any) override {
      FieldsOfAny adapter{any};
      settings.fields(adapter);
    }
    void afterRead(const std::set<std::string>& given) override {
      if constexpr (requires { settings.afterRead(given); }) settings.afterRead(given);
    }
    std::unique_ptr<Concept> copy() const override { return std::make_unique<Model>(settings); }
    Settings settings;
  };
  std::string name_;
  std::unique_ptr<Concept> model_;
};

}  // namespace prmkit
