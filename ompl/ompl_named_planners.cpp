#include "ompl/ompl_named_planners.h"

#include <ompl/base/SpaceInformation.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/planners/est/BiEST.h>
#include <ompl/geometric/planners/est/EST.h>
#include <ompl/geometric/planners/est/ProjEST.h>
#include <ompl/geometric/planners/fmt/BFMT.h>
#include <ompl/geometric/planners/fmt/FMT.h>
#include <ompl/geometric/planners/informedtrees/ABITstar.h>
#include <ompl/geometric/planners/informedtrees/AITstar.h>
#include <ompl/geometric/planners/informedtrees/BITstar.h>
#include <ompl/geometric/planners/kpiece/BKPIECE1.h>
#include <ompl/geometric/planners/kpiece/KPIECE1.h>
#include <ompl/geometric/planners/kpiece/LBKPIECE1.h>
#include <ompl/geometric/planners/pdst/PDST.h>
#include <ompl/geometric/planners/prm/LazyPRM.h>
#include <ompl/geometric/planners/prm/LazyPRMstar.h>
#include <ompl/geometric/planners/prm/PRM.h>
#include <ompl/geometric/planners/prm/PRMstar.h>
#include <ompl/geometric/planners/prm/SPARS.h>
#include <ompl/geometric/planners/prm/SPARStwo.h>
#include <ompl/geometric/planners/rlrt/BiRLRT.h>
#include <ompl/geometric/planners/rlrt/RLRT.h>
#include <ompl/geometric/planners/rrt/BiTRRT.h>
#include <ompl/geometric/planners/rrt/InformedRRTstar.h>
#include <ompl/geometric/planners/rrt/LazyRRT.h>
#include <ompl/geometric/planners/rrt/RRT.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/geometric/planners/rrt/RRTXstatic.h>
#include <ompl/geometric/planners/rrt/RRTsharp.h>
#include <ompl/geometric/planners/rrt/RRTstar.h>
#include <ompl/geometric/planners/rrt/SORRTstar.h>
#include <ompl/geometric/planners/rrt/TRRT.h>
#include <ompl/geometric/planners/sbl/SBL.h>
#include <ompl/geometric/planners/stride/STRIDE.h>

#include <ompl/util/Console.h>

#include "base/names.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace prmkit {

