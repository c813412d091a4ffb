#include "base/registry.h"
#include "checkers/adaptive_checker.h"
#include "checkers/budgeted_checker.h"
#include "checkers/discrete_checker.h"
#include "registry/checker_registry.h"
#include "setup/build_problem.h"
#include "planner/lazy_prm.h"
#include "registry/planner_registry.h"
#include "planner/prm.h"
#include "sampling/sampler_registry.h"
#include "test_support.h"

#include "sampled_steps_checker.h"
#include "test_strategies.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

using namespace prmkit;

namespace {

/// Each field's default as docs/problem-format.md writes it.
struct Defaults {
  std::map<std::string, std::string> values;
  void number(std::string_view name, double& value, const NumberRange&) {
    values[std::string(name)] = fmt::format("{:g}", value);
  }
  template <class Integer>
  void integer(std::string_view name, Integer& value, const NumberRange&) {
    values[std::string(name)] = fmt::format("{}", value);
  }
  template <class T, class Choices>
  void choice(std::string_view name, T& value, const Choices& choices) {
    for (const auto& choice : choices)
      if (choice.value == value) values[std::string(name)] = std::string(choice.name);
  }
  void boolean(std::string_view name, bool& value) { values[std::string(name)] = value ? "true" : "false"; }
  void geometry(Geometry&) {}
};

/// Out-of-range values for every numeric field with a finite bound: (field, value).
struct OutOfRange {
  std::vector<std::pair<std::string, double>> values;
  void number(std::string_view name, double&, const NumberRange& range) { add(name, range); }
  template <class Integer>
  void integer(std::string_view name, Integer&, const NumberRange& range) {
    // Below zero an unsigned field's value is not representable; the reader refuses it as text.
    if (std::is_signed_v<Integer> || range.min > 0) add(name, range);
  }
  template <class T, class Choices>
  void choice(std::string_view, T&, const Choices&) {}
  void boolean(std::string_view, bool&) {}
  void geometry(Geometry&) {}
  void add(std::string_view name, const NumberRange& range) {
    if (std::isfinite(range.min)) values.emplace_back(name, range.min_exclusive ? range.min : range.min - 1);
    if (std::isfinite(range.max)) values.emplace_back(name, range.max + 1);
  }
};

/// Sets one numeric field by name.
struct SetNumber {
  std::string field;
  double value;
  void number(std::string_view name, double& v, const NumberRange&) {
    if (name == field) v = value;
  }
  template <class Integer>
  void integer(std::string_view name, Integer& v, const NumberRange&) {
    if (name == field) v = static_cast<Integer>(value);
  }
  template <class T, class Choices>
  void choice(std::string_view, T&, const Choices&) {}
  void boolean(std::string_view, bool&) {}
  void geometry(Geometry&) {}
};

}  // namespace

TEST_CASE("registry: one shape for every family: compiled-in first, names unique, slips named", "[registry]") {
  struct Kind {
    std::string name;
    int value = 0;
  };
  Registry<Kind> kinds("widget", {{"alpha", 1}, {"beta", 2}});
  int accepted = 0;
  const auto accept = [&](const Kind& kind) {
    if (kind.value < 0) throw std::invalid_argument("negative");
    ++accepted;
  };
  kinds.add({"gamma", 3}, accept);
  CHECK(kinds.names() == std::vector<std::string>{"alpha", "beta", "gamma"});
  CHECK(accepted == 1);
  REQUIRE(kinds.find("beta"));
  CHECK(kinds.find("beta")->value == 2);
  CHECK(kinds.find("delta") == nullptr);
  CHECK_THROWS_WITH(kinds.add({"alpha", 4}, accept), Catch::Contains("a widget named 'alpha' is already registered"));
  CHECK_THROWS_WITH(kinds.add({"", 4}, accept), Catch::Contains("a widget needs a name"));
  CHECK_THROWS_WITH(kinds.add({"delta", -1}, accept), Catch::Contains("negative"));
  CHECK(kinds.names().size() == 3);  // nothing refused was added
  CHECK_THROWS_WITH(kinds.get("gama", ", or none"),
                    Catch::Contains("unknown widget 'gama' (did you mean 'gamma'?") && Catch::Contains(", or none"));
  // The three families use it: their slips are named alike.
  CHECK_THROWS_WITH(plannerKind("lazy_prn"), Catch::Contains("did you mean 'lazy_prm'?"));
  CHECK_THROWS_WITH(samplerKind("gausian"), Catch::Contains("did you mean 'gaussian'?"));
  CheckerSettings typo;
  typo.type = "adaptiv";
  const Problem problem = loadProblem(test::problemFile("maze2d"));
  CHECK_THROWS_WITH(makeChecker(typo, problem.robot, problem.scene), Catch::Contains("did you mean 'adaptive'?"));
}

