// The folders are layers: each may include from itself and the folders
// below it, never from one above (docs/design.md). And a planner's or a
// sampler's name is spelled only by its own files and the registry, so that
// adding one touches nothing else.
#include "registry/planner_registry.h"
#include "sampling/sampler_registry.h"
#include "test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

using namespace prmkit;

namespace {

/// The library folders, lowest first.
const std::vector<std::string> kLayers{"base",     "shapes",   "scene",   "generators", "robots",  "geometry",
                                       "checkers", "parallel", "roadmap", "sampling",   "planner", "ompl",
                                       "registry", "io",       "setup",   "eval",       "app"};

/// Every C++ source of a folder (not its subfolders' generated files).
std::vector<std::filesystem::path> sources(const std::string& folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / folder)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("layers: no folder includes from a folder above it", "[registry]") {
  std::map<std::string, std::size_t> rank;
  for (std::size_t i = 0; i < kLayers.size(); ++i) rank[kLayers[i]] = i;
  const std::regex include(R"(#include\s+"([a-z_]+)/[^"]+")");
  std::size_t includes = 0;
  for (const std::string& folder : kLayers) {
    for (const auto& file : sources(folder)) {
      const std::string text = test::readText(file);
      for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) {
        const std::string target = (*it)[1].str();
        const auto found = rank.find(target);
        INFO(file.filename().string() << " in " << folder << " includes " << (*it)[0].str());
        REQUIRE(found != rank.end());
        REQUIRE(found->second <= rank[folder]);
        ++includes;
      }
    }
  }
  REQUIRE(includes > 300);
}

TEST_CASE("layers: the geometry, the robots and the checkers draw no OMPL in: its rooms start at roadmap/",
          "[registry]") {
  // OMPL's GNAT (roadmap/nearest_vertices), its samplers and state space
  // (sampling/) and its planners (ompl/); everything below draws with
  // prmkit's own random numbers (base/random.h).
  const std::regex include(R"(#include\s+<ompl/)");
  std::size_t scanned = 0;
  for (const std::string& folder : kLayers) {
    if (folder == "roadmap") break;
    for (const auto& file : sources(folder)) {
      const std::string text = test::readText(file);
      ++scanned;
      INFO(folder << "/" << file.filename().string());
      REQUIRE_FALSE(std::regex_search(text, include));
      REQUIRE(text.find("ompl::") == std::string::npos);
    }
  }
  REQUIRE(scanned > 60);
}

TEST_CASE("layers: planner and sampler names are spelled by their own files and the registry alone", "[registry]") {
  // The files that may spell them: each planner's and sampler's own, and the registries.
  const std::vector<std::string> own{"planner/planner.h",
                                     "planner/prm.h",
                                     "planner/prm.cpp",
                                     "planner/lazy_prm.h",
                                     "planner/lazy_prm.cpp",
                                     "planner/rrt_connect.h",
                                     "planner/rrt_connect.cpp",
                                     "ompl/ompl_planner.h",
                                     "ompl/ompl_planner.cpp",
                                     "ompl/ompl_named_planners.h",
                                     "ompl/ompl_named_planners.cpp",
                                     "registry/planner_registry.cpp",
                                     "sampling/sampler.h",
                                     "sampling/sampler.cpp",
                                     "sampling/sampler_registry.cpp",
                                     "sampling/medial_axis_sampler.h",
                                     "sampling/medial_axis_sampler.cpp",
                                     "sampling/retraction_sampler.h",
                                     "sampling/retraction_sampler.cpp"};
  std::vector<std::string> names = plannerNames();
  for (const std::string& name : samplerNames()) names.push_back(name);
  std::size_t scanned = 0;
  for (const std::string& folder : kLayers) {
    for (const auto& file : sources(folder)) {
      if (std::find(own.begin(), own.end(), folder + "/" + file.filename().string()) != own.end()) continue;
      const std::string text = test::readText(file);
      ++scanned;
      for (const std::string& name : names) {
        INFO(folder << "/" << file.filename().string() << " spells \"" << name << "\"");
        REQUIRE(text.find("\"" + name + "\"") == std::string::npos);
      }
    }
  }
  REQUIRE(scanned > 100);
}

TEST_CASE("layers: the files of the application, reader and evaluation folders stay under 400 lines", "[registry]") {
  // Past that, such a file holds more than one thing a reader looks for.
  std::size_t scanned = 0;
  for (const std::string folder : {"app", "io", "eval"}) {
    for (const auto& file : sources(folder)) {
      const std::string text = test::readText(file);
      INFO(folder << "/" << file.filename().string());
      CHECK(std::count(text.begin(), text.end(), '\n') <= 400);
      ++scanned;
    }
  }
  REQUIRE(scanned > 30);
}
