// The engine's speed: simulated thread-requests per second, on one core and on several.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim::cli {

struct BenchResult {
  std::string what;
  unsigned threads = 1;  ///< host threads the engine was given
  std::uint64_t requests = 0;
  double seconds = 0;         ///< the whole run: set-up, simulation, closed form, output check
  double engine_seconds = 0;  ///< the engine's launches alone
  double requests_per_second() const { return seconds > 0 ? static_cast<double>(requests) / seconds : 0; }
  double engine_requests_per_second() const {
    return engine_seconds > 0 ? static_cast<double>(requests) / engine_seconds : 0;
  }
};

/// D-designated random permutation on the HMM (w = 32, L = 100, k = 8), `repeats` times each, the
/// fastest run kept: round-synchronous on one thread, round-synchronous on `threads` (when more than
/// one; the two interleaved run by run, so that a machine shared with others loads both alike), and
/// asynchronous (always one thread). Throws std::logic_error if the runs on one and on `threads`
/// threads differ in time units or rounds.
std::vector<BenchResult> bench_engine(std::uint64_t n, int repeats, unsigned threads = 1);

}  // namespace mmsim::cli