TEST_CASE("registry: docs/problem-format.md lists every strategy's fields and their defaults", "[registry]") {
  const std::string docs = test::readText(test::sourceDir() / "docs" / "problem-format.md");
  CheckerSettings settings;
  forEachStrategy(settings, [&](std::string_view name, auto& strategy) {
    // The test folder's own strategy, registered at run time, documents itself where it is defined.
    if (name == test::SampledStepsChecker::kName) return;
    INFO("strategy " << name);
    // The section's heading line names its keys in the fields' order.
    const std::string heading = fmt::format("`{}: {{{}}}`", name, fmt::join(fieldNames(strategy), ", "));
    INFO(heading);
    REQUIRE(docs.find(heading) != std::string::npos);
    REQUIRE(docs.find(fmt::format("{}: {{...}}", name)) != std::string::npos);
    // Where a bullet gives a field's default, it is the struct's.
    Defaults defaults;
    strategy.fields(defaults);
    const std::size_t section = docs.find(heading);
    const std::size_t end = docs.find("\n\n", docs.find("\n- ", section));
    const std::string text = docs.substr(section, end - section);
    for (const auto& [field, value] : defaults.values) {
      INFO("field " << field << ", default " << value);
      REQUIRE((text.find(fmt::format("`{}`", field)) != std::string::npos ||
               text.find(fmt::format("`{}: ", field)) != std::string::npos));
      const std::regex documented("`" + field + "`[^(\n]*\\(default ([^,)]+)");
      std::smatch match;
      if (std::regex_search(text, match, documented) && match[1].str().find(' ') == std::string::npos)
        REQUIRE(match[1].str() == value);
    }
  });
}

TEST_CASE("registry: every bounded field is refused out of range by the reader and by the checker", "[registry]") {
  const Problem problem = loadProblem(test::problemFile("maze2d"));
  CheckerSettings settings;
  std::size_t tried = 0;
  forEachStrategy(settings, [&](std::string_view name, auto& strategy) {
    OutOfRange bad;
    strategy.fields(bad);
    for (const auto& [field, value] : bad.values) {
      INFO(name << "." << field << " = " << value);
      ++tried;
      const std::string key = fmt::format("checker.{}.{}", name, field);
      try {
        loadProblem(test::problemFile("maze2d"), {{fmt::format("{}={}", key, value)}, true});
        FAIL("the reader accepted it");
      } catch (const InputError& e) {
        REQUIRE(std::string(e.what()).find(key + " must be") != std::string::npos);
      }
      CheckerSettings direct;
      direct.type = std::string(name);
      SetNumber set{field, value};
      forEachStrategy(direct, [&](std::string_view other, auto& s) {
        if (other == name) s.fields(set);
      });
      REQUIRE_THROWS_AS(makeChecker(direct, problem.robot, problem.scene), std::invalid_argument);
    }
  });
  REQUIRE(tried >= 10);
}

