// `mmsim gpu parm`: BDS Sect. 7's parm sorting network on the GPU, direct and through each BMMC
// kernel, on fresh random 32-bit keys, every output cell checked against std::sort, timed, beside
// the simulator's run of the same network (time units on the parm-sort table's HMM).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuda/harness/timer.h"
#include "report/table.h"

namespace mmsim::gpu::bmmc {

struct ParmOptions {
  int min_bits = 12, max_bits = 24;
  int sim_max_bits = 16;  ///< sizes above it get no simulated run (0: none)
  std::uint64_t seed = 1;
  int warmup = kWarmups, runs = 10;
  bool ncu_launches = false;  ///< each variant launched once per size, untimed (for Nsight Compute)
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());  ///< host threads (check, simulation)

  /// The first bad field and its rule, or nothing.
  std::optional<std::string> validate() const;
};

/// One (size, variant) run.
struct ParmRow {
  int bits = 0;
  std::string variant;
  int launches = 0;
  Timing t;
  bool simulated = false;
  long long sim_time_units = 0, sim_launches = 0;
  std::uint64_t mismatches = 0;
  std::string first_mismatch;
};

struct ParmRun {
  std::string device;
  std::vector<ParmRow> rows;
  std::vector<std::string> notes;
  bool failed = false;  ///< a wrong output cell, or launches that differ from the simulator's
  double seconds = 0;
};

/// Runs the sweep (options already valid), one progress line per run on stderr. Throws GpuError.
ParmRun run_parm(const ParmOptions& o);

/// parm-gpu.md (md) and parm-gpu.csv (csv, one row per run).
struct ParmTables {
  report::Table md, csv;
};
ParmTables parm_tables(const ParmOptions& o, const ParmRun& run);

}  // namespace mmsim::gpu::bmmc
