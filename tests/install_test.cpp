// prmkit installed and used from a project outside it (tests/consumer):
// `cmake --install`, then find_package(prmkit) in a fresh CMake project that
// loads a shipped problem and checks an edge with the installed libraries.
#include "test_support.h"

#include <catch2/catch.hpp>

TEST_CASE("an installed prmkit serves a project outside it through find_package", "[install][slow]") {
  const prmkit::test::TempDir dir;
  const std::string cmake = PRMKIT_CMAKE_COMMAND;
  const auto prefix = dir.path / "prefix", build = dir.path / "consumer";
  const auto log = dir.path / "log.txt";
  auto step = [&](const std::vector<std::string>& args) {
    const auto [code, output] = prmkit::test::run(args, log, true);
    INFO(output);
    REQUIRE(code == 0);
    return output;
  };
  step({cmake, "--install", PRMKIT_BUILD_DIR, "--prefix", prefix.string()});
  step({cmake, "-S", (prmkit::test::sourceDir() / "tests" / "consumer").string(), "-B", build.string(),
        "-DCMAKE_PREFIX_PATH=" + prefix.string(), "-DCMAKE_BUILD_TYPE=Release"});
  step({cmake, "--build", build.string()});
  // maze2d's start and goal are valid and its walls stand between them.
  const std::string output = step({(build / "consumer").string(), prmkit::test::problemFile("maze2d").string()});
  CHECK(output == "start valid, goal valid, straight edge colliding\n");
}
