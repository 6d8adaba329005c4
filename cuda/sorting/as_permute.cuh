// AS Sect. 3's randomized permutation (Theorem 4, Appendix B) as device code for one warp, a port of
// the simulator's version (algorithms/sorting/permute.cpp, permute_finish.cpp, theorem4.h) that makes
// the same warp accesses in the same order. The random choices are the simulator's: every lane runs
// the same seeded generator (sim/random.h's xoshiro256**, ported below) through the whole sequence of
// draws and keeps the ones drawn for its own row, so an instance with the simulator's seed makes
// exactly the simulator's run. Only the default finish (packing, Lemma 2 where it applies) is here.
// Include from kernels.cu only.
#pragma once

#include <cstdint>

#include "cuda/sorting/as_partition.cuh"

namespace mmsim::gpu::sorting::as_permute {

using as_sort::kFull;
using as_sort::kLanes;
using as_sort::Work;

// sim/random.h's Rng on the device: xoshiro256** seeded through splitmix64, Lemire's bounded draw.
struct Rng {
  std::uint64_t s[4];
  __device__ explicit Rng(std::uint64_t seed) {
    for (auto& x : s) {
      seed += 0x9E3779B97F4A7C15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      x = z ^ (z >> 31);
    }
  }
  __device__ static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  __device__ std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  __device__ std::uint64_t below(std::uint64_t bound) {
    while (true) {
      const std::uint64_t x = next(), low = x * bound;
      if (low >= bound || low >= (0 - bound) % bound) return __umul64hi(x, bound);
    }
  }
  // Processors 0 .. n-1 each draw one value below `bound`, in order; this lane keeps its own.
  __device__ std::uint32_t draw_for_lane(std::uint32_t lane, std::uint32_t n, std::uint64_t bound) {
    std::uint32_t mine = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto v = static_cast<std::uint32_t>(below(bound));
      if (i == lane) mine = v;
    }
    return mine;
  }
};

constexpr std::uint32_t kAlpha = 2;  // permute.cpp's alpha: repetitions of the m colour steps
constexpr int kMaxIterations = 16;

// theorem4.h's Theorem4Run on one warp: the regions (column offsets) and this lane's own state.
struct Run {
  std::uint32_t m, lg_m, r;
  std::uint32_t work, bycolour, counts, out, table, sync;
  std::uint32_t left;  // labels this row still holds, in work[0, left)
  Rng rng;
  __device__ Run(std::uint32_t m_, std::uint32_t lane, std::uint64_t seed)
      : m(m_),
        lg_m(as_sort::floor_log2(m_)),
        r(lane),
        work(0),
        bycolour(m_),
        counts(2 * m_),
        out(3 * m_),
        table(4 * m_),
        sync(4 * m_ + kLanes + 1),
        left(m_),
        rng(seed) {}
  __device__ std::uint32_t at(std::uint32_t c0, std::uint32_t row, std::uint32_t col) const {
    return (c0 + col) * kLanes + row;
  }
  __device__ std::uint32_t dest_row(std::uint32_t label) const { return label >> lg_m; }
  __device__ std::uint32_t dest_col(std::uint32_t label) const { return label & (m - 1); }
  __device__ std::uint32_t colour_of(std::uint32_t label, std::uint32_t h) const {
    return (dest_col(label) + m - h % m) % m;
  }
  __device__ std::uint32_t empty() const { return kLanes * m; }
};

__device__ inline void preprocess(Run& P) {
  const std::uint32_t shift = P.rng.draw_for_lane(P.r, kLanes, P.m);
  for (std::uint32_t t = 0; t < P.m; ++t) {
    const std::uint32_t v = smem[P.at(P.work, P.r, t)];
    smem[P.at(P.bycolour, P.r, (t + shift) % P.m)] = v;
  }
  __syncwarp();
  Work k{P.m, P.bycolour, P.work, P.counts, P.r};
  as_sort::transpose_tiles(k, min(kLanes, P.m));  // back in `work`
}

__device__ inline void hash(Run& P) {
  const std::uint32_t h = P.rng.draw_for_lane(P.r, kLanes, P.m);
  smem[P.at(P.table, P.r, P.r)] = h;
  __syncwarp();
  for (std::uint32_t t = 1; t < kLanes; ++t) {
    const std::uint32_t o = (P.r + t) % kLanes;
    const std::uint32_t v = smem[P.at(P.table, o, o)];
    smem[P.at(P.table, P.r, o)] = v;
  }
  __syncwarp();
}

// The p-th label of this row in region `from` and its hash value (two steps; call when p < left).
__device__ inline void read_label_and_hash(const Run& P, std::uint32_t from, std::uint32_t p, std::uint32_t& label,
                                           std::uint32_t& h) {
  label = smem[P.at(from, P.r, p)];
  h = smem[P.at(P.table, P.r, P.dest_row(label))];
}

