// The GPU profile the prediction tests share: 4 SMs and a 64 KiB L2, so that small
// microbenchmarks fall both sides of the cache.
#pragma once

#include "predict/gpu_profile.h"

namespace mmsim::predict {

inline GpuProfile small_gpu_profile() {
  GpuFacts gpu;
  gpu.name = "test GPU";
  gpu.sm_count = 4;
  gpu.l2_bytes = 64 * 1024;
  return profile_skeleton(gpu, "test", "2026-01-01");
}

}  // namespace mmsim::predict
