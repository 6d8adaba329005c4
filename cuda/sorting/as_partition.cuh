// AS Sect. 2's w-way partition as device code for one warp, a port of the simulator's version
// (algorithms/sorting/blocks.cpp's row_radix_sort, lemma2.cpp and partition.cpp) that makes the same
// warp accesses in the same order, as as_sort.cuh does for the sort: radix-sorted rows (AS
// Corollary 1), AS Lemma 2 for w > m where its assumption on m holds, and the sort's pieces
// otherwise. Theorem 4's finish (as_permute.cuh) reuses the radix rows and Lemma 2. Include from
// kernels.cu only.
#pragma once

#include <cstdint>

#include "algorithms/sorting/balancing_core.h"
#include "cuda/sorting/as_sort.cuh"

namespace mmsim::gpu::sorting::as_sort {

// Each lane sorts its own row by keys below `range` with LSD radix sort in base min(range, m)
// (rounded up to a power of two, at least 2): counting sort per digit, the counters in the lane's
// own row of region aux, so every access is in the lane's bank. Descending rows complement the digit.
// Not inlined: the sorts call it from many places, and inlining every call makes the kernels huge
// (minutes of ptxas) for no change in the accesses.
struct RadixRows {
  std::uint32_t range;
  __device__ __noinline__ void operator()(Work& k, bool desc) const {
    if (k.m < 2) return;  // a row of one cell is sorted (and leaves no room for two counters)
    std::uint32_t base = 2;
    while (base < min(range, k.m)) base *= 2;
    const std::uint32_t bits = floor_log2(base);
    std::uint32_t key_bits = 0;
    while ((std::uint64_t{1} << key_bits) < range) ++key_bits;
    const auto digit = [&](std::uint32_t x, std::uint32_t shift) {
      const std::uint32_t d = (x >> shift) & (base - 1);
      return desc ? base - 1 - d : d;
    };
    for (std::uint32_t shift = 0; shift < max(key_bits, 1u); shift += bits) {
      for (std::uint32_t b = 0; b < base; ++b) smem[k.at(k.aux, k.r, b)] = 0;
      for (std::uint32_t col = 0; col < k.m; ++col) {  // count
        const std::uint32_t a = k.at(k.aux, k.r, digit(smem[k.at(k.cur, k.r, col)], shift));
        const std::uint32_t c = smem[a];
        smem[a] = c + 1;
      }
      std::uint32_t sum = 0;  // exclusive prefix sums
      for (std::uint32_t b = 0; b < base; ++b) {
        const std::uint32_t c = smem[k.at(k.aux, k.r, b)];
        smem[k.at(k.aux, k.r, b)] = sum;
        sum += c;
      }
      for (std::uint32_t col = 0; col < k.m; ++col) {  // place, stable
        const std::uint32_t x = smem[k.at(k.cur, k.r, col)];
        const std::uint32_t a = k.at(k.aux, k.r, digit(x, shift));
        const std::uint32_t c = smem[a];
        smem[k.at(k.tmp, k.r, c)] = x;
        smem[a] = c + 1;
      }
      k.swap();
    }
    __syncwarp();
  }
};

// Lemma 2's arithmetic (lemma2.cpp): balancing rounds ceil(log_m h), the sub-problem size after
// convert and divide, the dirty rows it leaves, and whether they fit in half an m x m square.
__host__ __device__ inline std::uint32_t lemma2_rounds(std::uint32_t h, std::uint32_t m) {
  std::uint32_t rounds = 0;
  for (std::uint64_t s = 1; s < h; s *= m) ++rounds;
  return rounds;
}
__host__ __device__ inline std::uint32_t lemma2_divide_size(std::uint32_t h, std::uint32_t m) {
  std::uint32_t P = 1;
  while (P < lemma2_rounds(h, m)) P *= 2;
  return h / m * P;
}
__host__ __device__ inline std::uint32_t lemma2_dirty_bound(std::uint32_t h, std::uint32_t m) {
  std::uint32_t dirty = 1;  // the recursion of lemma2.cpp, unrolled: one factor per level
  while (h > m) {
    const std::uint32_t s = lemma2_divide_size(h, m);
    if (s >= h) return 0;
    const std::uint32_t D = lemma2_rounds(h, m) * (h / m);
    dirty *= D == 0 ? 0 : (D - 1 + s - 1) / s + 1;
    h = s;
  }
  return dirty;
}
__host__ __device__ inline bool lemma2_applies(std::uint32_t h, std::uint32_t m) {
  if (h <= m || m < 2) return false;
  const std::uint32_t d = lemma2_dirty_bound(h, m);
  return d != 0 && d <= m / 2;
}

// Lane r moves its row to row dest(r) of tmp, adding delta(r): 2m steps, conflict-free since dest
// is a bijection.
template <class Dest, class Delta>
__device__ inline void move_rows(Work& k, Dest dest, Delta delta) {
  const std::uint32_t to = dest(k.r);
  const std::int32_t add = delta(k.r);
  for (std::uint32_t c = 0; c < k.m; ++c) {
    const std::uint32_t v = smem[k.at(k.cur, k.r, c)];
    smem[k.at(k.tmp, to, c)] = static_cast<std::uint32_t>(static_cast<std::int32_t>(v) + add);
  }
  k.swap();
  __syncwarp();
}

__device__ inline std::int32_t no_delta(std::uint32_t) { return 0; }

__device__ inline void sort_base_blocks(Work& k, std::uint32_t h, RadixRows rows) {
  if (h == k.m)
    theorem1(k, false, rows);
  else
    sort_blocks(k, h, rows);
}

// Balancing inside every block of h rows (lemma2.cpp's balancing).
__device__ inline void lemma2_balancing(Work& k, std::uint32_t h, RadixRows rows) {
  const std::uint32_t m = k.m;
  for (std::uint32_t s = 1; s < h; s *= m) {
    const std::uint32_t g = min(m, h / s);
    const auto gather = [g, s](std::uint32_t r) { return mmsim::sorting::core::balancing_gather(r, g, s); };
    const auto scatter = [g, s](std::uint32_t r) { return mmsim::sorting::core::balancing_scatter(r, g, s); };
    if (s > 1) move_rows(k, gather, no_delta);
    sort_base_blocks(k, g, rows);
    if (g == m)
      transpose_tiles(k, m);
    else
      row_to_column_major(k, g);
    if (s > 1) move_rows(k, scatter, no_delta);
  }
}

// Balancing and convert-and-divide down to blocks of at most m rows (lemma2.cpp's partial_sort).
__device__ inline void lemma2_partial_sort(Work& k, std::uint32_t h, RadixRows rows) {
  while (h > k.m) {
    lemma2_balancing(k, h, rows);
    column_to_row_major(k, h);
    h = lemma2_divide_size(h, k.m);
  }
  sort_base_blocks(k, h, rows);
}

__device__ inline void lemma2_sort_blocks(Work& k, std::uint32_t h, std::uint32_t key_range);

// Columns sorted inside every block of h rows: by recursion where Lemma 2 applies to the column's
// blocks of h / m rows, by the bitonic network otherwise.
__device__ inline void lemma2_column_sort(Work& k, std::uint32_t h, std::uint32_t key_range) {
  const std::uint32_t sub = h / k.m;
  if (sub > k.m && !lemma2_applies(sub, k.m)) {
    column_bitonic_sort(k, h, false);
    return;
  }
  column_to_row_major(k, h);
  if (sub > k.m)
    lemma2_sort_blocks(k, sub, key_range);
  else
    sort_base_blocks(k, sub, RadixRows{key_range});
  row_to_column_major(k, h);
}

// AS Lemma 2 on every block of h rows: partial sort, column sort, the m x m squares by Theorem 1,
// then the squares shifted by m/2 rows (the wrapped half raised by key_range) and back.
__device__ inline void lemma2_sort_blocks(Work& k, std::uint32_t h, std::uint32_t key_range) {
  const std::uint32_t m = k.m, half = m / 2;
  const auto offset = static_cast<std::int32_t>(key_range);
  lemma2_partial_sort(k, h, RadixRows{key_range});
  lemma2_column_sort(k, h, key_range);
  theorem1(k, false, RadixRows{key_range});
  move_rows(
      k, [h, half](std::uint32_t r) { return r - r % h + (r % h + half) % h; },
      [h, half, offset](std::uint32_t r) { return r % h < half ? offset : 0; });
  theorem1(k, false, RadixRows{2 * key_range});
  move_rows(
      k, [h, half](std::uint32_t r) { return r - r % h + (r % h + h - half) % h; },
      [h, m, half, offset](std::uint32_t r) { return r % h >= half && r % h < m ? -offset : 0; });
}

// partition.cpp: Lemma 2 for w > m where it applies, otherwise the sort with radix-sorted rows
// (Corollary 1, Theorem 1, Theorem 2, the composition). The result is in k.cur.
__device__ inline void partition_matrix(Work& k) {
  if (kLanes > k.m && lemma2_applies(kLanes, k.m))
    lemma2_sort_blocks(k, kLanes, kLanes);
  else
    sort_matrix(k, RadixRows{kLanes});
}

}  // namespace mmsim::gpu::sorting::as_sort