namespace {

namespace ob = ompl::base;
namespace og = ompl::geometric;

constexpr std::string_view kPrefix = "ompl:";

template <class P>
OmplNamedPlanner entry(std::string name, bool lazy = false) {
  return {std::move(name), lazy, [](const ob::SpaceInformationPtr& si) { return std::make_shared<P>(si); }};
}

/// BIT* and ABIT* search k nearest neighbours by default, and warn at
/// every construction that this version's name is OMPL's k-prefixed one.
template <class P>
OmplNamedPlanner kNearestEntry(std::string name) {
  return {name, true, [name](const ob::SpaceInformationPtr& si) { return std::make_shared<P>(si, "k" + name); }};
}

const std::vector<OmplNamedPlanner>& table() {
  static const std::vector<OmplNamedPlanner> planners{
      entry<og::RRTConnect>("RRTConnect"),
      entry<og::RRT>("RRT"),
      entry<og::RRTstar>("RRTstar"),
      entry<og::RRTsharp>("RRTsharp"),
      entry<og::RRTXstatic>("RRTXstatic"),
      entry<og::InformedRRTstar>("InformedRRTstar"),
      entry<og::SORRTstar>("SORRTstar"),
      entry<og::LazyRRT>("LazyRRT", true),
      entry<og::TRRT>("TRRT"),
      entry<og::BiTRRT>("BiTRRT"),
      entry<og::EST>("EST"),
      entry<og::BiEST>("BiEST"),
      entry<og::ProjEST>("ProjEST"),
      entry<og::SBL>("SBL", true),
      entry<og::KPIECE1>("KPIECE1"),
      entry<og::BKPIECE1>("BKPIECE1", true),
      entry<og::LBKPIECE1>("LBKPIECE1", true),
      entry<og::PDST>("PDST"),
      entry<og::STRIDE>("STRIDE"),
      entry<og::PRM>("PRM"),
      entry<og::PRMstar>("PRMstar"),
      entry<og::LazyPRM>("LazyPRM", true),
      entry<og::LazyPRMstar>("LazyPRMstar", true),
      entry<og::SPARS>("SPARS"),
      entry<og::SPARStwo>("SPARStwo"),
      entry<og::FMT>("FMT"),
      entry<og::BFMT>("BFMT"),
      kNearestEntry<og::BITstar>("BITstar"),
      kNearestEntry<og::ABITstar>("ABITstar"),
      entry<og::AITstar>("AITstar", true),
      entry<og::RLRT>("RLRT"),
      entry<og::BiRLRT>("BiRLRT"),
  };
  return planners;
}

/// The name an OMPL.app .cfg's [planner] section gives OMPL's class `name`,
/// from OMPL.app's benchmark program, which maps these names (and `lbtrrt`,
/// `aps` and `cforest`, which prmkit does not run) to classes; empty
/// for a class it does not name. prm and lazyprm are left to ompl_prm and
/// ompl_lazy_prm.
std::string_view omplAppName(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> names[] = {
      {"RRT", "rrt"},          {"RRTConnect", "rrtconnect"},
      {"LazyRRT", "lazyrrt"},  {"RRTstar", "rrtstar"},
      {"TRRT", "trrt"},        {"EST", "est"},
      {"BiEST", "biest"},      {"ProjEST", "projest"},
      {"SBL", "sbl"},          {"KPIECE1", "kpiece"},
      {"BKPIECE1", "bkpiece"}, {"LBKPIECE1", "lbkpiece"},
      {"PRMstar", "prmstar"},  {"LazyPRMstar", "lazyprmstar"},
      {"SPARS", "spars"},      {"SPARStwo", "spars2"},
      {"STRIDE", "stride"},    {"PDST", "pdst"},
      {"FMT", "fmt"},          {"BFMT", "bfmt"}};
  for (const auto& [className, omplApp] : names)
    if (className == name) return omplApp;
  return {};
}

/// Bounds prmkit adds to OMPL's range suggestions, where a value OMPL's
/// setters take crashes OMPL 1.5.2, makes its setup throw, or holds a run
/// far past its time limit (OMPL samples or connects the whole amount before
/// it looks at the termination condition). Each was measured on the shipped
/// problems with `plan --time-limit 1`; docs/problem-format.md lists them.
struct MeasuredBound {
  std::string_view planners;  // space-separated OMPL class names
  std::string_view parameter;
  double low, high;
  std::string_view why;
};

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

constexpr MeasuredBound kMeasuredBounds[] = {
    // KPIECE's setup refuses a fraction below the machine epsilon or above 1.
    {"KPIECE1 BKPIECE1", "failed_expansion_score_factor", kEpsilon, 1.0, "OMPL's setup throws outside it"},
    {"KPIECE1 BKPIECE1 LBKPIECE1", "min_valid_path_fraction", kEpsilon, 1.0, "OMPL's setup throws outside it"},
    // 0.3 crashed on 5 of 6 shipped problems (a node with no neighbour in
    // its radius), 0.5 on none; FMT*'s radius factor is above 1 for its
    // guarantees (Janson, Schmerling, Clark & Pavone 2015).
    {"FMT BFMT", "radius_multiplier", 1.0, 50.0,
     "below 1 OMPL's FMT crashes where a node has no neighbour in its radius"},
    // 20 000 took 2.7 s on a 1 s limit (arm6_shelf), 100 000 took 47 s.
    {"FMT BFMT", "num_samples", 1.0, 20000.0,
     "OMPL's FMT draws and connects every sample before it looks at its time limit (100 000 took 47 s on a 1 s limit)"},
    // 10^5 took 1.8 s on a 1 s limit (maze2d), 10^6 took 17 s and 0.9 GB.
    {"BITstar ABITstar AITstar", "samples_per_batch", 1.0, 100000.0,
     "OMPL draws and connects a whole batch before it looks at its time limit (10^6 took 17 s on a 1 s limit)"},
};

/// Whether `word` is one of the space-separated words of `words`.
bool containsWord(std::string_view words, std::string_view word) {
  while (!words.empty()) {
    const std::size_t space = words.find(' ');
    if (words.substr(0, space) == word) return true;
    words = space == std::string_view::npos ? std::string_view() : words.substr(space + 1);
  }
  return false;
}

const MeasuredBound* measuredBound(std::string_view planner, std::string_view parameter) {
  for (const MeasuredBound& bound : kMeasuredBounds)
    if (bound.parameter == parameter && containsWord(bound.planners, planner)) return &bound;
  return nullptr;
}

/// A planner of this kind on a throwaway one-dimensional space, to read its
/// parameters: their names do not depend on the space.
ob::PlannerPtr probe(const OmplNamedPlanner& planner) {
  auto space = std::make_shared<ob::RealVectorStateSpace>(1);
  space->setBounds(0.0, 1.0);
  return planner.make(std::make_shared<ob::SpaceInformation>(space));
}

std::vector<std::string> parameterNames(const OmplNamedPlanner& planner) {
  std::vector<std::string> names;
  probe(planner)->params().getParamNames(names);
  std::sort(names.begin(), names.end());
  return names;
}

/// The bounds of an OMPL range suggestion; none for any other text (a parameter without one).
std::optional<std::pair<double, double>> suggestedRange(const std::string& suggestion) {
  // OMPL's ParamSet writes "min:step:max" or "min:max" for numbers and "0,1"
  // for a flag (GenericParam::setRangeSuggestion); all three bound a value.
  double low = 0.0, step = 0.0, high = 0.0;
  char tail = 0;
  if (std::sscanf(suggestion.c_str(), "%lf:%lf:%lf%c", &low, &step, &high, &tail) == 3) return std::pair{low, high};
  if (std::sscanf(suggestion.c_str(), "%lf:%lf%c", &low, &high, &tail) == 2) return std::pair{low, high};
  if (std::sscanf(suggestion.c_str(), "%lf,%lf%c", &low, &high, &tail) == 2) return std::pair{low, high};
  return std::nullopt;
}

std::string parameterError(const OmplNamedPlanner& planner, const std::string& name, const std::string& value) {
  const ob::PlannerPtr made = probe(planner);
  std::vector<std::string> names;
  made->params().getParamNames(names);
  std::sort(names.begin(), names.end());
  if (!made->params().hasParam(name))
    return unknownNameMessage(fmt::format("OMPL {} parameter", planner.name), name, names);
  // OMPL returns false for a value its setter cannot take, and logs it: the
  // message here says it once, with the file and line.
  // Some setters throw instead (a number that does not parse).
  const ompl::msg::LogLevel level = ompl::msg::getLogLevel();
  ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
  std::string refused;
  try {
    if (!made->params().setParam(name, value)) refused = "not a value it takes";
  } catch (const std::exception& e) {
    refused = e.what();
  }
  ompl::msg::setLogLevel(level);
  if (!refused.empty())
    return fmt::format("OMPL's {} refuses '{}' for its parameter {} ({})", planner.name, value, name, refused);
  // OMPL's setters take any number (a negative range, a goal bias of 5);
  // its own range suggestion ("min:step:max", or "0,1" for a flag) bounds them.
  const ob::GenericParamPtr parameter = made->params().getParam(name);
  const std::string suggestion = parameter ? parameter->getRangeSuggestion() : std::string();
  const bool flagWord = value == "true" || value == "false";  // OMPL's flags take these too
  if (flagWord) return {};
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  const bool isNumber = end != value.c_str() && std::isfinite(number);
  if (const auto range = suggestedRange(suggestion)) {
    if (!isNumber || number < range->first || number > range->second)
      return fmt::format("OMPL's {}: parameter {} = '{}' is outside its range [{:g}, {:g}] (OMPL's own suggestion)",
                         planner.name, name, value, range->first, range->second);
  }
  if (const MeasuredBound* bound = measuredBound(planner.name, name)) {
    if (!isNumber || number < bound->low || number > bound->high)
      return fmt::format("OMPL's {}: parameter {} = '{}' is outside [{:g}, {:g}] ({})", planner.name, name, value,
                         bound->low, bound->high, bound->why);
  }
  return {};
}

/// OMPL's RRT* crashes in its first sampling when a flag that needs another
/// is set without it; the rules are its own error messages' (OMPL 1.5.2
/// logs them and goes on with no sampler).
struct FlagRule {
  std::string_view planners;
  std::string_view flag;
  std::vector<std::vector<std::string_view>> needs;  // one of these sets, each whole
  std::string_view rule;
};

const std::vector<FlagRule>& flagRules() {
  static const std::vector<FlagRule> rules{
      {"RRTstar",
       "ordered_sampling",
       {{"informed_sampling"}, {"sample_rejection"}},
       "ordered sampling requires informed_sampling or sample_rejection"},
      {"RRTstar",
       "pruned_measure",
       {{"informed_sampling", "tree_pruning"}},
       "the pruned measure requires informed_sampling and tree_pruning"},
  };
  return rules;
}

bool flagSet(const std::vector<std::pair<std::string, std::string>>& parameters, std::string_view name) {
  // The last value given counts, as when OMPL applies them in order; OMPL
  // reads a flag's number as set when it is not zero (1e-300 sets it).
  bool set = false;
  for (const auto& [key, value] : parameters) {
    if (key != name) continue;
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    set = value == "true" || (end != value.c_str() && *end == '\0' && number != 0.0);
  }
  return set;
}

std::string parameterSetError(const OmplNamedPlanner& planner,
                              const std::vector<std::pair<std::string, std::string>>& parameters) {
  for (const FlagRule& rule : flagRules()) {
    if (!containsWord(rule.planners, planner.name) || !flagSet(parameters, rule.flag)) continue;
    const bool met = std::any_of(rule.needs.begin(), rule.needs.end(), [&](const auto& all) {
      return std::all_of(all.begin(), all.end(), [&](std::string_view flag) { return flagSet(parameters, flag); });
    });
    if (!met)
      return fmt::format("OMPL's {}: parameter {} is set without what it needs: {} (OMPL crashes without them)",
                         planner.name, rule.flag, rule.rule);
  }
  return {};
}

}  // namespace

