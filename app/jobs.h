#pragma once
// What the subcommands that run one job do once their options are read:
// each prints its summary to `out`, writes its files all or nothing, and
// returns the exit code.
#include "io/problem.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace prmkit {

constexpr int kOk = 0;
constexpr int kFailed = 1;  // no solution within the limits, or the path collides
constexpr int kBadInput = 2;
constexpr int kInternalError = 3;  // not the input's fault: a bug, memory, a file that cannot be written

/// What `plan` does with roadmaps besides planning the problem's query.
struct RoadmapOptions {
  std::string queries_file;       // start/goal pairs planned in turn on one roadmap, instead of the problem's
  std::string roadmap_file;       // a roadmap file the first query plans on
  std::string save_roadmap_file;  // where the roadmap goes after the last query
};

/// `prmkit plan`: path.csv, path.txt, stats.json, scene.svg, scene.html in
/// `outDir` (with queries: queries.csv instead of the path files).
/// `commandLine` (the arguments after the program's name) goes into stats.json.
int plan(const std::string& file, LoadOptions options, const std::string& outDir, std::ostream& out,
         const std::vector<std::string>& commandLine = {}, const RoadmapOptions& roadmaps = {});

struct CheckOptions {
  std::string edgesFile;
  std::string configsFile;  // static checks of these configurations instead of edges
  std::size_t randomCount = 0;
  double maxLength = 0.0;
  double maxLengthFraction = 0.0;
  double truthEps = 0.0;
  double independentResolution = 0.0;
  std::size_t jobs = 1;
  std::string outFile;
};

/// `prmkit check`: verdicts of given or random edges, against the ground truths asked for; or of given
/// configurations (--configs), against the exact check on the meshes.
int check(const std::string& file, const LoadOptions& options, std::uint32_t seed, const CheckOptions& o,
          std::ostream& out);

struct VerifyOptions {
  std::string path_file;
  std::string html_file;                         // empty: no viewer page
  std::optional<double> eps;                     // m; none: defaultVerifyEps
  std::optional<double> independent_resolution;  // fraction of the extent; none: no independent check
  bool collisions_only = false;                  // the endpoints are reported, not judged
  std::optional<double> endpoint_tolerance;      // m; none: eps (verifyPath)
};

/// `prmkit verify`: kOk when the path is collision-free, kFailed when not.
int verify(const std::string& file, const LoadOptions& options, const VerifyOptions& o, std::ostream& out);

}  // namespace prmkit
