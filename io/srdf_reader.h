#pragma once
// MoveIt's SRDF, read with tinyxml2: the link pairs never checked, and the
// joints of a planning group.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace prmkit {

/// The disable_collisions pairs of an SRDF file.
std::vector<std::pair<std::string, std::string>> readSrdfDisabledPairs(const std::filesystem::path& srdf);

/// Most joint names the subgroups of one planning group may contribute in
/// all (each group is expanded once; this bounds copying its joints into
/// every group that names it).
inline constexpr std::size_t kMaxSrdfGroupEntries = 10'000'000;

/// Names of the joints of an SRDF planning group, as MoveIt defines them:
/// <chain> gives the parent joints of every link from base_link to tip_link
/// (tip included, base's parent joint included when the URDF has it),
/// <joint> a joint, <link> the link's parent joint, <group> a subgroup.
/// `parentJoint` maps a link to its parent joint and that joint's parent link.
std::vector<std::string> readSrdfGroupJoints(
    const std::filesystem::path& srdf, const std::string& group,
    const std::map<std::string, std::pair<std::string, std::string>>& parentJoint);

}  // namespace prmkit
