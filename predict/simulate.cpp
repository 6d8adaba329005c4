#include "predict/simulate.h"

#include "io/input_error.h"
#include "predict/microbench_programs.h"
#include "sim/engine.h"
#include "sim/workers.h"

namespace mmsim::predict {

namespace {

RunCounts counts_of(const RunStats& stats, const GpuGlobalMemory& memory) {
  RunCounts c;
  c.launches = stats.kernels.size();
  for (const RoundStats& r : stats.rounds)
    if (r.memory == Space::Shared && r.time_units) c.shared_time_units += static_cast<std::uint64_t>(*r.time_units);
  c.memory = memory.stats();
  c.line_memory = memory.line_stats();
  return c;
}

}  // namespace

RunCounts count_warm(const GpuProfile& profile, std::uint32_t element_bytes,
                     const std::function<RunStats(const EngineOptions&)>& run, unsigned threads,
                     bool caches_on_threads) {
  GpuMemoryParams params = profile.memory;
  params.element_bytes = element_bytes;
  const GpuGlobalMemory memory(profile.machine.w, profile.machine.L, params, caches_on_threads);
  EngineOptions options;
  options.threads = threads;
  options.global_memory = &memory;
  run(options);  // warms the cache
  memory.reset_counters();
  const RunStats stats = run(options);
  return counts_of(stats, memory);
}

RunCounts count_microbench(const GpuProfile& profile, const Microbench& bench) {
  const Machine machine(profile.machine);
  const Program program = microbench_program(bench);
  return count_warm(profile, bench.element_bytes, [&](const EngineOptions& options) {
    Engine engine(machine.view(), options);
    for (const ArrayDecl& a : program.arrays) engine.add_array(a);
    for (const Kernel& k : program.kernels) engine.launch(k);
    return engine.stats();
  });
}

AlgorithmCounts count_algorithm(const GpuProfile& profile, const AlgorithmEntry& entry, ParamValues given,
                                std::uint32_t element_bytes, unsigned threads) {
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
  AlgorithmCounts out;
  out.counts = count_warm(
      profile, element_bytes,
      [&](const EngineOptions& options) {
        out.report = run_algorithm(entry, given, options);
        return out.report.stats;
      },
      threads, resolve_threads(threads) >= 3);
  return out;
}

double predicted_ms(const FittedModel& model, const RunCounts& counts) {
  const std::vector<double> f = features(model.model, counts);
  double ms = 0;
  for (std::size_t i = 0; i < f.size() && i < model.constants.size(); ++i) ms += model.constants[i] * f[i];
  return ms;
}

}  // namespace mmsim::predict
