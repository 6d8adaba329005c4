// The row moves of AS Lemma 2's balancing rounds as header-only integer arithmetic that both the
// host compiler and nvcc (for device code) build, so that the simulator's algorithm (lemma2.cpp)
// and the GPU kernel (cuda/sorting/as_partition.cuh) move the very same rows.
#pragma once

#if defined(__CUDACC__)
#define MMSIM_SORT_HD __host__ __device__ __forceinline__
#else
#define MMSIM_SORT_HD inline
#endif

namespace mmsim::sorting::core {

/// A round with sub-matrices of s rows, in groups of g consecutive ones (AS Lemma 2's proof): row
/// g0 + t s + j (t < g, j < s) of the group starting at g0 goes to g0 + j g + t, so that the j-th
/// rows of the group's sub-matrices stand together as one g x m matrix.
template <typename U>
MMSIM_SORT_HD U balancing_gather(U r, U g, U s) {
  const U g0 = r - r % (g * s), x = r % (g * s);
  return g0 + (x % s) * g + x / s;
}

/// The inverse of balancing_gather: every row back to its sub-matrix.
template <typename U>
MMSIM_SORT_HD U balancing_scatter(U r, U g, U s) {
  const U g0 = r - r % (g * s), x = r % (g * s);
  return g0 + (x % g) * s + x / g;
}

}  // namespace mmsim::sorting::core
