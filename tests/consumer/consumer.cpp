// Loads a problem with an installed prmkit and checks its start, goal and the
// straight edge between them with the exact checker; prints what it found.
#include "registry/checker_registry.h"
#include "setup/build_problem.h"

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer PROBLEM.yaml\n";
    return 2;
  }
  const prmkit::Problem problem = prmkit::loadProblem(argv[1]);
  prmkit::CheckerSettings settings = problem.checker;
  settings.type = "adaptive";
  auto checker = prmkit::makeChecker(settings, problem.robot, problem.scene);
  const bool startValid = checker->isValid(problem.start);
  const bool goalValid = checker->isValid(problem.goal);
  const bool edgeFree = checker->checkEdge(problem.start, problem.goal).verdict == prmkit::Verdict::Free;
  std::cout << "start " << (startValid ? "valid" : "invalid") << ", goal " << (goalValid ? "valid" : "invalid")
            << ", straight edge " << (edgeFree ? "free" : "colliding") << "\n";
  return 0;
}
