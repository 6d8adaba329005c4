#include "algorithms/layouts/congestion_mc.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <functional>

#include "algorithms/layouts/patterns.h"
#include "io/input_error.h"
#include "io/quote.h"
#include "models/bank_counter.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"
#include "sim/workers.h"

namespace mmsim::layouts {

namespace {

// One block of trials: draws from `seed`, adds each trial's congestion to histogram[0 .. w].
using BlockRunner = void (*)(const CongestionQuery& q, std::uint64_t seed, std::uint64_t trials,
                             std::uint64_t* histogram);

std::string names_2d() {
  std::string s;
  for (auto k : matrix_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(to_string(k));
  return s;
}
std::string names_4d() {
  std::string s;
  for (auto k : array4_layout_kinds()) s += (s.empty() ? "" : ", ") + std::string(to_string(k));
  return s;
}
std::string patterns_2d() {
  std::string s;
  for (auto p : matrix_patterns()) s += (s.empty() ? "" : ", ") + std::string(to_string(p));
  return s;
}
std::string patterns_4d() {
  std::string s;
  for (auto p : array4_patterns()) s += (s.empty() ? "" : ", ") + std::string(to_string(p));
  return s;
}

CongestionStats summarize(std::vector<std::uint64_t> histogram, double seconds) {
  CongestionStats s;
  s.seconds = seconds;
  double sum = 0, sq = 0;
  bool first = true;
  for (std::size_t c = 0; c < histogram.size(); ++c) {
    const auto n = histogram[c];
    if (n == 0) continue;
    if (first) s.min = static_cast<int>(c), first = false;
    s.max = static_cast<int>(c);
    s.trials += n;
    sum += static_cast<double>(n) * static_cast<double>(c);
    sq += static_cast<double>(n) * static_cast<double>(c) * static_cast<double>(c);
  }
  histogram.resize(static_cast<std::size_t>(s.max) + 1);
  s.histogram = std::move(histogram);
  const auto t = static_cast<double>(s.trials);
  s.mean = sum / t;
  if (s.trials > 1) {
    const double var = std::max(0.0, (sq - sum * sum / t) / (t - 1));
    s.stderr_mean = std::sqrt(var / t);
  }
  return s;
}

// One (layout, pattern) pair, compiled for it: the loop the speed goal is about. Every trial draws a
// fresh layout and a fresh access, independent of all other trials, but only the random numbers the
// access can see (NMI Sect. V's experiment, done lazily):
//  - ras and rap are fixed by the row shifts r_0 .. r_{w-1}; raw, pad and xor draw nothing;
//  - contiguous reads row x only, so only r_x matters. It is uniform in [0, w) under ras by
//    definition and under rap because each entry of a uniformly random permutation is uniform, so one
//    uniform draw stands for the whole layout;
//  - stride and diagonal read every row and random most rows, so all w shifts are drawn: w
//    independent uniform numbers for ras, a full uniformly random permutation for rap (Shuffler);
//  - random names w independent uniform cells; equal cells merge into one request (NMI
//    Sect. II). Every layout maps cells one-to-one to addresses, so "same address" is "same cell",
//    which is checked on the cell's index i w + j.
// draw_matrix_cells<P> (patterns.h) is the same access, written out for readers; tests/layouts checks
// this loop against a plain Monte Carlo that draws every layout in full. Pow2: w is a power of two, so that every draw
// below w (or w^2) is a bit field of a 64-bit word and every "mod w" a mask.
template <MatrixLayoutKind K, MatrixPattern P, bool Pow2>
void run_2d_as(const CongestionQuery& q, std::uint64_t seed, std::uint64_t trials, std::uint64_t* histogram) {
  constexpr bool kShifted = K == MatrixLayoutKind::Ras || K == MatrixLayoutKind::Rap;
  const std::uint32_t w = q.w;
  const auto lg = static_cast<unsigned>(std::countr_zero(w));
  FastDraws draws(seed);
  auto uniform = [&](std::uint32_t* out, std::uint32_t n) {  // out[0 .. n) uniform in [0, w)
    if constexpr (Pow2) {
      draws.fill_bits(out, n, lg);
    } else {
      for (std::uint32_t k = 0; k < n; ++k) out[k] = draws.below(w);
    }
  };
  const Shuffler shuffler(K == MatrixLayoutKind::Rap ? w : 1);
  // shift[0 .. w) = r_i (left 0 for raw, pad and xor), shift[w] = the access's row, column or offset.
  // The hot loop works on raw pointers, which the compiler keeps in registers.
  std::vector<std::uint32_t> shift_store(w + 1, 0), count_store(w, 0);
  std::uint32_t* const shift = shift_store.data();
  std::uint32_t* const count = count_store.data();
  auto draw_shifts_and_x = [&]() -> std::uint32_t {
    if constexpr (K == MatrixLayoutKind::Ras) {
      uniform(shift, w + 1);
    } else {
      if constexpr (K == MatrixLayoutKind::Rap) shuffler.shuffle(draws, shift);
      uniform(shift + w, 1);
    }
    return shift[w];
  };
  // Merging equal cells of a random access: a generation-stamped table over the w^2 cells for
  // w <= 256 (at most 256 KiB); beyond, BankCounter's per-bank chains keyed by the cell index.
  const bool stamped = w <= 256;
  std::vector<std::uint32_t> seen_store(P == MatrixPattern::Random && stamped ? std::size_t{w} * w : 0, 0);
  std::uint32_t* const seen = seen_store.data();
  std::uint32_t gen = 0;
  BankCounter chains(P == MatrixPattern::Random && !stamped ? w : 1);
  for (std::uint64_t trial = 0; trial < trials; ++trial) {
    std::fill(count, count + w, 0);
    std::uint32_t worst = 0;
    auto add = [&](std::uint32_t bank) { worst = std::max(worst, ++count[bank]); };
    if constexpr (P == MatrixPattern::Contiguous) {
      std::uint32_t xr[2] = {0, 0};  // the row x and, for ras and rap, its shift r_x
      uniform(xr, kShifted ? 2 : 1);
      for (std::uint32_t t = 0; t < w; ++t) add(MatrixLayout::bank_of<K, Pow2>(xr[0], t, w, xr[1]));
    } else if constexpr (P == MatrixPattern::Stride) {
      const std::uint32_t x = draw_shifts_and_x();
      for (std::uint32_t t = 0; t < w; ++t) add(MatrixLayout::bank_of<K, Pow2>(t, x, w, shift[t]));
    } else if constexpr (P == MatrixPattern::Diagonal) {
      const std::uint32_t x = draw_shifts_and_x();
      for (std::uint32_t t = 0; t < w; ++t) {
        add(MatrixLayout::bank_of<K, Pow2>(t, MatrixLayout::wrap<Pow2>(x + t, w), w, shift[t]));
      }
    } else {
      if constexpr (kShifted) draw_shifts_and_x();  // the random access needs no x
      if (stamped) {
        if (++gen == 0) {
          std::fill(seen_store.begin(), seen_store.end(), 0);
          gen = 1;
        }
        // A cell named before in this access merges with it: only a first naming is a request.
        auto add_new = [&](std::uint32_t i, std::uint32_t j, std::uint32_t key) {
          if (seen[key] == gen) return;
          seen[key] = gen;
          add(MatrixLayout::bank_of<K, Pow2>(i, j, w, shift[i]));
        };
        if constexpr (Pow2) {
          // Each cell takes 2 lg bits of a word: j the lower lg, i the upper lg, so that the field
          // itself is the cell index i w + j; i and j are independent and uniform in [0, w).
          const std::uint32_t per_word = 64 / (2 * lg), m = w - 1, key_mask = w * w - 1;
          for (std::uint32_t t = 0; t < w;) {
            std::uint64_t x = draws.word();
            for (const std::uint32_t stop = std::min(w, t + per_word); t < stop; ++t) {
              const auto key = static_cast<std::uint32_t>(x) & key_mask;
              const auto j = static_cast<std::uint32_t>(x) & m;
              x >>= lg;
              const auto i = static_cast<std::uint32_t>(x) & m;
              x >>= lg;
              add_new(i, j, key);
            }
          }
        } else {
          for (std::uint32_t t = 0; t < w; ++t) {
            const std::uint32_t i = draws.below(w), j = draws.below(w);
            add_new(i, j, i * w + j);
          }
        }
      } else {
        chains.start();
        for (std::uint32_t t = 0; t < w; ++t) {
          const std::uint32_t i = Pow2 ? draws.below_pow2(w) : draws.below(w);
          const std::uint32_t j = Pow2 ? draws.below_pow2(w) : draws.below(w);
          const std::uint32_t bank = MatrixLayout::bank_of<K, Pow2>(i, j, w, shift[i]);
          worst = std::max(worst, chains.add_unique(bank, std::uint64_t{i} * w + j, t));
        }
      }
    }
    ++histogram[worst];
  }
}

template <MatrixLayoutKind K, MatrixPattern P>
BlockRunner run_2d_pattern(const CongestionQuery& q) {
  const bool pow2 = (q.w & (q.w - 1)) == 0;
  return pow2 ? run_2d_as<K, P, true> : run_2d_as<K, P, false>;
}

template <MatrixLayoutKind K>
BlockRunner run_2d_layout(const CongestionQuery& q, MatrixPattern p) {
  switch (p) {
    case MatrixPattern::Contiguous:
      return run_2d_pattern<K, MatrixPattern::Contiguous>(q);
    case MatrixPattern::Stride:
      return run_2d_pattern<K, MatrixPattern::Stride>(q);
    case MatrixPattern::Diagonal:
      return run_2d_pattern<K, MatrixPattern::Diagonal>(q);
    case MatrixPattern::Random:
      break;
  }
  return run_2d_pattern<K, MatrixPattern::Random>(q);
}

BlockRunner run_2d(const CongestionQuery& q) {
  const auto p = *matrix_pattern_from_name(q.pattern);
  switch (*matrix_layout_from_name(q.layout)) {
    case MatrixLayoutKind::Raw:
      return run_2d_layout<MatrixLayoutKind::Raw>(q, p);
    case MatrixLayoutKind::Ras:
      return run_2d_layout<MatrixLayoutKind::Ras>(q, p);
    case MatrixLayoutKind::Rap:
      return run_2d_layout<MatrixLayoutKind::Rap>(q, p);
    case MatrixLayoutKind::Pad:
      return run_2d_layout<MatrixLayoutKind::Pad>(q, p);
    case MatrixLayoutKind::Xor:
      break;
  }
  return run_2d_layout<MatrixLayoutKind::Xor>(q, p);
}

void run_4d(const CongestionQuery& q, std::uint64_t seed, std::uint64_t trials, std::uint64_t* histogram) {
  const auto kind = *array4_layout_from_name(q.layout);
  const auto pattern = *array4_pattern_from_name(q.pattern);
  const std::uint32_t w = q.w;
  Draws draws(seed);
  Array4Layout layout(kind, w);
  std::vector<Cell4> cells(w);
  std::vector<std::uint32_t> scratch(w), banks(w);
  std::vector<Address> addrs(w);
  BankCounter counter(w);
  const bool distinct = !may_repeat(pattern);
  for (std::uint64_t trial = 0; trial < trials; ++trial) {
    layout.redraw();
    draw_array4_pattern(pattern, kind, w, draws, cells.data(), scratch.data());
    for (std::uint32_t t = 0; t < w; ++t) {
      const Cell4& c = cells[t];
      banks[t] = layout.bank(c.i, c.j, c.k, c.l, draws);
      if (!distinct) addrs[t] = layout.address(c.i, c.j, c.k, c.l, draws);
    }
    ++histogram[static_cast<std::size_t>(counter.congestion(banks.data(), addrs.data(), w, distinct))];
  }
}

// Block b of the trials draws from its own stream. Block 0 keeps the seed itself, so a run of at most
// kBlockTrials trials draws what the single stream drew before the trials were split; the others
// scramble (seed, b) with splitmix64's finaliser, so that no two blocks start from related states.
std::uint64_t block_seed(std::uint64_t seed, std::uint64_t block) {
  if (block == 0) return seed;
  std::uint64_t z = seed + block * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Runs the blocks on `threads` workers. Each worker adds into a histogram of its own; the sums are
// integers, so the merged histogram is the same whichever worker ran which block.
CongestionStats run_blocks(const CongestionQuery& q, BlockRunner run_block) {
  const std::uint64_t blocks = (q.trials + kBlockTrials - 1) / kBlockTrials;
  const auto threads = static_cast<unsigned>(std::min<std::uint64_t>(resolve_threads(q.threads), blocks));
  std::vector<std::vector<std::uint64_t>> per_worker(threads, std::vector<std::uint64_t>(q.w + 1, 0));
  auto block = [&](std::size_t b, unsigned worker) {
    const std::uint64_t first = b * kBlockTrials;
    run_block(q, block_seed(q.seed, b), std::min(kBlockTrials, q.trials - first), per_worker[worker].data());
  };
  const auto t0 = std::chrono::steady_clock::now();
  if (threads == 1) {
    for (std::uint64_t b = 0; b < blocks; ++b) block(b, 0);
  } else {
    WorkerPool pool(threads);
    pool.run(blocks, std::function<void(std::size_t, unsigned)>(block));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (unsigned t = 1; t < threads; ++t)
    for (std::size_t c = 0; c <= q.w; ++c) per_worker[0][c] += per_worker[t][c];
  auto s = summarize(std::move(per_worker[0]), seconds);
  s.threads = threads;
  return s;
}

}  // namespace

void CongestionQuery::validate() const {
  if (dims != 2 && dims != 4) throw InputError("--dims: must be 2 (w x w matrix) or 4 (w^4 array)");
  if (dims == 2) {
    if (!matrix_layout_from_name(layout))
      throw InputError("--layout: unknown " + quote(layout) + " for --dims 2 (one of " + names_2d() + ")");
    if (!matrix_pattern_from_name(pattern))
      throw InputError("--pattern: unknown " + quote(pattern) + " for --dims 2 (one of " + patterns_2d() + ")");
    if (w < 2 || w > 65536) throw InputError("-w: must be between 2 and 65536");
  } else {
    if (!array4_layout_from_name(layout))
      throw InputError("--layout: unknown " + quote(layout) + " for --dims 4 (one of " + names_4d() + ")");
    if (!array4_pattern_from_name(pattern))
      throw InputError("--pattern: unknown " + quote(pattern) + " for --dims 4 (one of " + patterns_4d() + ")");
    if (w < 2 || w > 4096) throw InputError("-w: must be between 2 and 4096 for --dims 4");
  }
  if (trials < 1) throw InputError("--trials: must be >= 1");
  if (threads > 1024) throw InputError("--threads: must be in [1, 1024] (0: every core)");
  const std::uint64_t cap = dims == 2 ? kMaxWork2 : kMaxWork4;
  if (trials > cap / w)
    throw InputError("--trials: trials x w must stay below " + std::to_string(cap) + " (at most " +
                     std::to_string(cap / w) + " trials for w = " + std::to_string(w) + ")");
}

CongestionStats simulate_congestion(const CongestionQuery& q) {
  q.validate();
  return run_blocks(q, q.dims == 2 ? run_2d(q) : run_4d);
}

}  // namespace mmsim::layouts
