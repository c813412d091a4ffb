#include "app/cli.h"
#include "parallel/overrun_watchdog.h"

#include <iostream>

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // `plan` runs one planner in this process: one of OMPL's that ignores its
  // time limit ends the process 5 s past it (exit 2), not minutes later.
  if (!args.empty() && args[0] == "plan") prmkit::OverrunWatchdog::stopProcessOnOverrun(5.0);
  return prmkit::runCli(args, std::cout, std::cerr);
}
