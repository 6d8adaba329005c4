// Closed forms for the BMMC kernels on the HMM (KNI Table 1's regular row, BDS
// Sect. 4-5 read on the model): printed beside the simulated time, never used in its place.
#pragma once

#include <cstdint>

namespace mmsim::closed_form {

/// KNI Table 1, transpose/shuffle/bit-reversal: one coalesced global read and write and one
/// conflict-free shared write and read: 2n/w + 2 S + 2L - 2, with S the busiest DMM's slots
/// (busiest_dmm_slots(), = n/(kw) when k divides the blocks). The shared latency l adds l - 1 to
/// each shared round; the paper takes l = 1.
constexpr std::int64_t regular_pass(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t l,
                                    std::int64_t busiest) {
  return 2 * (n / w) + 2 * busiest + 2 * L - 2 + 2 * (l - 1);
}

/// A tiled pass in general (BDS Sect. 4.1-4.3 on the HMM): 2^iters repetitions of a
/// coalesced global round over n / 2^iters cells and a shared round, before and after the barrier.
/// `busiest` is the busiest DMM's share of one shared round (blocks over k); the shared read of
/// the tile costs `congestion` slots per warp (1 with the shifted rows, 2^(t - over) without).
constexpr std::int64_t tiled_pass(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t l, std::int64_t busiest,
                                  std::int64_t congestion, int iters) {
  const std::int64_t reps = std::int64_t{1} << iters;
  const std::int64_t global = 2 * ((n / reps) / w + L - 1);
  const std::int64_t shared = (busiest + l - 1) + (busiest * congestion + l - 1);
  return reps * (global + shared);
}

/// The naive kernel: a coalesced read, then a write of D_w(P) slots (KNI Sect. 4's
/// D-designated algorithm without the index array): n/w + D_w(P) + 2L - 2.
constexpr std::int64_t naive_pass(std::int64_t n, std::int64_t w, std::int64_t L, std::int64_t distribution) {
  return n / w + distribution + 2 * L - 2;
}

/// A copy b[i] <- a[i]: two coalesced rounds, 2n/w + 2L - 2 (the yardstick of BDS Sect. 6).
constexpr std::int64_t copy(std::int64_t n, std::int64_t w, std::int64_t L) { return 2 * (n / w) + 2 * L - 2; }

}  // namespace mmsim::closed_form
