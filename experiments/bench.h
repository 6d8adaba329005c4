// The engine's speed: simulated thread-requests per second on one core.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim::experiments {

struct BenchResult {
  std::string what;
  std::uint64_t requests = 0;
  double seconds = 0;         ///< the whole run: set-up, simulation, closed form, output check
  double engine_seconds = 0;  ///< the engine's launches alone
  double requests_per_second() const { return seconds > 0 ? static_cast<double>(requests) / seconds : 0; }
  double engine_requests_per_second() const {
    return engine_seconds > 0 ? static_cast<double>(requests) / engine_seconds : 0;
  }
};

/// D-designated random permutation on the HMM (w = 32, L = 100, k = 8), round-synchronous and
/// asynchronous, `repeats` times each, the fastest run kept.
std::vector<BenchResult> bench_engine(std::uint64_t n, int repeats);

}  // namespace mmsim::experiments
