// Single warp instructions on the GPU, for Nsight Compute's counters and for timing atomics: every
// warp of every block makes the same instruction (the same lanes, the same byte offsets) a given
// number of times, and nothing else touches the memory under measurement (the offsets travel as a
// kernel parameter, and no other shared-memory instruction runs). And the histograms that compare
// atomics with the simulator. Host interface: plain C++, no CUDA header.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cuda/harness/timer.h"

namespace mmsim::gpu::accesses {

inline constexpr std::uint32_t kLanes = 32;
/// A lane's offset when it makes no request: it skips the instruction (an inactive lane).
inline constexpr std::uint32_t kIdle = 0xFFFFFFFFu;

enum class Space : std::uint8_t { Shared, Global };
/// AtomicAdd: atom.add of 1, old value kept; ReduceAddOne: red.add of 1; ReduceAddValue: red.add of
/// the lane's index.
enum class Instr : std::uint8_t { Load, Store, AtomicAdd, ReduceAddOne, ReduceAddValue };

/// One instruction: `bytes` per lane (1, 2, 4, 8 or 16; the atomics: 4), each lane's byte offset from
/// the array's start (aligned to `bytes`), or kIdle.
struct WarpInstruction {
  Space space = Space::Shared;
  Instr instr = Instr::Load;
  std::uint32_t bytes = 4;
  std::array<std::uint32_t, kLanes> offset{};
};

/// How the instruction is repeated: `blocks` blocks of `warps` warps, each warp making it `repeats`
/// times. Global memory: warp g's array starts `warp_stride` bytes after warp g-1's (0: every warp
/// on the same addresses, as every block's warps are in shared memory).
struct Launch {
  std::uint32_t blocks = 1, warps = 1, repeats = 1;
  std::uint32_t warp_stride = 0;
};

/// The largest byte offset plus the access a pattern needs, checked against what a block may have
/// (shared: 48 KiB; global: the buffer). Throws GpuError when it does not fit.
/// Launches once, untimed: for Nsight Compute (`mmsim gpu accesses --profile`).
void launch_once(const WarpInstruction& w, const Launch& l);
/// Timed launches (the harness's median): the whole launch's time.
Timing time_launch(const WarpInstruction& w, const Launch& l, const TimingPlan& plan);

/// A histogram of `bins` 32-bit counters over `keys` (each key < bins): atomic adds of every key
/// straight into the global counters, or into a copy in each block's shared memory first, added
/// into the global counters at the block's end (the textbook shared-memory histogram). Each either
/// with CUDA's atomicAdd, result unused, as a programmer writes it (the compiler chooses the
/// instructions: a reduction, perhaps aggregated over the warp first), or with the atomic
/// instruction itself (atom.add, its old value kept), as the hardware serves it. The counters are
/// checked against the CPU's after the last timed run.
enum class HistogramKind : std::uint8_t { Global, GlobalAtom, Shared, SharedAtom };
inline const char* to_string(HistogramKind k) {
  switch (k) {
    case HistogramKind::Global:
      return "global";
    case HistogramKind::GlobalAtom:
      return "global-atom";
    case HistogramKind::Shared:
      return "shared";
    case HistogramKind::SharedAtom:
      return "shared-atom";
  }
  return "?";
}
struct HistogramRun {
  Timing timing;
  bool correct = false;
  std::uint64_t mismatches = 0;
};
HistogramRun histogram(const std::vector<std::uint32_t>& keys, std::uint32_t bins, HistogramKind kind,
                       const TimingPlan& plan);

}  // namespace mmsim::gpu::accesses