TEST_CASE("registry: names, the verifier and the checker-wide geometry", "[registry]") {
  // The test folder's own strategy (sampled_steps_checker.cpp) registered itself at start.
  REQUIRE(checkerNames() ==
          std::vector<std::string>{"discrete", "adaptive", "budgeted", "swept", "spheres", "sampled_steps"});
  const Problem problem =
      loadProblem(test::problemFile("maze2d"), {{"checker.type=discrete", "checker.geometry=mesh"}, true});
  const auto verifier = makeVerifier(problem.checker, problem.robot, problem.scene);
  REQUIRE(verifier->name() == "adaptive");
  REQUIRE(verifier->exact());
  REQUIRE(dynamic_cast<const AdaptiveChecker&>(*verifier).settings().geometry == Geometry::Mesh);
  for (const std::string& name : checkerNames()) {
    CheckerSettings settings = problem.checker;
    settings.type = name;
    REQUIRE(makeChecker(settings, problem.robot, problem.scene)->name() == name);
  }
  CheckerSettings unknown;
  unknown.type = "hierarchical_hash";
  REQUIRE_THROWS_AS(makeChecker(unknown, problem.robot, problem.scene), std::invalid_argument);
  // `eps` alone selects workspace sampling, in both sections that sample edges.
  const Problem eps =
      loadProblem(test::problemFile("maze2d"), {{"checker.discrete.eps=0.02", "checker.budgeted.eps=0.03"}, true});
  REQUIRE(eps.checker.of<DiscreteChecker>().space == DiscreteSettings::Space::Workspace);
  REQUIRE(eps.checker.of<DiscreteChecker>().eps == 0.02);
  REQUIRE(eps.checker.of<BudgetedChecker>().sampling.space == DiscreteSettings::Space::Workspace);
  // `scale` multiplies the length fields and nothing else.
  const Problem scaled = loadProblem(test::problemFile("maze2d"), {{"scale=10", "checker.adaptive.eta=0.001"}, true});
  REQUIRE(scaled.checker.of<AdaptiveChecker>().eta == Approx(0.01));
  REQUIRE(scaled.checker.of<DiscreteChecker>().eps == Approx(0.1));
  REQUIRE(scaled.checker.of<DiscreteChecker>().resolution == 0.01);
}

TEST_CASE("registry: a strategy registered at run time is read, overridden, validated and made like the others",
          "[registry]") {
  using test::SampledStepsChecker;
  test::TempDir dir;
  const std::string maze =
      std::regex_replace(test::readText(test::problemFile("maze2d")), std::regex("\nchecker:[^\n]*"), "");
  const auto withChecker = [&](const std::string& section) {
    const std::filesystem::path file = dir.path / "registered.yaml";
    std::ofstream(file) << maze << "\n" << section;
    return file;
  };
  // Every kind of field: integer, number, choice, boolean, and the checker-wide geometry.
  const auto file = withChecker(
      "checker:\n  type: sampled_steps\n  geometry: mesh\n"
      "  sampled_steps: {steps: 40, max_step: 0.25, order: forward, check_ends: true}\n");
  const Problem problem = loadProblem(file, {{"checker.sampled_steps.steps=7"}, true});
  const auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  REQUIRE(checker->name() == "sampled_steps");
  const auto& settings = dynamic_cast<const SampledStepsChecker&>(*checker).settings();
  REQUIRE(settings.steps == 7);
  REQUIRE(settings.max_step == 0.25);
  REQUIRE(settings.order == test::SampledStepsSettings::Order::Forward);
  REQUIRE(settings.check_ends);
  REQUIRE(settings.geometry == Geometry::Mesh);
  REQUIRE(checker->description().find("7 configurations") != std::string::npos);
  // A bad choice is refused with the file's line and column, and the spellings.
  try {
    loadProblem(withChecker("checker:\n  sampled_steps: {order: backwards}\n"));
    FAIL("the reader accepted it");
  } catch (const InputError& e) {
    const std::string message = e.what();
    INFO(message);
    REQUIRE(message.find("registered.yaml:") != std::string::npos);
    REQUIRE(message.find("coarse_to_fine") != std::string::npos);
  }
  // An unknown key of its section is refused too.
  REQUIRE_THROWS_AS(loadProblem(withChecker("checker:\n  sampled_steps: {stepz: 3}\n")), InputError);
  // A name can be registered once.
  REQUIRE_THROWS_AS(registerChecker<SampledStepsChecker>(), std::invalid_argument);
  // It checks: a straight edge through maze2d's walls collides at the first configuration
  // found, which lies on the edge.
  const EdgeResult verdict = checker->checkEdge(problem.start, problem.goal);
  REQUIRE(verdict.verdict == Verdict::Colliding);
  REQUIRE(verdict.witness_t > 0.0);
  REQUIRE(verdict.witness_t < 1.0);
}

