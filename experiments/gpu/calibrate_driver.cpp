// The timing and checking loop of `mmsim gpu calibrate` (experiments/gpu/calibrate_driver.h).
#include "experiments/gpu/calibrate_driver.h"

#include <algorithm>
#include <cstdio>

#include "cuda/calibrate/gpu_calibrate.h"
#include "cuda/harness/device.h"
#include "cuda/harness/poison.h"
#include "predict/microbench_reference.h"

namespace mmsim::gpu::calibrate {

namespace {

// b after the runs, checked against the bench's semantics; the poison is what no run wrote.
template <typename T>
predict::OutputCheck check(Runner& runner, const predict::Microbench& m) {
  std::vector<T> b(predict::microbench_output_size(m));
  runner.fetch(b.data(), b.size() * sizeof(T));
  T poison_value;
  std::fill_n(reinterpret_cast<unsigned char*>(&poison_value), sizeof(T), kPoisonByte);
  return predict::check_output(m, std::span<const T>(b), poison_value);
}

}  // namespace

std::vector<std::vector<predict::MicrobenchTiming>> run_calibration(const std::vector<predict::Microbench>& benches,
                                                                    int passes) {
  std::uint64_t capacity = 0;
  for (const auto& m : benches)
    capacity = std::max({capacity, predict::microbench_input_size(m) * m.element_bytes,
                         predict::microbench_output_size(m) * m.element_bytes});
  Runner runner(std::max<std::uint64_t>(capacity, 256));
  std::vector<std::vector<predict::MicrobenchTiming>> out(static_cast<std::size_t>(std::max(passes, 1)));
  for (std::size_t pass = 0; pass < out.size(); ++pass)
    for (const auto& m : benches) {
      const Timing t = runner.run(m, {kWarmups, kRuns});
      const predict::OutputCheck c =
          m.element_bytes == 8 ? check<std::uint64_t>(runner, m) : check<std::uint32_t>(runner, m);
      out[pass].push_back({m, t.median_ms, t.min_ms, t.max_ms, t.runs, c.wrong == 0});
      std::fprintf(stderr, "pass %zu/%zu %-24s n=%-9llu %uB %10.5f ms  %s\n", pass + 1, out.size(), m.name().c_str(),
                   static_cast<unsigned long long>(m.n), m.element_bytes, t.median_ms,
                   c.wrong ? ("WRONG: " + std::to_string(c.wrong) + " cells, first " + std::to_string(c.first)).c_str()
                           : "checked");
    }
  return out;
}

predict::GpuFacts gpu_facts() {
  const DeviceInfo d = device_info();
  return {d.name, d.sm_count, d.l2_bytes, d.sm_clock_khz, d.memory_clock_khz, d.bus_width_bits};
}

}  // namespace mmsim::gpu::calibrate