__device__ inline void colour(Run& P) {
  for (std::uint32_t c = 0; c < P.m; ++c) smem[P.at(P.counts, P.r, c)] = 0;
  std::uint32_t label, h;
  for (std::uint32_t p = 0; p < P.m; ++p)
    if (p < P.left) {
      read_label_and_hash(P, P.work, p, label, h);
      const std::uint32_t a = P.at(P.counts, P.r, P.colour_of(label, h));
      const std::uint32_t c = smem[a];
      smem[a] = c + 1;
    }
  std::uint32_t sum = 0;
  for (std::uint32_t c = 0; c < P.m; ++c) {
    const std::uint32_t n = smem[P.at(P.counts, P.r, c)];
    smem[P.at(P.counts, P.r, c)] = sum;
    sum += n;
  }
  for (std::uint32_t p = 0; p < P.m; ++p)
    if (p < P.left) {
      read_label_and_hash(P, P.work, p, label, h);
      const std::uint32_t a = P.at(P.counts, P.r, P.colour_of(label, h));
      const std::uint32_t c = smem[a];
      smem[P.at(P.bycolour, P.r, c)] = label;
      smem[a] = c + 1;
    }
  __syncwarp();
}

__device__ inline void communicate(Run& P) {
  for (std::uint32_t rep = 0; rep < kAlpha; ++rep) {
    std::uint32_t start = 0;
    for (std::uint32_t c = 0; c < P.m; ++c) {
      const std::uint32_t end = smem[P.at(P.counts, P.r, c)];
      if (start + rep < end) {
        const std::uint32_t label = smem[P.at(P.bycolour, P.r, start + rep)];
        smem[P.at(P.out, P.dest_row(label), P.dest_col(label))] = label;
      }
      start = end;
    }
  }
  __syncwarp();
}

__device__ inline void compact(Run& P) {
  std::uint32_t kept = 0;
  for (std::uint32_t p = 0; p < P.m; ++p) {
    std::uint32_t label = 0, h = 0, col = 0, startk = 0;
    if (p < P.left) {
      read_label_and_hash(P, P.bycolour, p, label, h);
      col = P.colour_of(label, h);
    }
    if (p < P.left && col > 0) startk = smem[P.at(P.counts, P.r, col - 1)];
    if (p < P.left && p - startk >= kAlpha) smem[P.at(P.work, P.r, kept++)] = label;
  }
  P.left = kept;
  __syncwarp();
}

// The leftover counts summed up a binary tree of rows and broadcast back down; returns the total.
__device__ inline std::uint32_t synchronise(Run& P) {
  smem[P.at(P.sync, P.r, 0)] = P.left;
  __syncwarp();
  std::uint32_t part = P.left;
  for (std::uint32_t d = 1; d < kLanes; d *= 2) {
    if (P.r % (2 * d) == 0) {
      part += smem[P.at(P.sync, P.r + d, 0)];
      smem[P.at(P.sync, P.r, 0)] = part;
    }
    __syncwarp();
  }
  for (std::uint32_t d = kLanes / 2; d >= 1; d /= 2) {
    if (P.r % (2 * d) == d) {
      part = smem[P.at(P.sync, P.r - d, 0)];
      smem[P.at(P.sync, P.r, 0)] = part;
    }
    __syncwarp();
  }
  return __shfl_sync(kFull, part, 0);
}

__device__ inline std::uint32_t pow2_at_least(std::uint32_t x) {
  std::uint32_t p = 1;
  while (p < x) p *= 2;
  return p;
}

// permute_finish.cpp's broadcast_offsets for w = 32: t = min(w, (log2 w)^2 rounded up) = w offsets,
// drawn by rows 0 .. t-1, each row copying all of them into its own row of the table.
__device__ inline std::uint32_t broadcast_offsets(Run& P) {
  const std::uint32_t lg = as_sort::floor_log2(kLanes);
  const std::uint32_t t = min(kLanes, pow2_at_least(max(1u, lg * lg)));
  const std::uint32_t mine = 1 + P.rng.draw_for_lane(P.r, t, kLanes - 1);
  if (P.r < t) smem[P.at(P.table, P.r, 0)] = mine;
  __syncwarp();
  for (std::uint32_t d = t; d < kLanes; d *= 2) {
    if (P.r < d) {
      const std::uint32_t v = smem[P.at(P.table, P.r, 0)];
      smem[P.at(P.table, P.r + d, 0)] = v;
    }
    __syncwarp();
  }
  for (std::uint32_t st = 0; st < t; ++st) {
    const std::uint32_t i = (P.r % t + st) % t;
    const std::uint32_t v = smem[P.at(P.table, P.r - P.r % t + i, 0)];
    smem[P.at(P.table, P.r, 1 + i)] = v;
  }
  __syncwarp();
  return t;
}

