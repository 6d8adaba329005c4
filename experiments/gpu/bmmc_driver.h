// `mmsim gpu bmmc`: random BPC, random BMMC and bit-reversal permutations on the GPU with the naive
// and tiled kernels of BDS, from 2^20 to 2^30 floats, timed against a copy in the same run
// and checked cell by cell; the tables of BDS Fig. 9-11 and the matrices used.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuda/bmmc/gpu_bmmc.h"
#include "report/table.h"

namespace mmsim::gpu::bmmc {

struct BmmcOptions {
  int min_bits = 20, max_bits = 30;
  std::uint64_t seed = 1;
  int warmup = kWarmups, runs = 20;
  double budget_s = 55;  ///< no new size is started that would end past it
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());  ///< host threads for the check

  /// The first bad field and its rule, or nothing.
  std::optional<std::string> validate() const;
};

/// One (size, permutation, kernel) run.
struct BmmcRow {
  int bits = 0;
  std::string perm, kernel, overlap;
  int passes = 0, iters = 0;
  Timing t;
  double copy_ms = 0;
  std::uint64_t mismatches = 0;
  std::string first_mismatch;
  double goal_pct = 0;
  double pct() const { return 100.0 * passes * copy_ms / t.median_ms; }
};

struct BmmcRun {
  std::string device;  ///< device_summary of the GPU
  std::vector<BmmcRow> rows;
  std::vector<int> sizes;          ///< log2 n of the sizes measured
  std::vector<std::string> perms;  ///< the permutations, in table order
  std::vector<std::string> notes;  ///< sizes skipped and why, a wrong copy
  std::string matrices;            ///< every matrix used, as text (bmmc-matrices.txt)
  bool failed = false;             ///< some output cell was wrong
  double seconds = 0;
};

/// Runs the sweep (options already valid), with one progress line per run on stderr. Throws GpuError.
BmmcRun run_bmmc(const BmmcOptions& o);

/// bmmc.md is pct, ms and speed in that order; bmmc.csv is csv.
struct BmmcTables {
  report::Table pct, ms, speed, csv;
};
BmmcTables bmmc_tables(const BmmcOptions& o, const BmmcRun& run);

}  // namespace mmsim::gpu::bmmc
