#pragma once
// OMPL.app problem files: the [problem] section of a .cfg names a
// robot mesh and a world mesh (COLLADA, with node transforms and scale),
// start and goal (x, y, z and an axis-angle rotation theta about axis.x/y/z in
// 3D; x, y, theta in 2D) and the volume bounds. It is read into the same tree
// a prmkit problem YAML gives, so that every later check and every --set
// override works the same way.
#include "io/yaml_reader.h"

#include <filesystem>

namespace prmkit {

/// True for a file prmkit reads as an OMPL.app problem (extension .cfg).
bool isOmplAppConfig(const std::filesystem::path& file);

/// Reads the [problem] section; throws InputError with file:line on bad input.
YamlReader readOmplAppConfig(const std::filesystem::path& file);

}  // namespace prmkit
