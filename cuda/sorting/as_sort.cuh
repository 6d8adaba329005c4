// AS Sect. 2's conflict-free sort as device code for one warp, a port of the simulator's version
// (algorithms/sorting/blocks.cpp and sort.cpp) that makes the same warp accesses in the same order:
// lane r is processor r, its local state is in registers, and every access of the simulator's
// host driver is one shared-memory load or store here. The pieces take the row sort as a functor
// (MergeRows for keys; as_radix.cuh's RadixRows for the partition's and Theorem 4's small labels),
// as the simulator's RowSort. Include from kernels.cu only.
#pragma once

#include <cstdint>

// The block's dynamic shared memory, named here so that every access below is a shared-memory
// instruction (LDS/STS) even in a function the compiler does not inline: through a pointer passed
// to such a function it would be a generic load or store, which Nsight Compute's shared-memory
// counters do not see.
extern __shared__ std::uint32_t smem[];

namespace mmsim::gpu::sorting::as_sort {

constexpr unsigned kFull = 0xFFFFFFFFu;
constexpr std::uint32_t kLanes = 32;

// The data and two scratch regions of m columns each (column offsets); cell (row, col) of the
// region at c0 is word (c0 + col) * 32 + row, in bank `row`. Primitives that write `tmp` swap;
// `aux` holds the radix sort's counters (unused by the merge sort).
struct Work {
  std::uint32_t m, cur, tmp, aux;
  std::uint32_t r;  // this lane: processor r, row r
  __device__ std::uint32_t at(std::uint32_t c0, std::uint32_t row, std::uint32_t col) const {
    return (c0 + col) * kLanes + row;
  }
  __device__ void swap() {
    const std::uint32_t t = cur;
    cur = tmp;
    tmp = t;
  }
};

__device__ inline std::uint32_t floor_log2(std::uint32_t x) { return 31u - __clz(x); }
__device__ inline std::uint32_t blocks_touched(std::uint32_t D, std::uint32_t b) {
  return D == 0 ? 0 : (D - 1 + b - 1) / b + 1;
}
// Directions are one bool per lane (its row descending); these make them as sort.cpp does.
__device__ inline bool alternate(bool base, std::uint32_t r, std::uint32_t b) { return base != ((r / b) % 2 == 1); }
__device__ inline bool odd_block(std::uint32_t r, std::uint32_t b) { return (r / b) % 2 == 1; }

// Merges runs [lo, mid) and [mid, hi) of the lane's row of src into dst: 2 steps per output,
// ties to the left run; a lane whose run is exhausted skips the read (idle in that step).
__device__ inline void merge_runs(const Work& k, std::uint32_t src, std::uint32_t dst, std::uint32_t lo,
                                  std::uint32_t mid, std::uint32_t hi, bool desc) {
  std::uint32_t ha = smem[k.at(src, k.r, lo)], hb = 0;
  if (mid < hi) hb = smem[k.at(src, k.r, mid)];
  std::uint32_t pa = lo, pb = mid;
  for (std::uint32_t o = lo; o < hi; ++o) {
    const bool a_ok = pa < mid, b_ok = pb < hi;
    const bool b_first = desc ? hb > ha : hb < ha;
    const bool took_a = a_ok && (!b_ok || !b_first);
    smem[k.at(dst, k.r, o)] = took_a ? ha : hb;
    if (o + 1 == hi) break;
    if (took_a) {
      if (++pa < mid) ha = smem[k.at(src, k.r, pa)];
    } else {
      if (++pb < hi) hb = smem[k.at(src, k.r, pb)];
    }
  }
}

// Every row merge-sorted in its own direction; each lane only touches its own row (bank).
__device__ inline void row_merge_sort(Work& k, bool desc) {
  for (std::uint32_t width = 1; width < k.m; width *= 2) {
    for (std::uint32_t lo = 0; lo < k.m; lo += 2 * width)
      merge_runs(k, k.cur, k.tmp, lo, min(lo + width, k.m), min(lo + 2 * width, k.m), desc);
    k.swap();
  }
  __syncwarp();
}

struct MergeRows {
  __device__ void operator()(Work& k, bool desc) const { row_merge_sort(k, desc); }
};

// Blocks of h rows, row-major -> column-major and back, with the skewed schedules of blocks.cpp.
__device__ inline void row_to_column_major(Work& k, std::uint32_t h) {
  const std::uint32_t m = k.m, base = k.r / h * h, r = k.r % h;
  for (std::uint32_t t = 0; t < m; ++t) {
    const std::uint32_t c = h <= m ? t / h * h + (t % h + r) % h : (t + r / (h / m)) % m;
    const std::uint32_t x = r * m + c;
    const std::uint32_t v = smem[k.at(k.cur, k.r, c)];
    smem[k.at(k.tmp, base + x % h, x / h)] = v;
  }
  k.swap();
  __syncwarp();
}

__device__ inline void column_to_row_major(Work& k, std::uint32_t h) {
  const std::uint32_t m = k.m, base = k.r / h * h, i = k.r % h;
  for (std::uint32_t t = 0; t < m; ++t) {
    const std::uint32_t j = h <= m ? (t % h + i) % h * (m / h) + t / h : (t + i) % m;
    const std::uint32_t x = j * h + i;
    const std::uint32_t v = smem[k.at(k.cur, k.r, j)];
    smem[k.at(k.tmp, base + x / m, x % m)] = v;
  }
  k.swap();
  __syncwarp();
}

// Every q x q tile transposed; lane r takes column (t + r) mod q of its tile in step t.
__device__ inline void transpose_tiles(Work& k, std::uint32_t q) {
  const std::uint32_t base = k.r / q * q, r = k.r % q;
  for (std::uint32_t t = 0; t < k.m; ++t) {
    const std::uint32_t c0 = t / q * q, c = (t + r) % q;
    const std::uint32_t v = smem[k.at(k.cur, k.r, c0 + c)];
    smem[k.at(k.tmp, base + c, c0 + r)] = v;
  }
  k.swap();
  __syncwarp();
}

// Columns sorted inside blocks of b rows by the bitonic network across lanes: read own, read
// partner, (every lane has read) write own. A block is descending when its first row's is.
__device__ inline void column_bitonic_sort(const Work& k, std::uint32_t b, bool desc) {
  const bool block_desc = __shfl_sync(kFull, desc, k.r / b * b);
  const std::uint32_t rl = k.r % b;
  for (std::uint32_t size = 2; size <= b; size *= 2)
    for (std::uint32_t j = size / 2; j >= 1; j /= 2) {
      const bool up = ((rl & size) == 0) != block_desc, lower = (rl & j) == 0;
      for (std::uint32_t col = 0; col < k.m; ++col) {
        const std::uint32_t v = smem[k.at(k.cur, k.r, col)];
        const std::uint32_t u = smem[k.at(k.cur, k.r ^ j, col)];
        __syncwarp();  // the partner has read this cell before it is written
        smem[k.at(k.cur, k.r, col)] = (lower == up) ? min(v, u) : max(v, u);
      }
      __syncwarp();
    }
}

// AS Lemma 1 on every block of h rows (dir constant on blocks).
template <class Rows>
__device__ inline void lemma1(Work& k, std::uint32_t h, bool dir, Rows rows) {
  for (int rep = 0; rep < 2; ++rep) {
    rows(k, alternate(dir, k.r, 1));
    row_to_column_major(k, h);
    rows(k, dir);
    column_to_row_major(k, h);
  }
  rows(k, dir);
}

template <class Rows>
__device__ inline void square_column_sort(Work& k, bool dir, Rows rows) {
  transpose_tiles(k, k.m);
  rows(k, dir);
  transpose_tiles(k, k.m);
}

// AS Theorem 1 on every m x m block (w a multiple of m), dir constant on blocks.
template <class Rows>
__device__ inline void theorem1(Work& k, bool dir, Rows rows) {
  const std::uint32_t m = k.m, s = 1u << (floor_log2(m) / 2);
  lemma1(k, s, dir, rows);
  square_column_sort(k, dir, rows);
  std::uint32_t D = m / s;
  while (D > 1) {
    const std::uint32_t touched = blocks_touched(D, s);
    lemma1(k, s, alternate(dir, k.r, s), rows);
    square_column_sort(k, dir, rows);
    D = touched <= 2 ? 1 : touched;
  }
  rows(k, dir);
}

// sort.cpp's cleanup loop: blocks of b rows sorted in alternating order (by Theorem 1 on m x m
// blocks, or by Lemma 1 on blocks of b rows), then columns inside blocks of column_rows rows.
template <bool ByTheorem1, class Rows>
__device__ inline void cleanup(Work& k, std::uint32_t D, std::uint32_t b, std::uint32_t column_rows, Rows rows) {
  while (D > 1) {
    const std::uint32_t touched = blocks_touched(D, b);
    if constexpr (ByTheorem1)
      theorem1(k, odd_block(k.r, b), rows);
    else
      lemma1(k, b, odd_block(k.r, b), rows);
    column_bitonic_sort(k, column_rows, false);
    D = touched <= 2 ? 1 : touched;
  }
}

// sort.cpp's sort_blocks: every block of q < m rows sorted in row-major order (Lemma 1 when
// q^2 <= m, otherwise its first half and the cleanup by Lemma 1 on blocks of b rows).
template <class Rows>
__device__ inline void sort_blocks(Work& k, std::uint32_t q, Rows rows) {
  if (q <= 1) {
    rows(k, false);
    return;
  }
  if (q * q <= k.m) {
    lemma1(k, q, false, rows);
    return;
  }
  rows(k, false);
  row_to_column_major(k, q);
  rows(k, false);
  column_to_row_major(k, q);
  const std::uint32_t b = 1u << (floor_log2(k.m) / 2);
  cleanup<false>(k, blocks_touched(q, k.m / q), b, q, rows);
  rows(k, false);
}

// sort_matrix of sort.cpp for w = 32 lanes: whichever of Lemma 1, Theorem 1, Theorem 2 or the
// composition applies to the shape. The result is in region k.cur, row-major.
template <class Rows>
__device__ inline void sort_matrix(Work& k, Rows rows) {
  const std::uint32_t w = kLanes, m = k.m;
  if (w * w <= m) {
    lemma1(k, w, false, rows);
  } else if (w == m) {
    theorem1(k, false, rows);
  } else if (w > m) {
    rows(k, false);
    column_bitonic_sort(k, w, false);
    column_to_row_major(k, w);
    column_bitonic_sort(k, w, false);
    cleanup<true>(k, m, m, w, rows);
    rows(k, false);
  } else {  // sqrt(m) < w < m: the whole matrix is one block of w rows
    sort_blocks(k, w, rows);
  }
}

}  // namespace mmsim::gpu::sorting::as_sort
