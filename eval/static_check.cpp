#include "eval/static_check.h"

#include "io/path_files.h"
#include "geometry/collision_queries.h"

#include <fmt/format.h>

#include <algorithm>

namespace prmkit {

std::vector<Config> readConfigurationsCsv(const std::filesystem::path& file, const Robot& robot) {
  return readConfigCsv(file, robot.coordinateNames(), "configurations file", [&](Config& q) { robot.canonicalize(q); });
}

StaticCheckReport checkConfigurations(const std::shared_ptr<const Robot>& robot,
                                      const std::shared_ptr<const Scene>& scene, Checker& checker,
                                      const std::vector<Config>& configurations) {
  StaticCheckReport report;
  CollisionQueries meshes(robot, scene, Geometry::Mesh);
  CheckStats ignored;  // the exact check's work is not the checker's
  const CheckStats start = checker.stats();
  std::vector<double> times;
  times.reserve(configurations.size());
  for (const Config& q : configurations) {
    StaticVerdict verdict;
    const double before = checker.stats().time_s;
    verdict.valid = checker.isValid(q);
    verdict.time_s = checker.stats().time_s - before;
    verdict.mesh_valid = robot->inBounds(q) && !meshes.inCollision(q, ignored);
    ++(verdict.valid ? report.valid : report.invalid);
    if (verdict.valid && !verdict.mesh_valid) ++report.misses;
    if (!verdict.valid && verdict.mesh_valid) ++report.conservative;
    times.push_back(verdict.time_s);
    report.configurations.push_back(verdict);
  }
  report.stats = checker.stats() - start;
  report.median_time_s = median(std::move(times));
  return report;
}

std::string staticVerdictsCsv(const StaticCheckReport& report) {
  std::string out = "index,valid,mesh_valid,time_us\n";
  for (std::size_t i = 0; i < report.configurations.size(); ++i) {
    const StaticVerdict& v = report.configurations[i];
    out += fmt::format("{},{:d},{:d},{:.3f}\n", i, v.valid, v.mesh_valid, 1e6 * v.time_s);
  }
  return out;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  if (values.size() % 2 == 1) return values[middle];
  const double upper = values[middle];
  return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle)));
}

}  // namespace prmkit
