#include "checkers/bisection_samples.h"

#include "checkers/path_probes.h"

#include <cstring>

namespace prmkit {

namespace {
/// A bisection sample is named by its segment and parameter (short enough
/// for the string's inline storage); a path node by its bytes (configKey),
/// whose length is a multiple of 8, so the two never collide.
std::string splitKey(std::uint32_t segment, double t) {
  std::string key(1 + sizeof segment + sizeof t, 's');
  std::memcpy(key.data() + 1, &segment, sizeof segment);
  std::memcpy(key.data() + 1 + sizeof segment, &t, sizeof t);
  return key;
}
}  // namespace

void BisectionSamples::startCheck() {
  count_ = 0;
  byKey_.clear();
}

std::uint32_t BisectionSamples::node(const Config& q) { return named(q, true, configKey(q)); }

std::uint32_t BisectionSamples::split(std::uint32_t segment, double t, const Config& q) {
  return named(q, false, splitKey(segment, t));
}

std::uint32_t BisectionSamples::named(const Config& q, bool node, std::string key) {
  if (const auto found = byKey_.find(key); found != byKey_.end()) return found->second;
  const std::uint32_t index = fresh(q);
  if (node)
    if (const NodeBoundCache::Bounds* cached = nodeBounds_.find(key)) {
      Sample& sample = samples_[index];
      for (const auto& [p, bound] : *cached) {
        sample.bounds[p] = bound;
        sample.from_cache[p] = true;
        sample.touched.push_back(p);
      }
    }
  byKey_.emplace(std::move(key), index);
  return index;
}

std::uint32_t BisectionSamples::fresh(const Config& q) {
  const auto index = static_cast<std::uint32_t>(count_++);
  if (index == samples_.size()) samples_.emplace_back();
  Sample& sample = samples_[index];
  sample.q = q;
  sample.poses.clear();
  sample.twists.clear();
  if (sample.bounds.size() != pairs_) {
    sample.bounds.assign(pairs_, DistanceBound{});
    sample.from_cache.assign(pairs_, false);
  } else {
    for (const std::uint32_t p : sample.touched) {
      sample.bounds[p] = DistanceBound{};
      sample.from_cache[p] = false;
    }
  }
  sample.touched.clear();
  return index;
}

void BisectionSamples::keepNodeBounds(const std::vector<std::uint32_t>& nodes) {
  std::vector<std::pair<std::string, NodeBoundCache::Bounds>> measured;
  measured.reserve(nodes.size());
  for (std::uint32_t index : nodes) {
    const Sample& sample = samples_[index];
    NodeBoundCache::Bounds bounds;
    for (const std::uint32_t p : sample.touched) bounds.emplace_back(p, sample.bounds[p]);
    measured.emplace_back(sample.touched.empty() ? std::string() : configKey(sample.q), std::move(bounds));
  }
  nodeBounds_.keep(std::move(measured));
}

}  // namespace prmkit
