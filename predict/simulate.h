// Runs a program or a registry algorithm on a profile's machine with the GPU-like global memory
// (models/gpu_memory), twice: the first run warms the cache, the second is counted, as the GPU
// tables time runs after warm-ups.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "algorithms/registry.h"
#include "predict/cost_model.h"
#include "predict/gpu_profile.h"
#include "sim/program.h"

namespace mmsim::predict {

/// The counts of a run that `run` performs on an engine made with the options it is given.
RunCounts count_warm(const GpuProfile& profile, std::uint32_t element_bytes,
                     const std::function<RunStats(const EngineOptions&)>& run, unsigned threads = 0);

/// The counted run of count_warm in full: its counts, the engine's statistics, and what the global
/// memory counted in each round (RunStats::rounds' order; a shared round's entry is zero), which add
/// up to counts.memory.
struct WarmRun {
  RunCounts counts;
  RunStats stats;
  std::vector<GpuMemoryStats> rounds;
};
WarmRun run_warm(const GpuProfile& profile, std::uint32_t element_bytes,
                 const std::function<RunStats(const EngineOptions&)>& run, unsigned threads = 0);

/// A run's counts: its launches and shared-memory time units from its stats, `memory` as given.
RunCounts counts_of(const RunStats& stats, const GpuMemoryStats& memory);

/// The counts of one microbenchmark's simulator program.
RunCounts count_microbench(const GpuProfile& profile, const Microbench& bench);

/// A registry algorithm's run under the profile: the counts, and the report of the counted run. It
/// runs on the profile's machine (its w, l, L, k set as typed values); a w, l, L or k given that
/// differs from the profile's is refused. `threads` host threads run the simulation (0 for every core).
struct AlgorithmCounts {
  RunCounts counts;
  RunReport report;
};
/// `given` set to the profile's machine (w, l, L, k); throws InputError when the algorithm is not
/// an HMM one or `given` names a different machine.
ParamValues on_profile_machine(const GpuProfile& profile, const AlgorithmEntry& entry, ParamValues given);
AlgorithmCounts count_algorithm(const GpuProfile& profile, const AlgorithmEntry& entry, ParamValues given,
                                std::uint32_t element_bytes, unsigned threads = 0);

}  // namespace mmsim::predict
