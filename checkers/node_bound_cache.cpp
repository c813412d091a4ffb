#include "checkers/node_bound_cache.h"

#include <algorithm>
#include <iterator>

namespace prmkit {

namespace {

/// A total order on bounds of one pair at one node: the higher lower bound,
/// then the lower upper bound, then the other fields, so that merging bounds
/// learnt in parallel does not depend on the order they arrived in.
bool betterBound(const DistanceBound& a, const DistanceBound& b) {
  const auto fields = [](const DistanceBound& d) {
    return std::tuple(d.lower, -d.upper, d.direction_gap, d.closest_a, d.closest_b, d.support_a, d.support_b,
                      d.direction.x(), d.direction.y(), d.direction.z(), d.convex_contact);
  };
  return fields(a) > fields(b);
}

}  // namespace

NodeBoundCache NodeBoundCache::sharingRounds() const {
  NodeBoundCache cache(capacity_);
  cache.rounds_ = rounds_;
  return cache;
}

const NodeBoundCache::Bounds* NodeBoundCache::find(const std::string& key) const {
  const Nodes& nodes = rounds_ ? rounds_->settled : nodes_;
  const auto found = nodes.find(key);
  return found == nodes.end() ? nullptr : &found->second;
}

void NodeBoundCache::keep(std::vector<std::pair<std::string, Bounds>> nodes) {
  if (rounds_) {
    std::vector<std::tuple<std::string, std::uint32_t, DistanceBound>> learnt;
    for (const auto& [key, bounds] : nodes)
      for (const auto& [pair, bound] : bounds) learnt.emplace_back(key, pair, bound);
    std::lock_guard lock(rounds_->mutex);
    rounds_->learnt.insert(rounds_->learnt.end(), std::make_move_iterator(learnt.begin()),
                           std::make_move_iterator(learnt.end()));
    return;
  }
  if (nodes_.size() + nodes.size() > capacity_) nodes_.clear();
  for (auto& [key, bounds] : nodes)
    if (!bounds.empty()) nodes_[std::move(key)] = std::move(bounds);
}

void NodeBoundCache::startRounds() {
  if (rounds_) return;
  rounds_ = std::make_shared<Shared>();
  rounds_->settled = std::move(nodes_);
  nodes_.clear();
}

void NodeBoundCache::endRound() {
  if (!rounds_) return;
  auto& learnt = rounds_->learnt;
  Nodes& settled = rounds_->settled;
  // By node and pair, the best bound first.
  std::sort(learnt.begin(), learnt.end(), [](const auto& x, const auto& y) {
    if (std::get<0>(x) != std::get<0>(y)) return std::get<0>(x) < std::get<0>(y);
    if (std::get<1>(x) != std::get<1>(y)) return std::get<1>(x) < std::get<1>(y);
    return betterBound(std::get<2>(x), std::get<2>(y));
  });
  std::size_t newNodes = 0;
  for (std::size_t i = 0; i < learnt.size(); ++i)
    if ((i == 0 || std::get<0>(learnt[i]) != std::get<0>(learnt[i - 1])) && !settled.contains(std::get<0>(learnt[i])))
      ++newNodes;
  if (settled.size() + newNodes > capacity_) settled.clear();
  for (std::size_t i = 0; i < learnt.size(); ++i) {
    auto& [key, pair, bound] = learnt[i];
    if (i > 0 && std::get<0>(learnt[i - 1]) == key && std::get<1>(learnt[i - 1]) == pair) continue;
    auto& kept = settled[key];
    const auto known = std::find_if(kept.begin(), kept.end(),
                                    [&, pairIndex = pair](const auto& entry) { return entry.first == pairIndex; });
    if (known == kept.end())
      kept.emplace_back(pair, bound);
    else if (betterBound(bound, known->second))
      known->second = bound;
  }
  learnt.clear();
}

void NodeBoundCache::stopRounds() {
  if (!rounds_) return;
  endRound();
  nodes_ = std::move(rounds_->settled);
  rounds_.reset();
}

}  // namespace prmkit
