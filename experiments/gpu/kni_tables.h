// The GPU tables: KNI Table 2 on this GPU, the benchmark table (GB/s and % of copy of every
// kernel, with the speed goals), and the simulator-vs-GPU validation of KNI Sect. 8.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/permutations/permutation.h"
#include "cuda/gpu.h"
#include "report/table.h"

namespace mmsim::gpu {

struct SweepOptions {
  /// KNI Table 2 measures double from sqrt(n) = 256 and float from 512: the sweep starts at the
  /// smaller, so that every column of the paper has a measured row beside it (float at 256 is
  /// measured too, with no paper ratio).
  std::uint32_t min_side = 256, max_side = 16384;
  /// The schedule's host precomputation grows as n log n: 4096 (n = 2^24, the goals' smallest
  /// n) keeps gpu-reproduce inside one 10-minute call.
  std::uint32_t max_scheduled_side = 4096;
  std::vector<Elem> elems{Elem::F32, Elem::F64};
  int runs = 20;
  unsigned host_threads = 8;
  std::uint64_t seed = 1;
  bool verbose = true;  ///< progress lines on stderr
};

/// One measured kernel of the sweep.
struct SweepRow {
  Elem elem = Elem::F32;
  std::uint32_t side = 0;
  std::string permutation;  ///< "-" for the copy
  std::string algorithm;
  Measure m;
  double copy_ms = 0;  ///< the copy of the same n and type, measured in the same run
  std::string note;
};

struct Sweep {
  DeviceInfo device;
  SweepOptions options;
  std::vector<SweepRow> rows;
  std::vector<std::string> notes;  ///< sizes skipped and why, schedule precomputation times
};

/// Runs every kernel at every size; throws GpuError on a CUDA failure. `after_size`, if given, sees
/// the sweep so far after each size (so a run stopped by a time limit leaves its tables).
Sweep run_sweep(const SweepOptions& o, const std::function<void(const Sweep&)>& after_size = {});

report::Table kasagi_t2_table(const Sweep& s);
report::Table bench_table(const Sweep& s);
report::Table device_table(const DeviceInfo& d);
/// True when every kernel's output matched the CPU reference.
bool all_correct(const Sweep& s);

struct RunOneOptions {
  Permutation perm;
  Elem elem = Elem::F32;
  std::optional<std::string> schedule_file;  ///< written by `mmsim schedule`; else computed here
  int runs = 20;
};
/// Copy, D-, S-designated and both scheduled versions for one permutation.
report::Table run_one_table(const RunOneOptions& o);

}  // namespace mmsim::gpu
