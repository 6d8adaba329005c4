// The GPU side of the instruction microbenchmarks (predict/instruction_bench.h): one kernel per
// kind, a block of one warp, run alone (its loop timed by clock64) or as 32 blocks on every SM
// (event-timed); the copy benches' kernel, a few one-warp blocks per SM (event-timed); and the tile
// benches' kernels, a barrier between each block's loads and its stores (event-timed); and the
// stream benches' kernel, a polynomial an element over a large array (event-timed). No CUDA header
// leaks out.
#pragma once

#include <vector>

#include "cuda/harness/timer.h"
#include "predict/instruction_bench.h"

namespace mmsim::gpu::instructions {

struct BenchRun {
  Summary cycles;  ///< lone: clock64 around the loop, one sample per timed launch
  Timing timing;   ///< many: the launches, event-timed
  std::uint32_t blocks = 0;
  bool correct = false;  ///< every lane of every block wrote instruction_reference (last launch)
};

/// Times the bench under `plan` (the launch of a lone bench is one block; a many bench's, 32 per
/// SM). Throws GpuError.
BenchRun run_bench(const predict::InstructionBench& b, const TimingPlan& plan);

struct CopyRun {
  Timing timing;  ///< the launch of every SM's warps, event-timed
  std::uint32_t blocks = 0;
  bool correct = false;  ///< the output was the input, word for word (last launch; poisoned before each)
};

/// Times a copy bench: warps_per_sm one-warp blocks on every SM. Throws GpuError where they do not
/// fit an SM at once.
CopyRun run_copy(const predict::CopyBench& b, const TimingPlan& plan);

struct TileRun {
  Timing timing;                   ///< the launch over the whole array, event-timed
  std::uint64_t blocks = 0;        ///< the launch's blocks: the array's tiles
  std::uint64_t shared_bytes = 0;  ///< dynamic shared memory a block, chosen for the bench's residency
  bool correct = false;            ///< every word was tile_output_word (last timed launch)
};

/// Times a tile bench (the array restored and the output poisoned before each launch). Throws
/// GpuError where no shared memory size gives its blocks per SM.
TileRun run_tile(const predict::TileBench& b, const TimingPlan& plan);

/// One untimed launch of one block, for Nsight Compute; true when its output checks.
bool launch_once(const predict::InstructionBench& b);

struct StreamRun {
  Timing timing;  ///< the launch over the n elements, event-timed (the output poisoned before each)
  std::uint32_t blocks = 0;
  bool correct = false;  ///< every element was stream_output of its input (last timed launch)
};

/// Times a stream bench. Throws GpuError.
StreamRun run_stream(const predict::StreamBench& b, const TimingPlan& plan);
/// One untimed launch of a stream bench, for Nsight Compute; true when its output checks.
bool launch_stream_once(const predict::StreamBench& b);

}  // namespace mmsim::gpu::instructions
