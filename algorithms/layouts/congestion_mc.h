// Monte Carlo estimate of the expected congestion of a warp access under a random layout
// (NMI Sect. V, VII): fresh layout and fresh access every trial.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim::layouts {

struct CongestionQuery {
  int dims = 2;  ///< 2: w x w matrix; 4: w^4 array
  std::string layout = "rap";
  std::string pattern = "random";
  std::uint32_t w = 32;
  std::uint64_t trials = 100000;
  std::uint64_t seed = 1;
  /// Host threads that run the trials' blocks; 0: every core. The numbers do not depend on it.
  unsigned threads = 0;

  /// Throws InputError ("param: rule") for a bad name, width or trial count.
  void validate() const;
};

struct CongestionStats {
  std::uint64_t trials = 0;
  double mean = 0;
  double stderr_mean = 0;  ///< sample standard deviation / sqrt(trials); 0 for one trial
  int min = 0, max = 0;
  std::vector<std::uint64_t> histogram;  ///< histogram[c] = trials with congestion c (c = 0 .. max)
  double seconds = 0;                    ///< wall time of the trials alone
  unsigned threads = 1;                  ///< host threads that ran them

  double accesses_per_second() const { return seconds > 0 ? static_cast<double>(trials) / seconds : 0; }
};

/// Trials run in blocks of this many: block b draws from a stream of its own, seeded from (seed, b),
/// and the blocks are spread over the threads. So a seed gives the same numbers on every platform
/// and for every thread count.
inline constexpr std::uint64_t kBlockTrials = 4096;

/// Runs the trials of `q` (validated first), on q.threads host threads.
CongestionStats simulate_congestion(const CongestionQuery& q);

/// Largest trials x w the CLI accepts (keeps one command within about a minute).
inline constexpr std::uint64_t kMaxWork2 = std::uint64_t{1} << 34;
inline constexpr std::uint64_t kMaxWork4 = std::uint64_t{1} << 31;

}  // namespace mmsim::layouts
