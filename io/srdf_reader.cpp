#include "io/srdf_reader.h"

#include "io/urdf_robot.h"

#include <fmt/format.h>
#include <tinyxml2.h>

#include <functional>
#include <set>

namespace prmkit {

namespace {

tinyxml2::XMLElement* srdfRobot(tinyxml2::XMLDocument& doc, const std::filesystem::path& srdf) {
  const std::string text = readRobotDescription(srdf, "SRDF");
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    throw RobotLoadError(
        fmt::format("cannot read SRDF '{}': {} (line {})", srdf.string(), doc.ErrorStr(), doc.ErrorLineNum()));
  auto* robot = doc.FirstChildElement("robot");
  if (!robot) throw RobotLoadError(fmt::format("SRDF '{}' has no <robot> element", srdf.string()));
  return robot;
}

std::string requiredAttribute(const tinyxml2::XMLElement& e, const char* name, const std::filesystem::path& srdf) {
  const char* value = e.Attribute(name);
  if (!value)
    throw RobotLoadError(
        fmt::format("{}:{}: <{}> needs the attribute '{}'", srdf.string(), e.GetLineNum(), e.Name(), name));
  return value;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> readSrdfDisabledPairs(const std::filesystem::path& srdf) {
  tinyxml2::XMLDocument doc;
  const auto* robot = srdfRobot(doc, srdf);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto* e = robot->FirstChildElement("disable_collisions"); e;
       e = e->NextSiblingElement("disable_collisions"))
    pairs.emplace_back(requiredAttribute(*e, "link1", srdf), requiredAttribute(*e, "link2", srdf));
  return pairs;
}

std::vector<std::string> readSrdfGroupJoints(
    const std::filesystem::path& srdf, const std::string& group,
    const std::map<std::string, std::pair<std::string, std::string>>& parentJoint) {
  tinyxml2::XMLDocument doc;
  const auto* robot = srdfRobot(doc, srdf);
  // Groups by name; MoveIt keeps one group per name, so a second is refused
  // rather than one of them silently ignored.
  std::map<std::string, const tinyxml2::XMLElement*> groups;
  for (auto* g = robot->FirstChildElement("group"); g; g = g->NextSiblingElement("group")) {
    const std::string n = requiredAttribute(*g, "name", srdf);
    if (const auto [it, added] = groups.emplace(n, g); !added)
      throw RobotLoadError(fmt::format("{}:{}: a second group named '{}' (the first is at line {})", srdf.string(),
                                       g->GetLineNum(), n, it->second->GetLineNum()));
  }
  auto parentOf = [&](const std::string& link) -> const std::pair<std::string, std::string>* {
    const auto it = parentJoint.find(link);
    return it == parentJoint.end() ? nullptr : &it->second;
  };
  // A group's joints, in the order the file lists them with subgroups in
  // place, each joint once. Each group is expanded once and remembered: a
  // group named by several others (a diamond, repeated at every level)
  // would otherwise be walked exponentially often. Depth first with an
  // explicit stack (no recursion on input).
  struct Expansion {
    std::vector<std::string> joints;
    std::set<std::string> added;
    void add(const std::string& joint) {
      if (added.insert(joint).second) joints.push_back(joint);
    }
  };
  struct Frame {
    std::string name;
    const tinyxml2::XMLElement* next;
    Expansion expansion;
  };
  std::map<std::string, std::vector<std::string>> expanded;
  std::size_t copied = 0;  // joint names copied from expanded subgroups, bounded
  std::vector<Frame> stack;
  std::set<std::string> onStack;
  auto enter = [&](const std::string& name, int line) {
    if (onStack.count(name))
      throw RobotLoadError(fmt::format("{}:{}: group '{}' contains itself", srdf.string(), line, name));
    const auto found = groups.find(name);
    if (found == groups.end())
      throw RobotLoadError(fmt::format("{}:{}: there is no group '{}'", srdf.string(), line, name));
    onStack.insert(name);
    stack.push_back(Frame{name, found->second->FirstChildElement(), {}});
  };
  const auto top = groups.find(group);
  if (top == groups.end()) throw RobotLoadError(fmt::format("SRDF '{}' has no group '{}'", srdf.string(), group));
  enter(group, top->second->GetLineNum());
  while (true) {
    const tinyxml2::XMLElement* e = stack.back().next;
    if (!e) {
      Frame done = std::move(stack.back());
      stack.pop_back();
      onStack.erase(done.name);
      if (stack.empty()) return std::move(done.expansion.joints);
      for (const auto& joint : done.expansion.joints) stack.back().expansion.add(joint);
      expanded.emplace(done.name, std::move(done.expansion.joints));
      continue;
    }
    Frame& frame = stack.back();
    frame.next = e->NextSiblingElement();
    const std::string kind = e->Name();
    auto requireLink = [&](const std::string& link) {
      if (!parentOf(link) && std::none_of(parentJoint.begin(), parentJoint.end(),
                                          [&](const auto& entry) { return entry.second.second == link; }))
        throw RobotLoadError(fmt::format("{}:{}: group '{}' names link '{}', which the URDF does not have",
                                         srdf.string(), e->GetLineNum(), frame.name, link));
    };
    if (kind == "chain") {
      const std::string base = requiredAttribute(*e, "base_link", srdf);
      const std::string tip = requiredAttribute(*e, "tip_link", srdf);
      requireLink(base);
      requireLink(tip);
      std::vector<std::string> chain;
      std::string link = tip;
      // The URDF's links form a tree (loadUrdfRobot refuses a loop), so the
      // walk up ends; the bound keeps it so for any map it is given.
      while (link != base) {
        const auto* parent = parentOf(link);
        if (!parent || chain.size() > parentJoint.size())
          throw RobotLoadError(fmt::format("{}:{}: chain of group '{}': '{}' is not below '{}'", srdf.string(),
                                           e->GetLineNum(), frame.name, tip, base));
        chain.push_back(parent->first);
        link = parent->second;
      }
      if (const auto* parent = parentOf(base)) chain.push_back(parent->first);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) frame.expansion.add(*it);
    } else if (kind == "joint") {
      frame.expansion.add(requiredAttribute(*e, "name", srdf));
    } else if (kind == "link") {
      const std::string link = requiredAttribute(*e, "name", srdf);
      requireLink(link);
      if (const auto* parent = parentOf(link)) frame.expansion.add(parent->first);
    } else if (kind == "group") {
      const std::string sub = requiredAttribute(*e, "name", srdf);
      if (const auto known = expanded.find(sub); known != expanded.end()) {
        copied += known->second.size();
        if (copied > kMaxSrdfGroupEntries)
          throw RobotLoadError(fmt::format("{}:{}: the groups below '{}' name more than {} joints in all",
                                           srdf.string(), e->GetLineNum(), group, kMaxSrdfGroupEntries));
        for (const auto& joint : known->second) frame.expansion.add(joint);
      } else {
        enter(sub, e->GetLineNum());
      }
    } else {
      throw RobotLoadError(fmt::format("{}:{}: group '{}' holds <{}>; expected chain, joint, link or group",
                                       srdf.string(), e->GetLineNum(), frame.name, kind));
    }
  }
}

}  // namespace prmkit
