// The papers' closed forms, kept apart from the engine: printed beside the simulated time as a
// cross-check, never used in its place.
#pragma once

#include <cstdint>

namespace mmsim::closed_form {

/// papers/000 Lemma 1: a coalesced round of n threads on the global memory: n/w + L - 1.
constexpr std::int64_t coalesced_round(std::int64_t n, std::int64_t w, std::int64_t L) { return n / w + L - 1; }

/// papers/000 Table 1, D-designated: D_w(P) + 2n/w + 3L - 3 (S-designated: D_w(P^-1) in place of D_w(P)).
constexpr std::int64_t conventional(std::int64_t distribution, std::int64_t n, std::int64_t w, std::int64_t L) {
  return distribution + 2 * (n / w) + 3 * L - 3;
}

/// Slots of the busiest DMM in a conflict-free shared round: blocks of `threads_per_block` threads go
/// to DMM (b mod k). Equals the paper's n/(kw) when k divides the number of blocks; otherwise the
/// paper's term is read as the busiest DMM's share (ceil(blocks / k) blocks).
constexpr std::int64_t busiest_dmm_slots(std::int64_t blocks, std::int64_t threads_per_block, std::int64_t w,
                                         std::int64_t k) {
  return (blocks + k - 1) / k * (threads_per_block / w);
}

}  // namespace mmsim::closed_form
