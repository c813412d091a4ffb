#include "io/viewer_page.h"

#include "io/scene_svg.h"
#include "io/viewer_assets.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace prmkit {

namespace {
using Json = nlohmann::ordered_json;

/// Floats: the page draws, it does not check, and 7 digits keep a Panda page small.
Json matrixJson(const Transform& pose) {
  Json m = Json::array();
  const Eigen::Matrix4d matrix = pose.matrix();
  for (int i = 0; i < 16; ++i) m.push_back(static_cast<float>(matrix.data()[i]));
  return m;
}

void addMesh(const Mesh& mesh, Json& into) {
  Json vertices = Json::array(), triangles = Json::array();
  for (const auto& v : mesh.vertices)
    for (int k = 0; k < 3; ++k) vertices.push_back(static_cast<float>(v[k]));
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) triangles.push_back(t[k]);
  into["vertices"] = std::move(vertices);
  into["triangles"] = std::move(triangles);
}

/// Every link's pose at q, one column-major 4x4 matrix after the other.
Json posesJson(const Robot& robot, const Config& q) {
  std::vector<Transform> poses;
  robot.linkPoses(q, poses);
  Json out = Json::array();
  for (const auto& pose : poses)
    for (const auto& number : matrixJson(pose)) out.push_back(number);
  return out;
}

Json configJson(const Config& q) {
  Json out = Json::array();
  for (Eigen::Index i = 0; i < q.size(); ++i) out.push_back(q[i]);
  return out;
}

Json pointJson(const Eigen::Vector3d& p) { return Json::array({p.x(), p.y(), p.z()}); }

/// An obstacle as the checks see it: a primitive checked natively is drawn
/// as that primitive, anything else as the mesh the checks use.
Json obstacleJson(const Obstacle& o) {
  Json j;
  j["name"] = o.name;
  j["pose"] = matrixJson(o.pose);
  const Primitive* primitive = o.primitive ? &*o.primitive : nullptr;
  if (primitive && primitive->kind == PrimitiveKind::Box) {
    j["kind"] = "box";
    j["size"] = pointJson(2.0 * primitive->half_extents);
  } else if (o.checkedPrimitive() && primitive->kind == PrimitiveKind::Sphere) {
    j["kind"] = "sphere";
    j["radius"] = primitive->radius;
  } else if (o.checkedPrimitive() && primitive->kind == PrimitiveKind::Cylinder) {
    j["kind"] = "cylinder";  // along its frame's z axis
    j["radius"] = primitive->radius;
    j["length"] = 2.0 * primitive->half_length;
  } else {
    j["kind"] = "mesh";
    addMesh(o.mesh, j);
  }
  return j;
}

Json roadmapJson(const Robot& robot, const PlanResult& result) {
  Json j;
  Json points = Json::array();
  for (const auto& q : result.roadmap_configs)
    for (const double c : referencePoint(robot, q)) points.push_back(static_cast<float>(c));
  j["points"] = std::move(points);
  const auto& all = result.roadmap_edge_list;
  const std::size_t stride = std::max<std::size_t>(1, (all.size() + kViewerRoadmapEdges - 1) / kViewerRoadmapEdges);
  Json edges = Json::array();
  for (std::size_t i = 0; i < all.size(); i += stride) {
    const auto& [a, b, state] = all[i];
    edges.push_back(a);
    edges.push_back(b);
    edges.push_back(edgeStateName(state));
  }
  j["edges"] = std::move(edges);
  std::string note;
  if (result.roadmap_configs.empty() && result.roadmap_vertices > 0)
    note = fmt::format("roadmap not drawn: {} vertices, more than the {} kept for pictures", result.roadmap_vertices,
                       kPictureRoadmapVertices);
  else if (stride > 1)
    note =
        fmt::format("one roadmap edge in {} drawn ({} of {})", stride, (all.size() + stride - 1) / stride, all.size());
  j["note"] = note;
  return j;
}

Json legendJson(const Problem& problem, const std::string& checkerName, const PlanResult& result) {
  const CheckStats& c = result.check_stats;
  Json rows = Json::array();
  auto row = [&](const std::string& label, const std::string& value) { rows.push_back(Json::array({label, value})); };
  row("problem", problem.name);
  row("robot", fmt::format("{} ({} degrees of freedom, {} links)", problem.robot->kind(), problem.robot->dof(),
                           problem.robot->links().size()));
  row("scene", fmt::format("{} obstacles", problem.scene->obstacles().size()));
  row("planner", fmt::format("{}, seed {}", problem.planner.type, problem.planner.seed));
  row("checker", checkerName);
  row("status", std::string(toString(result.status)));
  row("planning time", fmt::format("{:.3f} s (checker {:.3f} s)", result.time_s, c.time_s));
  row("roadmap", fmt::format("{} vertices, {} edges", result.roadmap_vertices, result.roadmap_edges));
  if (result.solved)
    row("path", fmt::format("{} waypoints, length {:.4g} (C-space metric)", result.path.size(), result.path_length));
  row("edges checked", fmt::format("{} edges, {} static queries", c.edges_checked, c.static_queries));
  if (c.distance_queries > 0)
    row("exact checks", fmt::format("{} distance queries, {} bisection steps", c.distance_queries,
                                    c.strategy.value("bisection_steps")));
  row("edges found colliding", fmt::format("{} edges", result.planner_stats.edges_colliding));
  return rows;
}
}  // namespace

