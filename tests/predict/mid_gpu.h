// What the sampling tests share. The GPU profile (needs MMSIM_SOURCE_DIR): a 1 MiB L2 in 2048 sets of 16
// ways and the GPU profiles' DRAM (1 KiB rows, 2048 banks, a write-back reach of 65536 rows). Runs of
// 2^18 elements (1 MiB an array) move about twice the cache, as the validation tables' large runs
// do, and a 1/16 sample keeps 128 sets, as a 1/512 sample of an H100's L2 does. (Cut to a few dozen
// sets, a sample's L2 no longer behaves as the whole one, in distribution: a cache that small hits
// or misses a whole stream at once.)
#pragma once

#include <string_view>

#include "predict/cost_model.h"
#include "predict/gpu_profile.h"
#include "tests/predict/small_gpu.h"

namespace mmsim::predict {

inline GpuProfile mid_gpu_profile() {
  GpuProfile p = small_gpu_profile();
  // The H100's fitted cost models, so that the predicted ms weigh the counts as a real profile does.
  p.models = read_profile(MMSIM_SOURCE_DIR "/results/gpu-h100/profile-h100.json").models;
  p.memory.cache_bytes = 1024 * 1024;
  p.memory.dram_banks = 2048;
  p.memory.dram_write_rows = 65536;
  return p;
}

/// The counts the sampling leaves whole: the launches, the shared memory's and the coalescer's.
inline bool counted_whole(const CountField& f) {
  for (const std::string_view name : {"launches", "shared_time_units", "accesses", "umm_slots", "l2_transactions",
                                      "read_sectors", "write_sectors", "sectors"})
    if (f.name == name) return true;
  return false;
}

/// Every count of a and b equal.
inline bool same(const RunCounts& a, const RunCounts& b) {
  for (const CountField& f : count_fields())
    if (f.of(a) != f.of(b)) return false;
  return true;
}

}  // namespace mmsim::predict
