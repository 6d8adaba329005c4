// The kernels of the Afshani-Sitchinava sort and partition (AS Sect. 2, as_sort.cuh, as_partition.cuh),
// the randomized permutation (AS Sect. 3, as_permute.cuh) and the baselines (AS Sect. 1),
// one warp per instance: every step of the simulator's version (algorithms/sorting/sort.cpp,
// blocks.cpp, partition.cpp, lemma2.cpp, permute.cpp, permute_finish.cpp, baselines.cpp) is one warp access to shared
// memory here, in the same order and to the same cells, so that the GPU's bank conflicts are the simulator's. The
// instance's slice of the global arrays is its matrix in the DMM layout, so that loading it into shared memory and
// storing the result are plain copies, word x by lane x mod 32: conflict-free, and outside the cycles counted.
#include <cuda_runtime.h>

#include <string>

#include "cuda/harness/check.h"
#include "cuda/harness/device.h"
#include "cuda/harness/device_buffer.cuh"
#include "cuda/harness/poison.h"
#include "cuda/harness/warp_copy.cuh"
#include "cuda/sorting/as_partition.cuh"
#include "cuda/sorting/as_permute.cuh"
#include "cuda/sorting/as_sort.cuh"
#include "cuda/sorting/gpu_sorting.h"

namespace mmsim::gpu::sorting {

namespace {

constexpr unsigned kFull = 0xFFFFFFFFu;

// Cell (row, col) of the region starting at column col0: bank `row`.
__device__ __forceinline__ std::uint32_t cell(std::uint32_t col0, std::uint32_t row, std::uint32_t col) {
  return (col0 + col) * kW + row;
}

__device__ __forceinline__ std::uint32_t log2u(std::uint32_t x) { return 31u - __clz(x); }

// Batcher's bitonic network over the row-major flat array: rank x lives at row x / m, column x % m.
// Each step pair: lane t takes comparator q = q0 + t of the stage, reads its low then its high cell
// (two warp accesses), compares, writes both back (two more), as bitonic_flat does.
__device__ void sort_bitonic(std::uint32_t* s, std::uint32_t m) {
  const std::uint32_t lane = threadIdx.x, lg_m = log2u(m), n = kW * m;
  const auto at = [&](std::uint32_t x) { return cell(0, x >> lg_m, x & (m - 1)); };
  for (std::uint32_t size = 2; size <= n; size *= 2)
    for (std::uint32_t j = size / 2; j >= 1; j /= 2) {
      for (std::uint32_t q0 = 0; q0 < n / 2; q0 += kW) {
        const std::uint32_t q = q0 + lane;
        if (q < n / 2) {
          const std::uint32_t x = ((q & ~(j - 1)) << 1) | (q & (j - 1));  // comparator (x, x + j)
          const std::uint32_t lo = at(x), hi = at(x + j);
          std::uint32_t a = s[lo], b = s[hi];
          const bool up = (x & size) == 0;
          if ((a > b) == up) {
            const std::uint32_t t = a;
            a = b;
            b = t;
          }
          s[lo] = a;
          s[hi] = b;
        }
      }
      __syncwarp();  // the next stage reads what other lanes wrote
    }
}

// The lanes of the warp whose `v` equals `value` (v < 32), from five ballots of v's bits: every
// lane learns the set of any label without a shared-memory access.
__device__ __forceinline__ std::uint32_t lanes_with(const std::uint32_t (&bits)[5], std::uint32_t value) {
  std::uint32_t mask = kFull;
#pragma unroll
  for (int b = 0; b < 5; ++b) mask &= ((value >> b) & 1u) ? bits[b] : ~bits[b];
  return mask;
}

// Direct sends, one column per step: lane i reads cell (i, j) of the input and writes it to its
// destination in the output region (columns m .. 2m - 1). Partition: the destination is the next
// free column of the label's row in column-major input order, which the simulator's host driver
// hands each processor as an oracle; here each lane works it out in registers (lane a keeps row a's
// count, ballots give a lane its rank among the lanes of its label), so the shared-memory accesses
// are still one read and one write per column.
template <bool Partition>
__device__ void send_direct(std::uint32_t* s, std::uint32_t m) {
  const std::uint32_t lane = threadIdx.x, lg_m = log2u(m);
  const std::uint32_t below = (1u << lane) - 1u;
  std::uint32_t placed = 0;  // Partition: items of label `lane` already sent
  for (std::uint32_t j = 0; j < m; ++j) {
    const std::uint32_t v = s[cell(0, lane, j)];
    std::uint32_t row, col;
    if constexpr (Partition) {
      std::uint32_t bits[5];
#pragma unroll
      for (int b = 0; b < 5; ++b) bits[b] = __ballot_sync(kFull, (v >> b) & 1u);
      const std::uint32_t same = lanes_with(bits, v);
      row = v;
      col = __shfl_sync(kFull, placed, v) + __popc(same & below);
      placed += __popc(lanes_with(bits, lane));
    } else {
      row = v >> lg_m;
      col = v & (m - 1);
    }
    s[cell(m, row, col)] = v;
  }
}

template <Algo A>
__global__ void __launch_bounds__(kW) k_as(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                                           std::uint32_t m, std::uint64_t first_seed, long long* __restrict__ cycles) {
  extern __shared__ std::uint32_t s[];
  const std::uint64_t words = std::uint64_t{kW} * m;
  warp_load_to_shared(s, in + blockIdx.x * words, words);  // outside the cycles counted
  const long long t0 = clock64();
  std::uint32_t result_col = A == Algo::SortBitonic ? 0 : m;  // where the output ends up
  if constexpr (A == Algo::Sort || A == Algo::Partition) {
    as_sort::Work k{m, 0, m, 2 * m, threadIdx.x};  // the third region: as-partition's counters
    if constexpr (A == Algo::Sort)
      as_sort::sort_matrix(k, as_sort::MergeRows{});
    else
      as_sort::partition_matrix(k);
    result_col = k.cur;
  }
  if constexpr (A == Algo::Permute) {
    as_permute::permute(m, first_seed + blockIdx.x);
    result_col = 3 * m;
  }
  if constexpr (A == Algo::SortBitonic) sort_bitonic(s, m);
  if constexpr (A == Algo::PartitionDirect) send_direct<true>(s, m);
  if constexpr (A == Algo::PermuteDirect) send_direct<false>(s, m);
  __syncwarp();
  const long long t1 = clock64();
  warp_store_from_shared(out + blockIdx.x * words, s + std::uint64_t{result_col} * kW, words);
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

// k_as's copy in and out with no algorithm between them: what Nsight Compute counts for it is what
// the copies add to every k_as launch of the same m.
__global__ void __launch_bounds__(kW)
    k_as_copy(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, std::uint32_t m) {
  extern __shared__ std::uint32_t s[];
  const std::uint64_t words = std::uint64_t{kW} * m;
  warp_copy_through_shared(s, in + blockIdx.x * words, out + blockIdx.x * words, words);
}

using KernelFn = void (*)(const std::uint32_t*, std::uint32_t*, std::uint32_t, std::uint64_t, long long*);

KernelFn kernel_of(Algo a) {
  switch (a) {
    case Algo::Sort:
      return k_as<Algo::Sort>;
    case Algo::SortBitonic:
      return k_as<Algo::SortBitonic>;
    case Algo::Partition:
      return k_as<Algo::Partition>;
    case Algo::PartitionDirect:
      return k_as<Algo::PartitionDirect>;
    case Algo::Permute:
      return k_as<Algo::Permute>;
    case Algo::PermuteDirect:
      return k_as<Algo::PermuteDirect>;
  }
  throw GpuError("unknown A-S kernel");
}

bool pow2_in_range(std::uint32_t m) { return m >= 1 && m <= 65536 && (m & (m - 1)) == 0; }

// Raises the kernel's dynamic shared-memory limit to what this shape takes (above 48 KiB a kernel
// must ask for it).
void allow_shared(Algo a, std::uint32_t m) {
  MMSIM_CK(cudaFuncSetAttribute(kernel_of(a), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(shared_bytes(a, m))));
}

}  // namespace

const char* registry_name(Algo a) {
  switch (a) {
    case Algo::Sort:
      return "as-sort";
    case Algo::SortBitonic:
      return "as-sort-bitonic";
    case Algo::Partition:
      return "as-partition";
    case Algo::PartitionDirect:
      return "as-partition-direct";
    case Algo::Permute:
      return "as-permute";
    case Algo::PermuteDirect:
      return "as-permute-direct";
  }
  return "?";
}

std::uint64_t shared_bytes(Algo a, std::uint32_t m) {
  const std::uint64_t column = kW * sizeof(std::uint32_t);
  switch (a) {
    case Algo::SortBitonic:
      return column * m;
    case Algo::Partition:
      return 3 * column * m;
    case Algo::Permute:  // theorem4.h: 4 regions, the table (w + 1 columns) and the sums (1)
      return column * (4ull * m + kW + 2);
    default:
      return 2 * column * m;
  }
}

bool fits(Algo a, std::uint32_t m) {
  return pow2_in_range(m) && shared_bytes(a, m) <= device_info().shared_per_block_optin;
}

int instances_per_sm(Algo a, std::uint32_t m) {
  if (!fits(a, m)) throw GpuError("A-S kernel: m = " + std::to_string(m) + " does not fit one block's shared memory");
  allow_shared(a, m);
  int blocks = 0;
  MMSIM_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_of(a), kW, shared_bytes(a, m)));
  return blocks;
}