TEST_CASE("registry: planners and samplers registered at run time are named, read, made and asked like the others",
          "[registry]") {
  // The test folder's planner and sampler (tests/test_strategies.cpp) registered themselves at start.
  const std::vector<std::string> names = plannerNames();
  REQUIRE(names.size() > 8);
  REQUIRE(std::vector<std::string>(names.begin(), names.begin() + 8) ==
          std::vector<std::string>{"prm", "prm_star", "lazy_prm", "lazy_prm_star", "rrt_connect", "ompl_prm",
                                   "ompl_lazy_prm", "ompl_fcl_default"});
  REQUIRE(names.back() == "sequential_prm");
  // Between them, OMPL's planners by name.
  REQUIRE(std::all_of(names.begin() + 8, names.end() - 1,
                      [](const std::string& name) { return name.rfind("ompl:", 0) == 0; }));
  REQUIRE(samplerNames() == std::vector<std::string>{"uniform", "gaussian", "bridge", "obstacle_based", "max_clearance",
                                                     "medial_axis", "retraction", "near_pair"});
  // Read from a problem, overridden, mixed and made by name.
  const Problem problem = test::loadForPlanning(
      "maze2d", {"planner.type=sequential_prm", "planner.sampler=near_pair:0.3,uniform:0.7", "seed=5"});
  REQUIRE(problem.planner.type == "sequential_prm");
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
  REQUIRE(result.solved);
  REQUIRE(result.node_sources.size() == 2);
  REQUIRE(result.node_sources[0].source == "near_pair");
  REQUIRE(result.node_sources[0].nodes > 0);
  // Capabilities, not names: the commands ask them.
  REQUIRE(plannerKind("sequential_prm").capabilities.checks_edges_with_checker);
  REQUIRE_FALSE(plannerKind("sequential_prm").capabilities.compared_by_default);
  REQUIRE_FALSE(plannerKind("ompl_fcl_default").capabilities.checks_edges_with_checker);
  REQUIRE(prmkitPlannersFor("lazyprm") == std::vector<std::string>{"lazy_prm", "ompl_lazy_prm", "ompl_fcl_default"});
  // Unknown names are refused with the known ones; a name is registered once.
  REQUIRE_THROWS_WITH(loadProblem(test::problemFile("maze2d"), {{"planner.type=rrt"}, true}),
                      Catch::Contains("sequential_prm"));
  REQUIRE_THROWS_WITH(parseSamplerMix("near_pairs"), Catch::Contains("near_pair"));
  REQUIRE_THROWS_AS(registerPlanner(plannerKind("sequential_prm")), std::invalid_argument);
  // A section field must say which section it belongs to when written directly under planner:.
  PlannerKind sameField = plannerKind("sequential_prm");
  sameField.name = "other_prm";
  sameField.section = RegisteredSettings("other_prm", test::SequentialPrmSettings{});
  REQUIRE_THROWS_WITH(registerPlanner(sameField), Catch::Contains("search_every"));
  sameField.section = RegisteredSettings("k", test::SequentialPrmSettings{});
  REQUIRE_THROWS_WITH(registerPlanner(sameField), Catch::Contains("'k'"));
  REQUIRE_THROWS_AS(registerSampler(samplerKind("near_pair")), std::invalid_argument);
  SamplerKind badName = samplerKind("near_pair");
  badName.name = "near:pair";
  REQUIRE_THROWS_AS(registerSampler(badName), std::invalid_argument);
}

