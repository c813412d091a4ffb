#include "io/queries_file.h"

#include <fmt/format.h>

namespace prmkit {

std::vector<QuerySpec> readQuerySpecs(const std::filesystem::path& file) {
  const YamlReader in(file);
  const YAML::Node& root = in.root();
  in.requireMap(root, "queries file", {"queries"});
  const YAML::Node list = in.require(root, "queries", "queries file");
  if (!list.IsSequence() || list.size() == 0)
    in.fail(list, "expected 'queries' to be a non-empty list of {start: ..., goal: ...}");
  if (list.size() > kMaxQueries)
    in.fail(list, fmt::format("{} queries; at most {} are read from one file", list.size(), kMaxQueries));
  std::vector<QuerySpec> queries;
  queries.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node query = list[i];
    const std::string name = fmt::format("queries[{}]", i + 1);
    in.requireMap(query, name, {"start", "goal"});
    QuerySpec ends;
    ends.start = readEndpointSpec(in, in.require(query, "start", name), name + ".start");
    ends.goal = readEndpointSpec(in, in.require(query, "goal", name), name + ".goal");
    queries.push_back(std::move(ends));
  }
  return queries;
}

}  // namespace prmkit
