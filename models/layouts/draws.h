// Fast, seeded small random integers for the layouts' Monte Carlo experiments (papers/001 Sect. V).
#pragma once

#include <cstdint>

#include "sim/random.h"

namespace mmsim::layouts {

/// Uniform integers below a bound < 2^32, cut from the 64-bit outputs of the seeded Rng: Lemire's
/// multiply-and-reject on 16-bit pieces for bounds up to 2^10 (four pieces per output, rejection
/// below 1.6 %), on 32-bit pieces otherwise. Both are unbiased. The 16-bit pieces are made in blocks,
/// so that a draw costs a handful of instructions: layouts and patterns draw tens of millions of
/// small numbers per second. The sequence is fixed by the seed.
class Draws {
 public:
  explicit Draws(std::uint64_t seed) : rng_(seed) {}

  /// Uniform in [0, bound), 1 <= bound < 2^32.
  [[gnu::always_inline]] std::uint32_t below(std::uint32_t bound) {
    if (bound <= (1u << 10)) [[likely]] {
      if ((bound & (bound - 1)) == 0) return next16() & (bound - 1);  // a power of two: exact as it is
      while (true) {
        const std::uint32_t m = next16() * bound;
        const std::uint32_t low = m & 0xFFFFu;
        if (low >= bound || low >= (0x10000u - bound) % bound) [[likely]]
          return m >> 16;
      }
    }
    while (true) {
      const std::uint64_t m = (rng_.next() >> 32) * bound;
      const auto low = static_cast<std::uint32_t>(m);
      if (low >= bound || low >= (0u - bound) % bound) return static_cast<std::uint32_t>(m >> 32);
    }
  }

  /// 16 uniform random bits.
  [[gnu::always_inline]] std::uint32_t next16() {
    if (cur_ == piece_ + kBlock) [[unlikely]]
      refill();
    return *cur_++;
  }

 private:
  static constexpr int kBlock = 256;  // 16-bit pieces made at a time

  void refill() {
    for (int q = 0; q < kBlock / 4; ++q) {
      const std::uint64_t x = rng_.next();
      for (int s = 0; s < 4; ++s) piece_[4 * q + s] = static_cast<std::uint16_t>(x >> (16 * s));
    }
    cur_ = piece_;
  }

  Rng rng_;
  std::uint16_t piece_[kBlock] = {};
  // A pointer, not an index: stores through the callers' integer arrays cannot alias it, so the
  // compiler keeps it in a register across a hot loop.
  const std::uint16_t* cur_ = piece_ + kBlock;
};

}  // namespace mmsim::layouts
