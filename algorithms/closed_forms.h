// The papers' closed forms, kept apart from the engine: printed beside the simulated time as a
// cross-check, never used in its place.
#pragma once

#include <cstdint>

namespace mmsim::closed_form {

/// KNI Lemma 1: a coalesced round of n threads on the global memory: n/w + L - 1.
constexpr std::int64_t coalesced_round(std::int64_t n, std::int64_t w, std::int64_t L) { return n / w + L - 1; }

/// KNI Table 1, D-designated: D_w(P) + 2n/w + 3L - 3 (S-designated: D_w(P^-1) in place of D_w(P)).
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

/// KNI Lemma 1, shared side: a conflict-free round in the HMM takes the busiest DMM's slots
/// plus l - 1 (the paper's l = 1 gives n/(kw)).
constexpr std::int64_t conflict_free_round(std::int64_t busiest_slots, std::int64_t l) { return busiest_slots + l - 1; }

/// KNI Table 1, transpose / shuffle / bit-reversal (Lemma 5): one coalesced read and write,
/// one conflict-free write and read: 2n/w + 2n/(kw) + 2L - 2 when l = 1. `tile_busiest` is
/// busiest_dmm_slots(n / w^2, w^2, w, k).
constexpr std::int64_t regular_permutation(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t l,
                                           std::int64_t tile_busiest) {
  return 2 * coalesced_round(n, w, L) + 2 * conflict_free_round(tile_busiest, l);
}

/// KNI Table 1, row-wise permutation (Lemma 7): 4 coalesced and 4 conflict-free rounds,
/// 4n/w + 4n/(kw) + 4L - 4 when l = 1. `row_busiest` is busiest_dmm_slots(sqrt(n), sqrt(n), w, k).
constexpr std::int64_t row_wise(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t l,
                                std::int64_t row_busiest) {
  return 4 * coalesced_round(n, w, L) + 4 * conflict_free_round(row_busiest, l);
}

/// KNI Table 1, column-wise permutation (Lemma 8): transpose, row-wise, transpose,
/// 8n/w + 8n/(kw) + 8L - 8 when l = 1 and k divides both grids.
constexpr std::int64_t column_wise(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t l,
                                   std::int64_t tile_busiest, std::int64_t row_busiest) {
  return 2 * regular_permutation(n, w, L, l, tile_busiest) + row_wise(n, w, L, l, row_busiest);
}

/// KNI Table 1, scheduled permutation (Theorem 9): row-wise, column-wise, row-wise,
/// 16n/w + 16n/(kw) + 16L - 16 when l = 1 and k divides both grids.
constexpr std::int64_t scheduled(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t l,
                                 std::int64_t tile_busiest, std::int64_t row_busiest) {
  return 2 * row_wise(n, w, L, l, row_busiest) + column_wise(n, w, L, l, tile_busiest, row_busiest);
}

}  // namespace mmsim::closed_form
