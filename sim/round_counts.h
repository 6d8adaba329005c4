// How one warp access adds to its round's statistics, shared by both executions and by the chunks
// of a round that several threads run (engine internal).
#pragma once

#include <algorithm>

#include "sim/memory_model.h"
#include "sim/stats.h"

namespace mmsim::detail {

inline void add_cost(RoundStats& r, const WarpCost& c, int requests) {
  r.requests += static_cast<std::uint64_t>(requests);
  if (c.slots == 0) return;
  ++r.warps;
  r.slots += static_cast<std::uint64_t>(c.slots);
  r.max_congestion = std::max(r.max_congestion, c.congestion);
  if (r.memory == Space::Shared) {
    // Nsight Compute's count: the wavefronts beyond one per phase (docs/model.md).
    r.bank_conflicts += static_cast<std::uint64_t>(c.slots - c.phases);
    r.extra_bank_requests += static_cast<std::uint64_t>(c.extra_bank_requests);
  }
}

/// Adds the counters of `part` (a chunk of the round's warps) to `r`: sums and a maximum, so the
/// order of the chunks does not change the result.
inline void add_counts(RoundStats& r, const RoundStats& part) {
  r.requests += part.requests;
  r.warps += part.warps;
  r.slots += part.slots;
  r.max_congestion = std::max(r.max_congestion, part.max_congestion);
  r.bank_conflicts += part.bank_conflicts;
  r.extra_bank_requests += part.extra_bank_requests;
}

}  // namespace mmsim::detail
