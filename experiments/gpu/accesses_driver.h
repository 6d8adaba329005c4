// `mmsim gpu accesses`: the catalogue of experiments/accesses.h on the GPU. Three parts:
//  - the launches Nsight Compute profiles (--profile): every case once, 2 blocks of 4 warps, each
//    warp making the instruction 16 times, in catalogue order, so that ncu's per-launch counters
//    divided by the 128 warp instructions are the case's wavefronts, bank conflicts and sectors;
//  - the atomic adds timed in two regimes: every warp on addresses of its own (global: 4 KiB
//    apart; shared: one warp a block) and every warp of the launch (global) or the block (shared)
//    on the same addresses, in ns per warp instruction;
//  - histograms of 256 bins over 2^24 keys of each distribution, global and privatized in shared
//    memory, each with atomicAdd as written and with the atomic instruction, every count checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/accesses/gpu_accesses.h"
#include "experiments/accesses.h"
#include "report/table.h"

namespace mmsim::gpu::accesses {

/// The GPU's form of a catalogue case (byte offsets of the lanes).
WarpInstruction instruction_of(const experiments::AccessCase& c);

/// Launches every case once for Nsight Compute, in catalogue order; returns how many.
std::size_t profile_launches();

/// The atomic cases' times (ns per warp instruction), one row per case and regime.
report::Table atomic_times(const TimingPlan& plan);

/// Histogram times: one row per (distribution, kind), with the check.
struct HistogramOptions {
  std::uint64_t keys = std::uint64_t{1} << 24;
  std::uint32_t bins = 256;
  std::uint64_t seed = 1;
};
report::Table histogram_times(const HistogramOptions& o, const TimingPlan& plan, bool& all_correct);

}  // namespace mmsim::gpu::accesses
