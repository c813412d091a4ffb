#include "test_strategies.h"

#include "registry/planner_registry.h"
#include "sampling/sampler_registry.h"

#include <memory>

namespace prmkit::test {

namespace {
// Registered before main() runs, as a plug-in registers its strategies
// before it reads problems; no file outside tests/ names them.
const bool kRegistered = [] {
  PlannerCapabilities capabilities;    // prmkit's checker, prmkit's samplers, one thread
  capabilities.keeps_roadmap = false;  // its searches count the vertices from 2 (start and goal) on
  registerPlanner({std::string(SequentialPrm::kName), "the simplest PRM (tests only)", capabilities,
                   [](const PlannerSettings& settings, const PlannerCapabilities& declared) {
                     return std::make_unique<SequentialPrm>(settings, declared);
                   },
                   RegisteredSettings(std::string(SequentialPrmSettings::kSection), SequentialPrmSettings{})});
  registerSampler({std::string(NearPairSampler::kName), "a uniform sample, then one near it (tests only)", false, "",
                   [](SamplingContext& context) { return std::make_unique<NearPairSampler>(context); }});
  return true;
}();
}  // namespace

SequentialPrm::SequentialPrm(const PlannerSettings& settings, const PlannerCapabilities& capabilities)
    : Planner(settings, capabilities), own_(settings.section<SequentialPrmSettings>()) {
  validateFields(own_, "planner.sequential_prm");
}

std::optional<std::vector<Vertex>> SequentialPrm::search(Checker& checker, Roadmap& roadmap, const RoadmapQuery& query,
                                                         PlanResult& result) {
  const std::size_t dof = checker.robot().dof();
  while (const auto sample = sampleValid(result)) {
    const Vertex v = roadmap.addVertex(sample->q, sample->source);
    for (const Vertex n : roadmap.neighbours(v, neighbourCount(v + 1, dof), settings_.radius)) {
      ++result.planner_stats.edges_attempted;
      const EdgeResult edge = checker.checkEdge(roadmap.config(n), roadmap.config(v));
      if (const auto state = acceptEdge(edge, result)) {
        roadmap.addEdge(n, v, *state);
      } else {
        ++result.planner_stats.edges_colliding;
        recordCollidingEdge(checker.robot(), roadmap.config(n), roadmap.config(v), edge, result);
      }
    }
    if ((v - 1) % own_.search_every != 0) continue;  // v - 1 samples added (0 and 1 are start and goal)
    ++result.planner_stats.graph_searches;
    if (auto path = roadmap.shortestPath(query.start, query.goal)) return path;
  }
  return std::nullopt;  // sampleValid set the status (time or sample limit)
}

NearPairSampler::NearPairSampler(SamplingContext& context) : context_(context), random_(context.seed()) {}

void NearPairSampler::restart(std::uint32_t stream) { random_.reseed(context_.seed() ^ (stream * 2654435761u)); }

bool NearPairSampler::drawValid(Config& q) {
  ++context_.drawn();
  return context_.checker().isValid(q);
}

bool NearPairSampler::sample(Config& out, unsigned int attempts) {
  const Robot& robot = context_.checker().robot();
  for (unsigned int attempt = 0; attempt < attempts; ++attempt) {
    robot.sampleUniform(random_, first_);
    if (drawValid(first_)) {
      out = first_;
      return true;
    }
    robot.sampleUniform(random_, towards_);
    const double d = robot.distance(first_, towards_);
    robot.interpolate(first_, towards_, d > 0 ? std::min(1.0, context_.sigma() / d) : 0.0, out);
    if (drawValid(out)) return true;
  }
  return false;
}

}  // namespace prmkit::test
