#include "app/cli.h"

#include "base/names.h"

#include "app/commands.h"
#include "app/jobs.h"

#include "eval/benchmark.h"
#include "eval/edge_check.h"
#include "eval/independent_check.h"
#include "eval/verify.h"

#include "io/omplapp_problem.h"
#include "setup/build_problem.h"
#include "io/viewer_page.h"
#include "registry/planner_registry.h"

#include <assimp/version.h>
#include <fcl/config.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ompl/config.h>

#include <chrono>
#include <functional>
#include <memory>
#include <sstream>

namespace prmkit {

namespace cli {
std::vector<std::string> splitList(const std::string& text, const std::string& option,
                                   const std::vector<std::string>& allowed) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (std::find(allowed.begin(), allowed.end(), item) == allowed.end())
      throw InputError(fmt::format("{}: {}", option, unknownNameMessage("name", item, allowed)));
    if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
  }
  if (items.empty()) throw InputError(fmt::format("{} needs at least one name", option));
  return items;
}

std::string knownName(const std::string& typed, const std::string& option, const std::string& kind,
                      const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), typed) == allowed.end())
    throw InputError(fmt::format("{}: {}", option, unknownNameMessage(kind, typed, allowed)));
  return typed;
}

std::pair<std::string, std::string> splitAssignment(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--set '{}': expected key.path=value", assignment));
  return {assignment.substr(0, eq), assignment.substr(eq + 1)};
}

std::string checkerHelp() {
  return fmt::format("collision checker strategy, one of {} (default: the problem's, else adaptive, exact)",
                     fmt::join(checkerNames(), ", "));
}

std::string plannerHelp() {
  // Planners of another library (they take its parameters) are many: named by example.
  std::vector<std::string> own, library;
  for (const PlannerKind& kind : plannerKinds()) (kind.parameter_names ? library : own).push_back(kind.name);
  std::string help = fmt::format("{}", fmt::join(own, ", "));
  if (library.size() >= 2)
    help += fmt::format(", or one of OMPL's planners by name ({}, {}, ... {} in all)", library[0], library[1],
                        library.size());
  return help;
}

CLI::Option* addSeed(CLI::App* sub, long& seed, const std::string& help) {
  return sub->add_option("--seed", seed, help)->check(CLI::Range(0L, 4294967295L));
}

