#pragma once
// Static checks of given configurations (`prmkit check --configs`): each
// checker's verdict and time per configuration beside the exact verdict on
// the meshes, so that an approximate strategy's misses are counted where its
// speed is measured.
#include "checkers/checker.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace prmkit {

struct StaticVerdict {
  bool valid = false;       // the checker's verdict
  bool mesh_valid = false;  // within the bounds and free on the collision meshes (FCL, exact)
  double time_s = 0.0;      // the checker's own time on it (its stats' time_s)
};

struct StaticCheckReport {
  std::vector<StaticVerdict> configurations;
  CheckStats stats;  // of the checker under test only
  std::size_t valid = 0, invalid = 0;
  std::size_t misses = 0;        // valid for the checker, colliding or out of bounds on the meshes
  std::size_t conservative = 0;  // invalid for the checker, valid on the meshes
  /// Median of the checker's time per configuration (s); 0 with none.
  double median_time_s = 0.0;
};

/// Reads a CSV of configurations: a header naming the robot's coordinates,
/// one configuration a row (as a path CSV); InputError with file:line:column.
std::vector<Config> readConfigurationsCsv(const std::filesystem::path& file, const Robot& robot);

/// Checks every configuration with checker.isValid, one after the other,
/// and each again exactly on the meshes.
StaticCheckReport checkConfigurations(const std::shared_ptr<const Robot>& robot,
                                      const std::shared_ptr<const Scene>& scene, Checker& checker,
                                      const std::vector<Config>& configurations);

/// One row per configuration: index, valid, mesh_valid, time_us.
std::string staticVerdictsCsv(const StaticCheckReport& report);

/// The median of `values` (0 for none); reorders them.
double median(std::vector<double> values);

}  // namespace prmkit
