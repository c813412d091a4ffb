#include "io/scene_svg.h"

#include "io/output_text.h"
#include "robots/kinematic_chain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <sstream>

namespace prmkit {

namespace {

struct View {
  int horizontal, vertical;  // world axes shown left-right and bottom-up
  const char* title;
};

class SvgCanvas {
 public:
  SvgCanvas(const Eigen::AlignedBox3d& box, const View& view, double offsetX, double size)
      : box_(box), view_(view), offsetX_(offsetX), size_(size) {
    const double w = box.max()[view.horizontal] - box.min()[view.horizontal];
    const double h = box.max()[view.vertical] - box.min()[view.vertical];
    scale_ = size / std::max(w, h);
  }
  std::string point(const Eigen::Vector3d& p) const {
    std::string out;
    appendPoint(out, p);
    return out;
  }
  void appendPoint(std::string& out, const Eigen::Vector3d& p) const {
    const double x = offsetX_ + (p[view_.horizontal] - box_.min()[view_.horizontal]) * scale_;
    const double y = 30 + size_ - (p[view_.vertical] - box_.min()[view_.vertical]) * scale_;
    fmt::format_to(std::back_inserter(out), "{:.2f},{:.2f}", x, y);
  }
  std::string triangles(const Mesh& mesh, const Transform& pose, const std::string& style) const {
    std::string out = fmt::format("<g style=\"{}\">", style);
    for (const auto& t : mesh.triangles)
      out += fmt::format("<polygon points=\"{} {} {}\"/>", point(pose * mesh.vertices[t[0]]),
                         point(pose * mesh.vertices[t[1]]), point(pose * mesh.vertices[t[2]]));
    return out + "</g>\n";
  }
  /// Each point as the view shows it ("x,y"), formatted once for all the
  /// segments that end at it.
  std::vector<std::string> formatted(const std::vector<Eigen::Vector3d>& points) const {
    std::vector<std::string> shown(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) appendPoint(shown[i], points[i]);
    return shown;
  }
  /// One <path> of straight segments between points formatted by
  /// `formatted`, pairs of indices into them: a roadmap of 10^5 edges as 10^5
  /// <line> elements, each with its style and both ends formatted again per
  /// edge, took longer to write than the planner took to build it.
  static std::string segments(const std::vector<std::string>& shown,
                              const std::vector<std::pair<std::size_t, std::size_t>>& pairs, const std::string& style,
                              const std::string& name) {
    std::string out = fmt::format("<path class=\"{}\" style=\"fill:none;{}\" d=\"", name, style);
    for (const auto& [a, b] : pairs) {
      out += 'M';
      out += shown[a];
      out += 'L';
      out += shown[b];
    }
    return out + "\"/>\n";
  }

 private:
  Eigen::AlignedBox3d box_;
  View view_;
  double offsetX_, size_, scale_;
};

}  // namespace

std::vector<Config> evenlySpacedOnPath(const Robot& robot, const std::vector<Config>& path, std::size_t count) {
  if (path.empty() || count == 0) return {};
  std::vector<double> cumulative{0.0};
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    cumulative.push_back(cumulative.back() + robot.distance(path[i], path[i + 1]));
  const double total = cumulative.back();
  if (!(total > 0.0) || count == 1 || path.size() == 1) return {path.front()};
  std::vector<Config> out;
  Config q;
  std::size_t i = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const double at = total * static_cast<double>(s) / static_cast<double>(count - 1);
    while (i + 2 < cumulative.size() && cumulative[i + 1] < at) ++i;
    const double span = cumulative[i + 1] - cumulative[i];
    robot.interpolate(path[i], path[i + 1], span > 0 ? std::clamp((at - cumulative[i]) / span, 0.0, 1.0) : 0.0, q);
    out.push_back(q);
  }
  return out;
}

Eigen::Vector3d referencePoint(const Robot& robot, const Config& q) {
  std::vector<Transform> poses;
  robot.linkPoses(q, poses);
  return poses.back().translation();
}

