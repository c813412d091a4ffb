#pragma once
// Path files, written and read: prmkit's CSV (a header of coordinate names)
// and OMPL's text form (OMPL.app's `.path`), and the CSV reader the edge
// files share. Every configuration read is canonicalized
// (Robot::canonicalize), every error names file:line:column.
#include "robots/robot.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace prmkit {

/// Header = coordinate names, one configuration per row, full precision.
std::string pathCsv(const Robot& robot, const std::vector<Config>& path);
/// Several paths in one table (plan --queries): a header `query` and the
/// coordinate names, one row per waypoint, each path's rows under its query's
/// number (from 1); queries without a path have no rows.
std::string queriesCsv(const Robot& robot, const std::vector<std::vector<Config>>& paths);
/// Reads a CSV of numbers whose first line must be `header`; one row of
/// numbers per line, each passed through `canonicalize` (which throws
/// std::invalid_argument on a row it refuses). Throws InputError with
/// file:line:column; `what` names the file kind.
std::vector<Config> readConfigCsv(const std::filesystem::path& file, const std::vector<std::string>& header,
                                  const std::string& what, const std::function<void(Config&)>& canonicalize);
/// Reads a path file written by pathCsv, every waypoint canonicalized
/// (Robot::canonicalize); throws InputError with file:line:column.
std::vector<Config> readPathCsv(const std::filesystem::path& file, const Robot& robot);

/// The path as OMPL writes and OMPL.app reads it (PathGeometric::printAsMatrix):
/// one state per line, its coordinates separated by spaces (x y theta in 2D,
/// x y z qx qy qz qw in 3D, joint values for chains), full precision.
std::string pathText(const std::vector<Config>& path);
/// Reads such a file (blank lines skipped), every state canonicalized;
/// throws InputError with file:line:column (InputFileError for an unreadable file).
std::vector<Config> readPathText(const std::filesystem::path& file, const Robot& robot);
/// readPathText for `.path` and `.txt` files, readPathCsv for any other.
std::vector<Config> readPath(const std::filesystem::path& file, const Robot& robot);

}  // namespace prmkit
