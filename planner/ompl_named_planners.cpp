#include "planner/ompl_named_planners.h"

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
  double low = 0.0, step = 0.0, high = 0.0;
  char tail = 0;
  const bool flagWord = value == "true" || value == "false";  // OMPL's flags take these too
  if (flagWord) return {};
  if (std::sscanf(suggestion.c_str(), "%lf:%lf:%lf%c", &low, &step, &high, &tail) == 3 ||
      std::sscanf(suggestion.c_str(), "%lf,%lf%c", &low, &high, &tail) == 2) {
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || !std::isfinite(number) || number < low || number > high)
      return fmt::format("OMPL's {}: parameter {} = '{}' is outside its range [{:g}, {:g}] (OMPL's own suggestion)",
                         planner.name, name, value, low, high);
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
    const std::function<std::unique_ptr<Planner>(const PlannerSettings&)>& make) {
  std::vector<PlannerKind> kinds;
  for (const OmplNamedPlanner& planner : table()) {
    PlannerCapabilities capabilities;
    capabilities.uses_node_sampler = false;
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