TEST_CASE("registry: a planner's own section is read, overridden and checked like a checker's", "[registry]") {
  // The test folder's planner declares `search_every` in its own section; the
  // section and the shorter form directly under planner: are the same field.
  for (const std::string form : {"planner.sequential_prm.search_every=5", "planner.search_every=5"}) {
    INFO(form);
    const Problem problem = test::loadForPlanning("maze2d", {"planner.type=sequential_prm", form, "seed=3"});
    REQUIRE(problem.planner.section<test::SequentialPrmSettings>().search_every == 5);
    auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
    const PlanResult result = makePlanner(problem.planner)->solve(*checker, problem.start, problem.goal);
    REQUIRE(result.solved);
    // One search per five samples added, the last one finding the path.
    REQUIRE((result.roadmap_vertices - 2) % 5 == 0);
    REQUIRE(result.planner_stats.graph_searches == (result.roadmap_vertices - 2) / 5);
  }
  // Both forms at once, a field of no section and a value out of range are refused where they are written.
  REQUIRE_THROWS_WITH(loadProblem(test::problemFile("maze2d"),
                                  {{"planner.search_every=2", "planner.sequential_prm.search_every=3"}, true}),
                      Catch::Contains("planner.search_every is also given as planner.sequential_prm.search_every"));
  REQUIRE_THROWS_WITH(loadProblem(test::problemFile("maze2d"), {{"planner.lazy_prm.expand=0.5"}, true}),
                      Catch::Contains("unknown key 'expand' in 'planner.lazy_prm'"));
  REQUIRE_THROWS_WITH(loadProblem(test::problemFile("maze2d"), {{"planner.sequential_prm.search_every=0"}, true}),
                      Catch::Contains("planner.sequential_prm.search_every must be in [1, 1e+06]"));
  // Sections are kept when the type changes (--planner), as checker sections are.
  const Problem both =
      loadProblem(test::problemFile("maze2d"), {{"planner.lazy_prm.batch=7", "planner.prm.expand=0.25"}, true});
  REQUIRE(both.planner.section<LazyPrmSettings>().batch == 7);
  REQUIRE(both.planner.section<PrmSettings>().expand == 0.25);
}

TEST_CASE("registry: docs/problem-format.md lists every planner field and section with their defaults", "[registry]") {
  const std::string docs = test::readText(test::sourceDir() / "docs" / "problem-format.md");
  PlannerSettings settings;
  const auto documented = [&](const std::string& heading, auto section) {
    INFO(heading);
    const std::size_t at = docs.find(heading);
    REQUIRE(at != std::string::npos);
    Defaults defaults;
    section.fields(defaults);
    const std::size_t end = docs.find("\n\n", docs.find("\n- ", at));
    const std::string text = docs.substr(at, end - at);
    for (const auto& [field, value] : defaults.values) {
      INFO("field " << field << ", default " << value);
      REQUIRE(text.find(fmt::format("`{}`", field)) != std::string::npos);
      const std::regex given("`" + field + "`[^(\n]*\\(default ([^,)]+)");
      std::smatch match;
      if (std::regex_search(text, match, given) && match[1].str().find(' ') == std::string::npos)
        REQUIRE(match[1].str() == value);
    }
  };
  documented(fmt::format("`planner: {{type, sampler, verify_final_path, {}, <section>}}`",
                         fmt::join(fieldNames(settings), ", ")),
             settings);
  for (const RegisteredSettings& section : settings.sections) {
    // A planner registered at run time documents itself where it is defined.
    if (section.name() == test::SequentialPrmSettings::kSection) continue;
    documented(fmt::format("`planner.{}: {{{}}}`", section.name(), fmt::join(fieldNames(section), ", ")), section);
  }
}

TEST_CASE("registry: every bounded planner field is refused out of range by the reader and by the planner",
          "[registry]") {
  PlannerSettings settings;
  std::size_t tried = 0;
  const auto refused = [&](const std::string& path, auto section, const std::string& type) {
    OutOfRange bad;
    section.fields(bad);
    for (const auto& [field, value] : bad.values) {
      const std::string key = fmt::format("{}.{}", path, field);
      INFO(key << " = " << value);
      ++tried;
      REQUIRE_THROWS_WITH(loadProblem(test::problemFile("maze2d"), {{fmt::format("{}={}", key, value)}, true}),
                          Catch::Contains(key + " must be"));
      PlannerSettings direct;
      direct.type = type;
      SetNumber set{field, value};
      if (path == "planner") {
        direct.fields(set);
      } else {
        for (RegisteredSettings& own : direct.sections)
          if (fmt::format("planner.{}", own.name()) == path) own.fields(set);
      }
      REQUIRE_THROWS_AS(makePlanner(direct), std::invalid_argument);
    }
  };
  refused("planner", settings, "lazy_prm");
  refused("planner.lazy_prm", settings.section<LazyPrmSettings>(), "lazy_prm_star");
  refused("planner.prm", settings.section<PrmSettings>(), "prm");
  refused("planner.sequential_prm", settings.section<test::SequentialPrmSettings>(), "sequential_prm");
  REQUIRE(tried >= 15);
}
