// `mmsim gpu sorting`: the Afshani-Sitchinava kernels (gpu_sorting.h) over the w = 32 shapes of the
// simulator's as-bounds table, fresh random input per instance, every output cell checked on the
// CPU, cycles per instance beside the simulator's steps for the same (w, m); and the Nsight Compute
// side: one single-instance launch per shape to profile, and the table that puts the counters
// beside the simulator's bank conflicts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/sorting/gpu_sorting.h"
#include "report/table.h"

namespace mmsim::gpu::sorting {

struct SortingOptions {
  std::uint32_t min_m = 4, max_m = 2048;  ///< as-bounds at w = 32: m = w/8 .. 64w
  std::uint64_t seed = 1;                 ///< instance b draws its input with seed + b (b = 0: the simulator's run)
  int warmup = kWarmups, runs = 20;
  std::uint32_t max_instances = 0;  ///< 0: one full wave (SMs x instances per SM)

  /// The first bad field and its rule, or nothing.
  std::optional<std::string> validate() const;
};

/// One (algorithm, m) measurement.
struct SortingRow {
  std::string algorithm;
  std::uint32_t m = 0, instances = 0;
  std::int64_t sim_steps = 0, sim_time_units = 0;
  double cycles = 0;        ///< median over instances of clock64() around the algorithm, full wave
  double cycles_alone = 0;  ///< the same with one instance on the whole GPU
  Timing timing;            ///< the full-wave launch
  std::uint64_t mismatches = 0;
  bool sim_correct = false;
};

struct SortingRun {
  std::string device;
  std::vector<SortingRow> rows;
  std::vector<std::string> notes;  ///< shapes skipped and why
  bool failed = false;             ///< some output cell (GPU or simulator) was wrong
  double seconds = 0;
};

/// Runs the sweep (options already valid), one progress line per shape on stderr. Throws GpuError.
SortingRun run_sorting(const SortingOptions& o);

/// as-gpu.md and as-gpu.csv: one tidy table (one row per algorithm and shape).
report::Table sorting_table(const SortingOptions& o, const SortingRun& run);

/// What Nsight Compute profiles: for every algorithm and m of the options that fits, one launch of
/// one instance (seed o.seed, the simulator's input), in this order.
struct ProfiledLaunch {
  Algo algo;
  std::uint32_t m;
};
std::vector<ProfiledLaunch> profiled_launches(const SortingOptions& o);
/// The m of those launches, ascending: after them, one launch per m copies an instance in and out
/// with no algorithm between (run_copy_only), so that ncu counts what the copies add.
std::vector<std::uint32_t> profiled_copies(const SortingOptions& o);
/// Runs them, each checked, then the copies; returns how many outputs were wrong.
int run_profiled_launches(const SortingOptions& o);
/// as-ncu.md: ncu's --csv output of run_profiled_launches (kernels matched by launch ID, in order)
/// beside the simulator's bank conflicts of the same runs. Throws InputError on an unreadable file.
report::Table sorting_ncu_table(const SortingOptions& o, const std::string& ncu_csv);

}  // namespace mmsim::gpu::sorting