std::string sceneSvg(const Problem& problem, const PlanResult& result) {
  const Robot& robot = *problem.robot;
  Eigen::AlignedBox3d box = problem.scene->bounds();
  std::vector<Transform> poses;
  for (const Config* q : {&problem.start, &problem.goal}) {
    robot.linkPoses(*q, poses);
    for (std::size_t i = 0; i < poses.size(); ++i) box.extend(robot.links()[i].mesh.transformed(poses[i]).bounds());
  }
  if (robot.boundsArePositions()) {
    Eigen::Vector3d lo = box.min(), hi = box.max();
    lo.head(robot.bounds().lower.size()) = lo.head(robot.bounds().lower.size()).cwiseMin(robot.bounds().lower);
    hi.head(robot.bounds().upper.size()) = hi.head(robot.bounds().upper.size()).cwiseMax(robot.bounds().upper);
    box.extend(lo);
    box.extend(hi);
  }
  std::vector<View> views;
  if (robot.planar())
    views = {{0, 1, "top view (x right, y up)"}};
  else
    views = {{0, 1, "top view (x right, y up)"}, {0, 2, "front view (x right, z up)"}};
  const double size = 600, margin = 30;
  const double width = views.size() * (size + margin) + margin, height = size + 2 * margin + 20;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  // The path's intermediate poses: a bounded number so large meshes stay light.
  std::vector<Config> shown;
  if (result.solved) {
    const std::size_t poseCount = std::min<std::size_t>(
        40, std::max<std::size_t>(2, 4000 / std::max<std::size_t>(1, robot.links()[0].mesh.triangles.size())));
    shown = evenlySpacedOnPath(robot, result.path, poseCount);
    if (shown.size() >= 2) shown = std::vector<Config>(shown.begin() + 1, shown.end() - 1);
  }
  auto drawRobot = [&](const SvgCanvas& canvas, const Config& q, const std::string& style) {
    std::vector<Transform> linkPoses;
    robot.linkPoses(q, linkPoses);
    std::string out;
    for (std::size_t i = 0; i < linkPoses.size(); ++i)
      out += canvas.triangles(robot.links()[i].mesh, linkPoses[i], style);
    return out;
  };
  // The reference points once for every view (forward kinematics for an arm).
  std::vector<Eigen::Vector3d> roadmapPoints, pathPoints;
  roadmapPoints.reserve(result.roadmap_configs.size());
  for (const auto& q : result.roadmap_configs) roadmapPoints.push_back(referencePoint(robot, q));
  for (const auto& q : result.path) pathPoints.push_back(referencePoint(robot, q));
  std::vector<std::pair<std::size_t, std::size_t>> freeEdges, uncheckedEdges, pathSteps;
  for (const auto& [a, b, state] : result.roadmap_edge_list)
    (state == EdgeState::Free ? freeEdges : uncheckedEdges).emplace_back(a, b);
  for (std::size_t i = 0; i + 1 < pathPoints.size(); ++i) pathSteps.emplace_back(i, i + 1);
  for (std::size_t v = 0; v < views.size(); ++v) {
    const double offsetX = margin + v * (size + margin);
    SvgCanvas canvas(box, views[v], offsetX, size);
    svg += fmt::format("<text x=\"{}\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">{}: {}</text>\n", offsetX,
                       markupEscaped(problem.name), views[v].title);
    for (const auto& o : problem.scene->obstacles())
      svg += canvas.triangles(o.mesh, o.pose, "fill:#555;stroke:#555;stroke-width:0.3");
    // Unchecked edges first, below the edges known free.
    const std::vector<std::string> roadmapShown = canvas.formatted(roadmapPoints);
    if (!uncheckedEdges.empty())
      svg += SvgCanvas::segments(roadmapShown, uncheckedEdges, "stroke:#ddd;stroke-width:0.4", "roadmap-unchecked");
    if (!freeEdges.empty())
      svg += SvgCanvas::segments(roadmapShown, freeEdges, "stroke:#9ab;stroke-width:0.6", "roadmap-free");
    for (const auto& q : shown) svg += drawRobot(canvas, q, "fill:#36c;fill-opacity:0.12;stroke:none");
    if (!pathSteps.empty())
      svg += SvgCanvas::segments(canvas.formatted(pathPoints), pathSteps, "stroke:#c30;stroke-width:2", "path");
    svg += drawRobot(canvas, problem.start, "fill:#2a2;fill-opacity:0.7;stroke:none");
    svg += drawRobot(canvas, problem.goal, "fill:#d22;fill-opacity:0.7;stroke:none");
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"12\">start green, goal red, path orange "
      "({}), roadmap grey-blue: {} vertices, {} edges{}</text>\n</svg>\n",
      margin, height - 10, result.solved ? "solved" : "not solved", result.roadmap_vertices, result.roadmap_edges,
      result.roadmap_configs.empty() && result.roadmap_vertices > 0
          ? fmt::format(" (not drawn: more than {} vertices)", kPictureRoadmapVertices)
          : "");
  return svg;
}

}  // namespace prmkit
