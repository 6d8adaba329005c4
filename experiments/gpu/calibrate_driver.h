// `mmsim gpu calibrate`: every calibration microbenchmark timed on the GPU and checked cell by cell,
// and the GPU's facts for the profile.
#pragma once

#include <vector>

#include "predict/gpu_facts.h"
#include "predict/microbench.h"

namespace mmsim::gpu::calibrate {

/// Timed runs per microbenchmark (the median of them; at least the 20 of every GPU table): the
/// shortest kernels last a few microseconds, near the events' resolution.
inline constexpr int kRuns = 100;

/// Times each bench (harness's default warm-ups, kRuns timed runs, b poisoned before each) and
/// checks its output (predict::check_output), `passes` times over the whole set, so that a slow
/// drift of the GPU (its clocks, its temperature) falls on every bench alike and the passes can be
/// fitted apart; one progress line per bench on stderr. Returns the timings of each pass (pool
/// them with predict::pool_passes). Throws GpuError.
std::vector<std::vector<predict::MicrobenchTiming>> run_calibration(const std::vector<predict::Microbench>& benches,
                                                                    int passes = 1);

/// Device 0's facts (cuda/harness/device.h). Throws NoDeviceError, GpuError.
predict::GpuFacts gpu_facts();

}  // namespace mmsim::gpu::calibrate