const OmplNamedPlanner* omplNamedPlanner(std::string_view type) {
  if (type.substr(0, kPrefix.size()) != kPrefix) return nullptr;
  const std::string_view name = type.substr(kPrefix.size());
  for (const OmplNamedPlanner& planner : table())
    if (planner.name == name) return &planner;
  return nullptr;
}

std::vector<PlannerKind> omplNamedPlannerKinds(
    const std::function<std::unique_ptr<Planner>(const PlannerSettings&, const PlannerCapabilities&)>& make) {
  std::vector<PlannerKind> kinds;
  for (const OmplNamedPlanner& planner : table()) {
    PlannerCapabilities capabilities;
    capabilities.uses_node_sampler = false;
    capabilities.verifies_final_path = false;
    capabilities.keeps_roadmap = false;
    // An OMPL.app [planner] line names a planner as OMPL.app's benchmark
    // program does (its CFGBenchmark::allocPlanner); prm and lazyprm stay with
    // ompl_prm and ompl_lazy_prm.
    if (const std::string_view omplApp = omplAppName(planner.name); !omplApp.empty())
      capabilities.omplapp_names = {std::string(omplApp)};
    PlannerKind kind{std::string(kPrefix) + planner.name, fmt::format("OMPL's {} on prmkit's checker", planner.name),
                     capabilities, make, std::nullopt};
    kind.parameter_names = [&planner] { return parameterNames(planner); };
    kind.parameter_error = [&planner](const std::string& name, const std::string& value) {
      return parameterError(planner, name, value);
    };
    kind.parameter_set_error = [&planner](const std::vector<std::pair<std::string, std::string>>& parameters) {
      return parameterSetError(planner, parameters);
    };
    kinds.push_back(std::move(kind));
  }
  return kinds;
}