// The packing rounds at width mp (permute_finish.cpp's pack_rounds); whether every row now fits.
__device__ inline bool pack_rounds(Run& P, std::uint32_t t, std::uint32_t mp) {
  const std::uint32_t quota = max(1u, (2 * P.m + t - 1) / t);
  std::uint32_t count = P.left, off = 0, state = 0;
  smem[P.at(P.sync, P.r, 0)] = count;
  __syncwarp();
  for (std::uint32_t i = 0; i < t; ++i) {
    const bool wide = count > mp;
    if (wide) off = smem[P.at(P.table, P.r, 1 + i)];
    const std::uint32_t partner = (P.r + off) % kLanes;
    if (wide) state = smem[P.at(P.sync, partner, 0)];
    const std::uint32_t move = wide && state < mp ? min(min(count - mp, mp - state), quota) : 0;
    const std::uint32_t most = __reduce_max_sync(kFull, move);
    for (std::uint32_t st = 0; st < most; ++st)
      if (st < move) {
        const std::uint32_t v = smem[P.at(P.work, P.r, count - 1 - st)];
        smem[P.at(P.work, partner, state + st)] = v;
      }
    if (move > 0) smem[P.at(P.sync, partner, 0)] = state + move;
    count -= move;
    __syncwarp();
  }
  state = smem[P.at(P.sync, P.r, 0)];
  P.left = count < P.left ? count : state;
  return __all_sync(kFull, P.left <= mp);
}

__device__ inline void fill_empty(Run& P, std::uint32_t width) {
  for (std::uint32_t c = 0; c < width; ++c)
    if (c >= P.left) smem[P.at(P.work, P.r, c)] = P.empty();
  __syncwarp();
}

// Every row sends its sorted labels in three conflict-free groups (permute_finish.cpp's send_sorted).
__device__ inline void send_sorted(Run& P, std::uint32_t sorted, std::uint32_t width) {
  const std::uint32_t none = P.empty();
  std::uint32_t first = none, last = none, last_at = width, count = 0;
  for (std::uint32_t c = 0; c < width; ++c) {
    const std::uint32_t x = smem[P.at(sorted, P.r, c)];
    if (x == none) continue;
    const std::uint32_t a = P.dest_row(x);
    if (count++ == 0) first = a;
    if (last != a) {
      last = a;
      last_at = c;
    }
  }
  for (std::uint32_t c = 0; c < width; ++c)
    if (c < count) {
      const std::uint32_t x = smem[P.at(sorted, P.r, c)];
      if (P.dest_row(x) != first && P.dest_row(x) != last) smem[P.at(P.out, P.dest_row(x), P.dest_col(x))] = x;
    }
  for (int group = 0; group < 2; ++group) {
    std::uint32_t ptr = group == 0 ? 0 : (last != first ? last_at : width);
    const std::uint32_t target = group == 0 ? first : last;
    for (std::uint32_t j = 0; j < P.m; ++j)
      if (ptr < count) {
        const std::uint32_t x = smem[P.at(sorted, P.r, ptr)];
        if (P.dest_row(x) == target && P.dest_col(x) == j) {
          smem[P.at(P.out, target, j)] = x;
          ++ptr;
        }
      }
  }
  __syncwarp();
}

// permute_finish.cpp's packed_width for the default finish (Lemma 2 where it applies).
__device__ inline std::uint32_t packed_width(const Run& P, std::uint32_t total) {
  std::uint32_t mp = max(2u, pow2_at_least(2 * ((total + kLanes - 1) / kLanes)));
  if (kLanes > mp && !as_sort::lemma2_applies(kLanes, mp)) {
    std::uint32_t c = mp;
    while (c < P.m && !as_sort::lemma2_applies(kLanes, c)) c *= 2;
    if (c < P.m) mp = c;
  }
  return min(mp, P.m);
}

// Appendix B: pack the leftover labels into w x mp, sort them, send them.
__device__ inline void finish(Run& P, std::uint32_t total) {
  const std::uint32_t widest = __reduce_max_sync(kFull, P.left);
  std::uint32_t mp = packed_width(P, total);
  if (widest > mp) {
    const std::uint32_t t = broadcast_offsets(P);
    while (!pack_rounds(P, t, mp)) mp = min(2 * mp, P.m);
  }
  fill_empty(P, mp);
  Work k{mp, P.work, P.bycolour, P.counts, P.r};
  const std::uint32_t keys = kLanes * P.m + 1;  // labels and the empty mark
  if (kLanes > mp && as_sort::lemma2_applies(kLanes, mp))
    as_sort::lemma2_sort_blocks(k, kLanes, keys);
  else
    as_sort::sort_matrix(k, as_sort::RadixRows{keys});
  send_sorted(P, k.cur, mp);
}

// as_permute of permute.cpp: the labels in region 0 (columns 0 .. m-1), the result in region
// 3m (columns 3m .. 4m-1).
__device__ inline void permute(std::uint32_t m, std::uint64_t seed) {
  Run P(m, threadIdx.x, seed);
  preprocess(P);
  std::uint32_t total = kLanes * m;
  const double logmw = m > 1 ? log(static_cast<double>(kLanes)) / log(static_cast<double>(m)) : 1.0;
  const double threshold = static_cast<double>(kLanes * m) / max(1.0, logmw * logmw * logmw);
  int iterations = 0;
  while (iterations < kMaxIterations && (iterations == 0 || static_cast<double>(total) > threshold)) {
    ++iterations;
    hash(P);
    colour(P);
    communicate(P);
    compact(P);
    total = synchronise(P);
  }
  if (total > 0) finish(P, total);
}

}  // namespace mmsim::gpu::sorting::as_permute