namespace {
/// What every page draws: bounds, obstacles, links, start and goal; the
/// path's frames and reference points; an empty roadmap and no witnesses.
Json sceneData(const Problem& problem, const std::vector<Config>& path) {
  const Robot& robot = *problem.robot;
  Json data;
  data["format"] = "prmkit viewer 1";
  data["planar"] = robot.planar();
  Eigen::AlignedBox3d box = problem.scene->bounds();
  std::vector<Transform> poses;
  for (const Config* q : {&problem.start, &problem.goal}) {
    robot.linkPoses(*q, poses);
    for (std::size_t i = 0; i < poses.size(); ++i) box.extend(robot.links()[i].mesh.transformed(poses[i]).bounds());
  }
  data["bounds"] = {{"min", pointJson(box.min())}, {"max", pointJson(box.max())}};
  data["legend"] = Json::array();
  Json obstacles = Json::array();
  for (const auto& o : problem.scene->obstacles()) obstacles.push_back(obstacleJson(o));
  data["obstacles"] = std::move(obstacles);
  Json links = Json::array();
  for (const auto& link : robot.links()) {
    Json j;
    j["name"] = link.name;
    addMesh(link.mesh, j);
    links.push_back(std::move(j));
  }
  data["links"] = std::move(links);
  data["start"] = posesJson(robot, problem.start);
  data["goal"] = posesJson(robot, problem.goal);
  Json frames = Json::array();
  for (const Config& q : evenlySpacedOnPath(robot, path, kViewerFrames))
    frames.push_back(Json{{"config", configJson(q)}, {"poses", posesJson(robot, q)}});
  data["frames"] = std::move(frames);
  Json points = Json::array();
  for (const Config& q : path) points.push_back(pointJson(referencePoint(robot, q)));
  data["path"] = std::move(points);
  data["roadmap"] =
      Json{{"points", Json::array()}, {"edges", Json::array()}, {"colliding", Json::array()}, {"note", ""}};
  data["witnesses"] = Json::array();
  data["witnesses_found"] = 0;
  return data;
}
}  // namespace

nlohmann::ordered_json viewerData(const Problem& problem, const std::string& checkerName, const PlanResult& result) {
  const Robot& robot = *problem.robot;
  Json data = sceneData(problem, result.solved ? result.path : std::vector<Config>{});
  data["legend"] = legendJson(problem, checkerName, result);
  data["roadmap"] = roadmapJson(robot, result);
  // Colliding edges were removed from the roadmap: drawn from their own
  // ends, with kViewerWitnesses of the configurations where they collide,
  // spread evenly over the run (the first ones all come from its start).
  Json witnesses = Json::array(), collidingEdges = Json::array();
  const auto& colliding = result.colliding_edges;
  const std::size_t shown = std::min(colliding.size(), kViewerWitnesses);
  std::size_t next = 0;  // the k-th witness shown is edge k * size / shown
  for (std::size_t i = 0; i < colliding.size(); ++i) {
    for (const Config* q : {&colliding[i].a, &colliding[i].b})
      for (const double c : referencePoint(robot, *q)) collidingEdges.push_back(static_cast<float>(c));
    if (next < shown && i == next * colliding.size() / shown) {
      if (colliding[i].witness.size() > 0) witnesses.push_back(posesJson(robot, colliding[i].witness));
      ++next;
    }
  }
  data["roadmap"]["colliding"] = std::move(collidingEdges);
  data["witnesses"] = std::move(witnesses);
  data["witnesses_found"] = result.planner_stats.edges_colliding;
  return data;
}

nlohmann::ordered_json pathViewerData(const Problem& problem, const std::vector<Config>& path,
                                      std::vector<std::array<std::string, 2>> legend,
                                      const std::optional<Config>& collision) {
  Json data = sceneData(problem, path);
  for (const auto& [label, value] : legend) data["legend"].push_back(Json::array({label, value}));
  if (collision) data["collision"] = posesJson(*problem.robot, *collision);
  return data;
}

std::string viewerPage(const nlohmann::ordered_json& data) {
  // '<' only occurs inside JSON strings, where \u003c means the same, so no
  // name from the input can close the script element.
  std::string json = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string safe;
  safe.reserve(json.size());
  for (const char ch : json) {
    if (ch == '<')
      safe += "\\u003c";
    else
      safe += ch;
  }
  std::string page(viewer_assets::kPage);
  auto fill = [&](std::string_view marker, std::string_view content) {
    const auto at = page.find(marker);
    if (at == std::string::npos) throw std::logic_error(fmt::format("viewer page template has no {}", marker));
    page.replace(at, marker.size(), content);
  };
  fill("/*@THREE@*/", viewer_assets::kThree);
  fill("/*@ORBIT_CONTROLS@*/", viewer_assets::kOrbitControls);
  fill("/*@VIEWER@*/", viewer_assets::kViewer);
  fill("/*@DATA@*/", safe);
  return page;
}

}  // namespace prmkit