Batch run_batch(Algo a, std::uint32_t m, std::uint32_t instances, const std::vector<std::uint32_t>& in,
                const TimingPlan& plan, std::uint64_t first_seed) {
  const std::uint64_t words = std::uint64_t{kW} * m * instances;
  if (!fits(a, m)) throw GpuError("A-S kernel: m = " + std::to_string(m) + " does not fit one block's shared memory");
  if (instances == 0 || in.size() != words) throw GpuError("A-S kernel: input size is not instances * w * m");
  allow_shared(a, m);
  DeviceBuffer d_in(words * 4), d_out(words * 4), d_cycles(std::uint64_t{instances} * sizeof(long long));
  MMSIM_CK(cudaMemcpy(d_in.p, in.data(), words * 4, cudaMemcpyHostToDevice));
  const auto shared = static_cast<std::size_t>(shared_bytes(a, m));
  const KernelFn k = kernel_of(a);
  EventTimer timer;
  Batch b;
  b.timing = timer.time(
      plan, [&] { poison(d_out.p, words * 4); },
      [&] {
        k<<<instances, kW, shared>>>(static_cast<const std::uint32_t*>(d_in.p), static_cast<std::uint32_t*>(d_out.p), m,
                                     first_seed, static_cast<long long*>(d_cycles.p));
        MMSIM_LAUNCHED();
      });
  MMSIM_CK(cudaDeviceSynchronize());
  b.out.resize(words);
  b.cycles.resize(instances);
  MMSIM_CK(cudaMemcpy(b.out.data(), d_out.p, words * 4, cudaMemcpyDeviceToHost));
  MMSIM_CK(cudaMemcpy(b.cycles.data(), d_cycles.p, instances * sizeof(long long), cudaMemcpyDeviceToHost));
  return b;
}

bool run_copy_only(std::uint32_t m) {
  if (!pow2_in_range(m)) throw GpuError("A-S copy: m must be a power of two, 1 to 65536");
  const std::uint64_t words = std::uint64_t{kW} * m, bytes = words * 4;
  if (bytes > device_info().shared_per_block_optin)
    throw GpuError("A-S copy: m does not fit one block's shared memory");
  MMSIM_CK(cudaFuncSetAttribute(k_as_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  std::vector<std::uint32_t> in(words), out(words);
  for (std::uint64_t x = 0; x < words; ++x) in[x] = static_cast<std::uint32_t>(x * 2654435761u);
  DeviceBuffer d_in(bytes), d_out(bytes);
  MMSIM_CK(cudaMemcpy(d_in.p, in.data(), bytes, cudaMemcpyHostToDevice));
  k_as_copy<<<1, kW, bytes>>>(static_cast<const std::uint32_t*>(d_in.p), static_cast<std::uint32_t*>(d_out.p), m);
  MMSIM_LAUNCHED();
  MMSIM_CK(cudaMemcpy(out.data(), d_out.p, bytes, cudaMemcpyDeviceToHost));
  return out == in;
}

}  // namespace mmsim::gpu::sorting
