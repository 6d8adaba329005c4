#include "predict/simulate.h"

#include "io/input_error.h"
#include "predict/microbench_programs.h"
#include "sim/engine.h"

namespace mmsim::predict {

RunCounts counts_of(const RunStats& stats, const GpuMemoryStats& memory) {
  RunCounts c;
  c.launches = stats.kernels.size();
  for (const RoundStats& r : stats.rounds)
    if (r.memory == Space::Shared && r.time_units) c.shared_time_units += static_cast<std::uint64_t>(*r.time_units);
  c.memory = memory;
  return c;
}

namespace {

WarmRun warm(const GpuProfile& profile, std::uint32_t element_bytes,
             const std::function<RunStats(const EngineOptions&)>& run, unsigned threads, bool per_round,
             bool warm_first = true) {
  GpuMemoryParams params = profile.memory;
  params.element_bytes = element_bytes;
  // One hierarchy for both runs: the first leaves the L2 warm for the second.
  GpuMemoryHierarchy hierarchy(profile.machine.w, params);
  const GpuGlobalMemory memory(profile.machine.L, hierarchy);
  EngineOptions options;
  options.threads = threads;
  options.global_memory = &memory;
  if (warm_first) {
    run(options);  // warms the cache
    hierarchy.reset_counters();
  }
  hierarchy.track_rounds(per_round);
  WarmRun out;
  out.stats = run(options);
  out.counts = counts_of(out.stats, hierarchy.stats());
  if (per_round) {
    out.rounds = hierarchy.round_stats();
    out.rounds.resize(out.stats.rounds.size());
  }
  return out;
}

}  // namespace

RunCounts count_warm(const GpuProfile& profile, std::uint32_t element_bytes,
                     const std::function<RunStats(const EngineOptions&)>& run, unsigned threads) {
  return warm(profile, element_bytes, run, threads, false).counts;
}

WarmRun run_warm(const GpuProfile& profile, std::uint32_t element_bytes,
                 const std::function<RunStats(const EngineOptions&)>& run, unsigned threads) {
  return warm(profile, element_bytes, run, threads, true);
}

RunCounts count_microbench(const GpuProfile& profile, const Microbench& bench) {
  const Machine machine(profile.machine);
  const Program program = microbench_program(bench);
  const auto run = [&](const EngineOptions& options) {
    Engine engine(machine.view(), options);
    for (const ArrayDecl& a : program.arrays) engine.add_array(a);
    for (const Kernel& k : program.kernels) engine.launch(k);
    return engine.stats();
  };
  // A cold bench's L2 was flushed before its run: its first run is counted, on an empty cache (the
  // flush leaves clean lines, whose eviction costs nothing).
  return warm(profile, bench.element_bytes, run, 0, false, !bench.cold).counts;
}

ParamValues on_profile_machine(const GpuProfile& profile, const AlgorithmEntry& entry, ParamValues given) {
  if (entry.machine != ModelKind::Hmm)
    throw InputError(entry.name + ": runs on the " + to_string(entry.machine) +
                     "; a GPU prediction simulates the HMM's global memory, so only HMM algorithms are predicted");
  // The profile's machine: the GPU's width, its SMs as the DMMs, the latencies of the validation.
  const MachineParams& m = profile.machine;
  for (const auto& [key, value] : {std::pair{"w", m.w}, std::pair{"l", m.l}, std::pair{"L", m.L}, std::pair{"k", m.k}})
    if (const ParamValue* v = given.find(key); v && *v != ParamValue{std::int64_t{value}})
      throw InputError("-" + std::string(key) + ": a prediction runs on the profile's machine (" + key + " = " +
                       std::to_string(value) + "); leave it out");
  set_machine(given, entry, m);
  return given;
}

AlgorithmCounts count_algorithm(const GpuProfile& profile, const AlgorithmEntry& entry, ParamValues given,
                                std::uint32_t element_bytes, unsigned threads) {
  given = on_profile_machine(profile, entry, std::move(given));
  AlgorithmCounts out;
  out.counts = count_warm(
      profile, element_bytes,
      [&](const EngineOptions& options) {
        out.report = run_algorithm(entry, given, options);
        return out.report.stats;
      },
      threads);
  return out;
}

}  // namespace mmsim::predict
