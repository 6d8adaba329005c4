// One warp staging its data through shared memory, word x by lane x mod 32: coalesced in global
// memory and conflict-free in shared memory. The A-S kernels load their matrix and store their
// result so (cuda/sorting/kernels.cu), and the copy microbenchmarks time exactly this
// (cuda/instructions/kernels.cu, predict/instruction_bench.h's CopyBench). .cu files only.
#pragma once

#include <cstdint>

namespace mmsim::gpu {

/// `words` words of global `src` into shared `s` by the calling warp (threadIdx.x its lane), then a
/// warp barrier: every lane may read any word after it.
__device__ inline void warp_load_to_shared(std::uint32_t* s, const std::uint32_t* __restrict__ src,
                                           std::uint64_t words) {
  for (std::uint32_t x = threadIdx.x; x < words; x += 32) s[x] = src[x];
  __syncwarp();
}

/// `words` words of shared `s` out to global `dst` by the calling warp.
__device__ inline void warp_store_from_shared(std::uint32_t* __restrict__ dst, const std::uint32_t* s,
                                              std::uint64_t words) {
  for (std::uint32_t x = threadIdx.x; x < words; x += 32) dst[x] = s[x];
}

/// A whole stage: `words` words of `in` through shared `s` to `out` (an A-S kernel's load and store
/// with no work between them).
__device__ inline void warp_copy_through_shared(std::uint32_t* s, const std::uint32_t* __restrict__ in,
                                                std::uint32_t* __restrict__ out, std::uint64_t words) {
  warp_load_to_shared(s, in, words);
  warp_store_from_shared(out, s, words);
}

}  // namespace mmsim::gpu