namespace {

Command planCommand(CLI::App& app, std::ostream& out, const std::vector<std::string>& commandLine) {
  struct Args {
    ProblemArgs problem;
    std::string planner, checker, sampler, out = "out";
    long seed = -1, threads = 0;
    double timeLimit = 0;
    RoadmapOptions roadmaps;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand("plan", "plan a problem and write path.csv, stats.json, scene.svg, scene.html");
  a->problem.addTo(sub);
  sub->add_option("--planner", a->planner, plannerHelp());
  sub->add_option("--checker", a->checker, checkerHelp());
  sub->add_option(
      "--sampler", a->sampler,
      fmt::format("node sampler: {}, a mix such as uniform:0.5,bridge:0.5, or {} (the default: uniform, then "
                  "{} while start and goal stay apart; {}:NAMES shifts to those)",
                  fmt::join(samplerNames(), ", "), kShiftingMix, fmt::join(kShiftingNarrowPassageSamplers, ", "),
                  kShiftingMix));
  addSeed(sub, a->seed, "random seed (0 to 4294967295)");
  sub->add_option("--time-limit", a->timeLimit, "time limit (s)");
  sub->add_option("--threads", a->threads,
                  "threads, one checker clone each: prm's neighbour searches and edge checks, lazy_prm's sampling "
                  "and neighbour searches (default 0: every core; "
                  "the result does not depend on it)")
      ->check(CLI::Range(0L, 256L));
  sub->add_option("--out", a->out, "output folder (default: out)");
  sub->add_option("--queries", a->roadmaps.queries_file,
                  "plan these start/goal pairs one after the other on one roadmap instead of the problem's own "
                  "(YAML, docs/problem-format.md); writes queries.csv");
  sub->add_option("--roadmap", a->roadmaps.roadmap_file,
                  "plan on the roadmap in this file (written by --save-roadmap; docs/roadmap-format.md)");
  sub->add_option("--save-roadmap", a->roadmaps.save_roadmap_file,
                  "write the roadmap to this file after the last query");
  return {sub, [a, sub, &out, &commandLine] {
            const std::string file = a->problem.problemFile();
            std::vector<std::pair<std::string, std::string>> flags;
            if (!a->planner.empty()) flags.emplace_back("--planner", "planner.type=" + a->planner);
            if (!a->checker.empty()) flags.emplace_back("--checker", "checker.type=" + a->checker);
            if (!a->sampler.empty()) flags.emplace_back("--sampler", "planner.sampler=" + a->sampler);
            if (a->seed >= 0) flags.emplace_back("--seed", fmt::format("seed={}", a->seed));
            if (sub->count("--time-limit"))
              flags.emplace_back("--time-limit", fmt::format("limits.time={}", a->timeLimit));
            if (sub->count("--threads")) flags.emplace_back("--threads", fmt::format("planner.threads={}", a->threads));
            return plan(file, a->problem.loadOptions(flags), a->out, out, commandLine, a->roadmaps);
          }};
}

Command checkCommand(CLI::App& app, std::ostream& out) {
  struct Args {
    ProblemArgs problem;
    CheckOptions options;
    std::string checker;
    long seed = -1;
  };
  auto a = std::make_shared<Args>();
  auto* sub = app.add_subcommand(
      "check", "check a list of edges (or random ones), or of configurations, and write one verdict each");
  a->problem.addTo(sub);
  CheckOptions& o = a->options;
  sub->add_option("--checker", a->checker, checkerHelp());
  sub->add_option("--edges", o.edgesFile, "CSV of edges: header a.<coordinate>..., b.<coordinate>...");
  sub->add_option("--configs", o.configsFile,
                  "CSV of configurations (header: the coordinates, as a path CSV): one static check each, beside the "
                  "exact check on the meshes");
  sub->add_option("--random", o.randomCount,
                  fmt::format("check N random edges between valid configurations (at most {})", kMaxRandomEdges))
      ->check(CLI::Range(std::size_t{1}, kMaxRandomEdges));
  sub->add_option("--max-length", o.maxLength, "longest random edge (C-space units; default: any)");
  sub->add_option("--max-length-fraction", o.maxLengthFraction,
                  "longest random edge as a fraction of the C-space extent (like OMPL's resolutions)");
  addSeed(sub, a->seed, "seed of the random edges (default 1; 0 to 4294967295)");
  sub->add_option("--truth-eps", o.truthEps,
                  "also run a dense ground truth: no robot point moves more than this (m) between checks");
  sub->add_option("--independent-truth", o.independentResolution,
                  "also run the independent truth: plain FCL checks every this fraction of the C-space extent "
                  "(e.g. 1e-4), no motion bounds; misses count against either truth");
  sub->add_option("--jobs", o.jobs, "threads, one checker instance each (default 1, at most 256)")
      ->check(CLI::Range(std::size_t{1}, kMaxJobs));
  sub->add_option("--out", o.outFile, "write one row per edge to this CSV file");
  return {sub, [a, &out] {
            const std::string file = a->problem.problemFile();
            std::vector<std::pair<std::string, std::string>> flags;
            if (!a->checker.empty()) flags.emplace_back("--checker", "checker.type=" + a->checker);
            return check(file, a->problem.loadOptions(flags), a->seed >= 0 ? static_cast<std::uint32_t>(a->seed) : 1u,
                         a->options, out);
          }};
}

Command validateCommand(CLI::App& app, std::ostream& out) {
  auto a = std::make_shared<ProblemArgs>();
  auto* sub = app.add_subcommand("validate", "load and check a problem without planning");
  a->addTo(sub);
  return {sub, [a, &out] {
            const std::string file = a->problemFile();
            const Problem problem = loadProblem(file, a->loadOptions());
            out << fmt::format(
                "{}: valid ({}, {} dof, {} links, {} obstacles with {} triangles, scene size {:.6g} m)\n", file,
                problem.robot->kind(), problem.robot->dof(), problem.robot->links().size(),
                problem.scene->obstacles().size(), problem.scene->triangleCount(), problem.sceneSize());
            return kOk;
          }};
}

struct VerifyArgs {
  ProblemArgs problem;
  std::string pathFile, htmlFile;
  double eps = 0, goalTolerance = 0;
  bool independent = false, collisionsOnly = false;
  double independentResolution = kIndependentResolution;
};

Command verifyCommand(CLI::App& app, std::ostream& out) {
  auto a = std::make_shared<VerifyArgs>();
  auto* sub = app.add_subcommand(
      "verify", "dense check of a path file; exit 0 if collision-free from start to goal, 1 if not, 2 for bad input");
  a->problem.addTo(sub);
  sub->add_option("path", a->pathFile,
                  "path written by plan (path.csv, or path.txt / an OMPL.app .path file); with --request, the "
                  "only positional argument");
  sub->add_option(
      "--html", a->htmlFile,
      "also write a viewer page (as plan's scene.html) of the path, its first colliding configuration highlighted");
  sub->add_option("--eps", a->eps,
                  "largest motion of any robot point between checks (m); default 1e-3 of the robot's "
                  "largest link or of the scene, whichever is smaller");
  sub->add_flag("--independent", a->independent,
                "also step every segment in C-space with plain FCL checks (no motion bounds, no prmkit distance "
                "code); a collision only it finds is reported as a disagreement");
  sub->add_option("--independent-resolution", a->independentResolution,
                  "C-space step of --independent as a fraction of the extent (default 1e-4)");
  sub->add_flag("--collisions-only", a->collisionsOnly,
                "judge collision-freeness alone: a path that does not begin at the start or end at the goal is "
                "reported (how far, in metres and degrees) but not rejected");
  sub->add_option("--goal-tolerance", a->goalTolerance,
                  "endpoints this close count as reached (m: the most any robot point moves between the path's "
                  "endpoint and the problem's; default --eps, so that files written at print precision pass); "
                  "the motion between them is checked like a segment");
  return {sub, [a, sub, &out] {
            // With --request the problem is no positional argument: the one given is the path.
            if (!a->problem.request.empty() && a->pathFile.empty()) std::swap(a->pathFile, a->problem.file);
            if (a->pathFile.empty()) throw InputError("give the path file to verify (verify PROBLEM PATH)");
            VerifyOptions options{a->pathFile,  a->htmlFile,       std::nullopt,
                                  std::nullopt, a->collisionsOnly, std::nullopt};
            if (sub->count("--goal-tolerance")) options.endpoint_tolerance = a->goalTolerance;
            if (sub->count("--eps")) options.eps = a->eps;
            if (a->independent || sub->count("--independent-resolution"))
              options.independent_resolution = a->independentResolution;
            LoadOptions load = a->problem.loadOptions();
            load.checkEndpoints = false;
            return verify(a->problem.problemFile(), load, options, out);
          }};
}

/// The subcommands' names, and the long options of `sub`, for did-you-mean.
std::vector<std::string> subcommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::vector<std::string> longOptions(const CLI::App& sub) {
  std::vector<std::string> names{"--help"};
  for (const CLI::Option* option : sub.get_options())
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  return names;
}

/// prmkit's version and the versions of the libraries whose behaviour its
/// results depend on, as compiled in (assimp's as linked: it has no version macro).
std::string versionText() {
  return fmt::format("prmkit {}\nbuilt with OMPL {}.{}.{}, FCL {}, assimp {}.{}.{}\n", PRMKIT_VERSION,
                     OMPL_MAJOR_VERSION, OMPL_MINOR_VERSION, OMPL_PATCH_VERSION, FCL_VERSION, aiGetVersionMajor(),
                     aiGetVersionMinor(), aiGetVersionPatch());
}

}  // namespace
}  // namespace cli

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  using namespace cli;
  CLI::App app{"prmkit: PRM and lazy PRM motion planning with pluggable collision checkers", "prmkit"};
  app.require_subcommand(1);
  app.set_version_flag("--version", versionText, "print prmkit's version and the libraries' it was built with");
  const std::vector<Command> commands{planCommand(app, out, args), checkCommand(app, out),
                                      compareCommand(app, out),    sweepCommand(app, out),
                                      mergeCommand(app, out),      benchmarkSetCommand(app, out),
                                      experimentCommand(app, out), validateCommand(app, out),
                                      verifyCommand(app, out),     listCommand(app, out)};
  // A newcomer typing `prmkit` alone gets the usage, not a complaint.
  if (args.empty()) {
    out << app.help();
    return kOk;
  }
  const std::vector<std::string> names = subcommandNames(app);
  auto unknownCommand = [&](const std::string& typed) {
    std::vector<std::string> allowed = names;
    allowed.push_back("help");
    err << fmt::format("prmkit: {} (prmkit --help lists them)\n", unknownNameMessage("command", typed, allowed));
    return kBadInput;
  };
  // `prmkit help` and `prmkit help CMD`, as git and cargo take them.
  if (args[0] == "help") {
    if (args.size() == 1) {
      out << app.help();
      return kOk;
    }
    if (args.size() > 2) {
      err << "prmkit: help takes one command name\n";
      return kBadInput;
    }
    if (std::find(names.begin(), names.end(), args[1]) == names.end()) return unknownCommand(args[1]);
    out << app.get_subcommand(args[1])->help("prmkit");
    return kOk;
  }
  if (!args[0].empty() && args[0][0] != '-' && std::find(names.begin(), names.end(), args[0]) == names.end())
    return unknownCommand(args[0]);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForVersion& e) {
    out << e.what();
    return kOk;
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help();
    return kOk;
  } catch (const CLI::ExtrasError& e) {
    // An option the command does not have: name the closest one it has.
    std::string hint;
    if (std::find(names.begin(), names.end(), args[0]) != names.end()) {
      const CLI::App& sub = *app.get_subcommand(args[0]);
      const std::vector<std::string> options = longOptions(sub);
      for (const std::string& arg : args) {
        if (arg.rfind("--", 0) != 0) continue;
        const std::string typed = arg.substr(0, arg.find('='));
        if (std::find(options.begin(), options.end(), typed) != options.end()) continue;
        if (const std::string closest = closestName(typed, options); !closest.empty()) {
          hint = fmt::format(" (did you mean '{}'? prmkit help {} lists the options)", closest, args[0]);
          break;
        }
      }
    }
    err << fmt::format("prmkit: {}{}\n", e.what(), hint);
    return kBadInput;
  } catch (const CLI::ParseError& e) {
    err << fmt::format("prmkit: {}\n", e.what());
    return kBadInput;
  }
  try {
    for (const Command& command : commands)
      if (command.sub->parsed()) return command.run();
    throw std::logic_error("no subcommand ran");  // require_subcommand(1) makes the parser refuse this
  } catch (const InvalidInput& e) {
    err << fmt::format("prmkit: error: {}\n", e.what());
    return kBadInput;
  } catch (const std::invalid_argument& e) {
    // The libraries' constructors refuse settings and data this way.
    err << fmt::format("prmkit: error: {}\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    err << fmt::format("prmkit: internal error: {}\n", e.what());
    return kInternalError;
  }
}

}  // namespace prmkit
