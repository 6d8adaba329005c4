// Fast, seeded small random integers for the layouts' Monte Carlo experiments (NMI Sect. V).
#pragma once

#include <cstdint>
#include <vector>

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

/// The random numbers of the matrix Monte Carlo (algorithms/layouts/congestion_mc), drawn with as few
/// instructions as unbiased draws allow: uniform integers below a power of two are bit fields of one
/// 64-bit word (w = 32 gives twelve 5-bit draws a word), other bounds use Lemire's multiply-and-reject
/// on a 32-bit field, and permutations come from Shuffler below.
/// The words are SplitMix64's (Steele, Lea and Flood; the generator that seeds xoshiro in sim/random.h):
/// word k = mix(s + k g), g = 0x9E3779B97F4A7C15, mix the MurmurHash3-style finalizer below, with the
/// start s = mix(seed). Its one 64-bit state (xoshiro256** keeps four) leaves the hot loops their
/// registers; it passes BigCrush, and mix is a bijection, so over its period of 2^64 every word comes
/// exactly once. A seed fixes every draw on every platform.
class FastDraws {
 public:
  explicit FastDraws(std::uint64_t seed) : state_(mix(seed)) {}

  /// A fresh uniform 64-bit word.
  std::uint64_t word() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix(state_);
  }

  /// Calls f(t, v) for t = 0 .. n-1 with v uniform in [0, 2^bits), 1 <= bits <= 32: v is one of the
  /// floor(64 / bits) disjoint bit fields of a word. Disjoint fields of a uniform word are independent
  /// and uniform; the bits left over at the top of a word are thrown away, which affects no other draw.
  template <typename F>
  [[gnu::always_inline]] void for_each_bits(std::uint32_t n, unsigned bits, F&& f) {
    const unsigned per_word = 64 / bits;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    for (std::uint32_t t = 0; t < n;) {
      std::uint64_t x = word();
      const std::uint32_t stop = n - t < per_word ? n : t + per_word;
      for (; t < stop; ++t, x >>= bits) f(t, static_cast<std::uint32_t>(x & mask));
    }
  }
  /// out[0 .. n) uniform in [0, 2^bits) (for_each_bits into an array).
  void fill_bits(std::uint32_t* out, std::uint32_t n, unsigned bits) {
    for_each_bits(n, bits, [out](std::uint32_t t, std::uint32_t v) { out[t] = v; });
  }

  /// Uniform in [0, bound) for a power of two bound <= 2^32: a field of a fresh 32-bit half-word.
  std::uint32_t below_pow2(std::uint64_t bound) { return static_cast<std::uint32_t>(next32() & (bound - 1)); }

  /// Uniform in [0, bound), 1 <= bound < 2^32, bound not known to be a power of two: Lemire's
  /// multiply-and-reject on a fresh 32-bit field (the 2^32 mod bound lowest products are rejected,
  /// which leaves every result exactly floor(2^32 / bound) fields).
  std::uint32_t below(std::uint32_t bound) {
    while (true) {
      const std::uint64_t m = static_cast<std::uint64_t>(next32()) * bound;
      const auto low = static_cast<std::uint32_t>(m);
      if (low >= bound || low >= (0u - bound) % bound) [[likely]]
        return static_cast<std::uint32_t>(m >> 32);
    }
  }

 private:
  std::uint32_t next32() {
    if (half_) {
      half_ = false;
      return static_cast<std::uint32_t>(spare_ >> 32);
    }
    spare_ = word();
    half_ = true;
    return static_cast<std::uint32_t>(spare_);
  }

  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::uint64_t state_;
  std::uint64_t spare_ = 0;  // the upper half of the last word, while half_
  bool half_ = false;
};

/// Uniformly random permutations of 0 .. n-1 by the inside-out Fisher-Yates shuffle: r_0 = 0 and, for
/// i = 1 .. n-1, c_i uniform in [0, i], r_i = r_{c_i}, r_{c_i} = i. The n - 1 choices are cut from
/// 64-bit words in batches (Brackett-Rozinsky and Lemire's batched ranged draws): for a batch of
/// bounds b_1 .. b_m with product P < 2^64, R = floor(x P / 2^64) of a uniform word x is uniform in
/// [0, P) once the 2^64 mod P words with the lowest x P mod 2^64 are rejected (Lemire's rule, applied
/// to P), and R's mixed-radix digits, read off by multiplying the low word by b_1, b_2, ... in turn,
/// are independent and uniform in [0, b_k). So each batch costs one word and one multiply a choice,
/// and the permutation is distributed exactly as with one rejection-free draw per choice.
class Shuffler {
  __extension__ typedef unsigned __int128 u128;

 public:
  explicit Shuffler(std::uint32_t n) : n_(n) {
    // Greedy batches of consecutive bounds; a batch stops before its rejection chance would pass
    // 2^-8 (bounds whose product is a power of two reject nothing).
    std::uint32_t i = 1;
    while (i < n) {
      Batch b{i, 1, 0};
      while (i < n) {
        const u128 p = static_cast<u128>(b.product) * (i + 1);
        if (p >> 64) break;
        const auto p64 = static_cast<std::uint64_t>(p);
        if ((0 - p64) % p64 > (std::uint64_t{1} << 56)) break;
        b.product = p64, b.threshold = (0 - p64) % p64, ++i;
      }
      b.end = i;
      batches_.push_back(b);
    }
  }

  std::uint32_t size() const { return n_; }

  /// r[0 .. n) = a fresh uniformly random permutation of 0 .. n-1 (whatever r held before). Not
  /// inlined: in a register-starved caller the batch's word would be spilled, and its store and reload
  /// would sit on the chain of multiplies that every choice waits for.
  void shuffle(FastDraws& draws, std::uint32_t* r) const {
    r[0] = 0;
    std::uint32_t i = 1;
    for (const Batch& b : batches_) {
      std::uint64_t x = draws.word();
      while (x * b.product < b.threshold) x = draws.word();  // x P mod 2^64 among the rejected
      for (const std::uint32_t end = b.end; i < end; ++i) {
        // The next digit, of base i + 1: one 64 x 64 -> 128-bit multiply. (The empty asm hides where
        // the bound comes from; else g++ makes i + 1 a 128-bit induction variable and multiplies
        // 128 x 128 bits.)
        std::uint64_t bound = i + 1;
        __asm__("" : "+r"(bound));
        const u128 m = static_cast<u128>(x) * bound;
        x = static_cast<std::uint64_t>(m);
        const auto c = static_cast<std::uint32_t>(m >> 64);  // c_i, uniform in [0, i]
        r[i] = r[c];
        r[c] = i;
      }
    }
  }

 private:
  struct Batch {
    std::uint32_t end;        // the batch chooses c_i for i below end (from the previous batch's end)
    std::uint64_t product;    // P = the product of its bounds i + 1
    std::uint64_t threshold;  // 2^64 mod P
  };
  std::uint32_t n_;
  std::vector<Batch> batches_;
};

}  // namespace mmsim::layouts
