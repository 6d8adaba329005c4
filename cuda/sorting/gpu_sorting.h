// The GPU side of the Afshani-Sitchinava algorithms (AS Sect. 1): one warp (p = w = 32 threads) per
// instance, on a w x m matrix of 32-bit words in its block's shared memory, row i of the matrix in
// bank i (cell (i, j) at word j * w + i), as the simulator's matrix DMM (algorithms/sorting/). Many
// independent instances, one per block, each on its own slice of a global array. Plain C++: no
// CUDA header leaks out of it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/harness/timer.h"

namespace mmsim::gpu::sorting {

inline constexpr int kW = 32;  ///< one warp: the DMM's w and p

/// The algorithms that have a kernel, by the simulator's registry name.
enum class Algo { Sort, SortBitonic, Partition, PartitionDirect, Permute, PermuteDirect };
inline constexpr Algo kAlgos[] = {Algo::Sort,    Algo::SortBitonic,  Algo::Partition, Algo::PartitionDirect,
                                  Algo::Permute, Algo::PermuteDirect};
const char* registry_name(Algo a);

/// Shared-memory bytes one instance takes: the matrix regions of m columns it works in (bitonic:
/// 1; as-sort: the data and one scratch region, 2, as its merge sorts use no third; as-partition:
/// 3, the third for the radix sort's counters; as-permute: the simulator's 4 regions and w + 2
/// columns for the hash table and the sums; the direct sends: input and output, 2).
std::uint64_t shared_bytes(Algo a, std::uint32_t m);
/// Whether that fits one block on this device (its opt-in limit); false also for m outside 1..65536.
bool fits(Algo a, std::uint32_t m);
/// Blocks of one instance each that one SM holds at once (the occupancy calculator): one wave of
/// sm_count * this many instances fills the GPU.
int instances_per_sm(Algo a, std::uint32_t m);

/// One batch: `instances` matrices of w x m words, instance b's in[b * w m + x], x the word of the
/// DMM layout (cell (i, j) at x = j * w + i); the output in the same layout.
struct Batch {
  std::vector<std::uint32_t> out;
  std::vector<long long> cycles;  ///< per instance: clock64() around the algorithm (load and store outside)
  Timing timing;                  ///< whole launches (load, algorithm, store), event-timed
};

/// Runs `plan` launches (output poisoned before each) and returns the last one's output and
/// cycles. Instance b of the randomized as-permute draws from seed first_seed + b, as the simulator's
/// run with that seed does. Throws GpuError (including when the shape does not fit).
Batch run_batch(Algo a, std::uint32_t m, std::uint32_t instances, const std::vector<std::uint32_t>& in,
                const TimingPlan& plan, std::uint64_t first_seed);

/// One launch of one instance's copy in and out alone (k_as_copy: no algorithm between them), for
/// Nsight Compute to count what the copies add to each launch of m; true when the copy checks.
/// Throws GpuError.
bool run_copy_only(std::uint32_t m);

}  // namespace mmsim::gpu::sorting