std::vector<FieldDescription> omplParameterDescriptions(std::string_view type) {
  std::vector<FieldDescription> out;
  const OmplNamedPlanner* planner = omplNamedPlanner(type);
  if (!planner) return out;
  const ob::PlannerPtr made = probe(*planner);
  std::map<std::string, std::string> values;
  // Some getters warn that their option has no effect (BIT*'s): not news here.
  const ompl::msg::LogLevel level = ompl::msg::getLogLevel();
  ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
  made->params().getParams(values);
  ompl::msg::setLogLevel(level);
  for (const auto& [name, value] : values) {
    const ob::GenericParamPtr parameter = made->params().getParam(name);
    std::string range = parameter ? parameter->getRangeSuggestion() : std::string();
    // OMPL's suggestion is "min:step:max" for numbers, "0,1" for flags.
    out.push_back({name, "OMPL parameter", value, range.empty() ? "any OMPL accepts" : "suggested " + range, ""});
  }
  return out;
}

void applyOmplParameters(ob::Planner& planner, const std::vector<std::pair<std::string, std::string>>& parameters) {
  for (const auto& [name, value] : parameters) {
    bool accepted = false;
    try {
      accepted = planner.params().setParam(name, value);
    } catch (const std::exception&) {
      accepted = false;
    }
    if (!accepted)
      throw std::invalid_argument(
          fmt::format("planner.parameters.{}: OMPL's {} refuses '{}'", name, planner.getName(), value));
  }
}

}  // namespace prmkit
