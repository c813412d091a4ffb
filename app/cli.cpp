#include "app/cli.h"

#include "app/outputs.h"
#include "app/problem.h"
#include "app/verify.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace prmkit {

namespace {

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kBadInput = 2;

std::string describeChecker(const CheckerSettings& s) {
  const auto& d = s.discrete;
  const char* order = d.order == DiscreteSettings::Order::Bisection ? "bisection" : "sequential";
  if (d.space == DiscreteSettings::Space::CSpace) return fmt::format("{} ({}% of the C-space extent, {})", s.type, 100 * d.resolution, order);
  return fmt::format("{} (eps {} m in workspace, {})", s.type, d.eps, order);
}

int plan(const std::string& file, LoadOptions options, const std::string& outDir, std::ostream& out) {
  Problem problem = loadProblem(file, options);
  auto checker = makeChecker(problem.checker, problem.robot, problem.scene);
  auto planner = makePlanner(problem.planner);
  out << fmt::format("problem {} ({}, {} dof): planner {}, checker {}, seed {}\n", problem.name, problem.robot->kind(),
                     problem.robot->dof(), problem.planner.type, describeChecker(problem.checker), problem.planner.seed);
  const PlanResult result = planner->solve(*checker, problem.start, problem.goal);
  const auto& c = result.check_stats;
  if (result.solved)
    out << fmt::format("solved in {:.3f} s: {} waypoints, path length {:.4g} (C-space units)\n", result.time_s,
                       result.path.size(), result.path_length);
  else
    out << fmt::format("not solved ({}) after {:.3f} s\n", result.status, result.time_s);
  out << fmt::format(
      "roadmap {} vertices, {} edges; checker: {} static queries, {} edges checked, {} BV tests, {} triangle tests, "
      "{:.3f} s\n",
      result.roadmap_vertices, result.roadmap_edges, c.static_queries, c.edges_checked, c.bv_tests, c.primitive_tests, c.time_s);
  OutputFiles files(outDir);
  if (result.solved)
    files.add("path.csv", pathCsv(*problem.robot, result.path));
  else
    files.remove("path.csv");
  files.add("stats.json", statsJson(problem, checker->name(), result));
  files.add("scene.svg", sceneSvg(problem, result));
  for (const auto& written : files.commit()) out << fmt::format("wrote {}\n", written.string());
  return result.solved ? kOk : kFailed;
}

}  // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"prmkit: PRM and lazy PRM motion planning with pluggable collision checkers"};
  app.require_subcommand(1);
  std::vector<std::string> overrides;
  std::string problemFile, outDir = "out", pathFile, planner, checker;
  long seed = -1;
  double timeLimit = 0, eps = 0;
  auto addProblemOptions = [&](CLI::App* sub) {
    sub->add_option("problem", problemFile, "problem YAML file")->required();
    sub->add_option("--set", overrides, "override a value of the problem file: key.path=value (repeatable)");
  };
  auto* planCmd = app.add_subcommand("plan", "plan a problem and write path.csv, stats.json, scene.svg");
  addProblemOptions(planCmd);
  planCmd->add_option("--planner", planner, "prm, lazy_prm, prm_star, lazy_prm_star");
  planCmd->add_option("--checker", checker, "collision checker strategy (discrete)");
  planCmd->add_option("--seed", seed, "random seed")->check(CLI::NonNegativeNumber);
  planCmd->add_option("--time-limit", timeLimit, "time limit (s)");
  planCmd->add_option("--out", outDir, "output folder (default: out)");
  auto* validateCmd = app.add_subcommand("validate", "load and check a problem without planning");
  addProblemOptions(validateCmd);
  auto* verifyCmd = app.add_subcommand("verify", "dense check of a path file; exit 0 if collision-free, 1 if not");
  addProblemOptions(verifyCmd);
  verifyCmd->add_option("path", pathFile, "path CSV written by plan")->required();
  verifyCmd->add_option("--eps", eps, "largest motion of any robot point between checks (m); default 1e-3 of the scene size");

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help();
    return kOk;
  } catch (const CLI::ParseError& e) {
    err << fmt::format("prmkit: {}\n", e.what());
    return kBadInput;
  }
  try {
    LoadOptions options;
    options.overrides = overrides;
    if (planCmd->parsed()) {
      if (!planner.empty()) options.overrides.push_back("planner.type=" + planner);
      if (!checker.empty()) options.overrides.push_back("checker.type=" + checker);
      if (seed >= 0) options.overrides.push_back(fmt::format("seed={}", seed));
      if (planCmd->count("--time-limit")) options.overrides.push_back(fmt::format("limits.time={}", timeLimit));
      return plan(problemFile, options, outDir, out);
    }
    if (validateCmd->parsed()) {
      const Problem problem = loadProblem(problemFile, options);
      out << fmt::format("{}: valid ({}, {} dof, {} links, {} obstacles with {} triangles)\n", problemFile,
                         problem.robot->kind(), problem.robot->dof(), problem.robot->links().size(),
                         problem.scene->obstacles().size(), problem.scene->triangleCount());
      return kOk;
    }
    options.checkEndpoints = false;
    const Problem problem = loadProblem(problemFile, options);
    if (verifyCmd->count("--eps") && !(eps > 0 && std::isfinite(eps))) throw InputError("--eps must be a positive number of metres");
    const double usedEps = verifyCmd->count("--eps") ? eps : defaultVerifyEps(problem);
    const auto path = readPathCsv(pathFile, *problem.robot);
    const VerifyResult verdict = verifyPath(problem, path, usedEps);
    if (verdict.valid) {
      out << fmt::format("{}: collision-free ({} waypoints, eps {:.3g} m)\n", pathFile, path.size(), usedEps);
      return kOk;
    }
    out << fmt::format("{}: INVALID: {} (eps {:.3g} m)\n", pathFile, verdict.message, usedEps);
    return kFailed;
  } catch (const InputError& e) {
    err << fmt::format("prmkit: error: {}\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    err << fmt::format("prmkit: error: {}\n", e.what());
    return kBadInput;
  }
}

}  // namespace prmkit
