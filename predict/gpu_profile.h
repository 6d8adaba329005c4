// Folder predict/ (target mmsim::predict): GPU time from simulation. It owns the GPU profile (this
// header), the cost models (cost_model.h), the calibration microbenchmarks as simulator programs
// (microbench*.h), the warm, counted run of a program or an algorithm on the profile's machine
// (simulate.h), the counts file, and the validation against measured GPU tables (validate/). It may
// include sim/, models/, io/, report/ and algorithms/ (and Eigen, privately, for the fits).
//
// A GPU profile: the constants of each cost model (predict/cost_model.h), fitted on the calibration
// microbenchmarks alone (predict/microbench.h), with the GPU they were measured on. Written by
// `mmsim gpu calibrate` as results/gpu-<device>/profile-<device>.json, read by `mmsim predict`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/gpu_memory/gpu_memory.h"
#include "models/machines.h"
#include "predict/cost_model.h"
#include "predict/gpu_facts.h"
#include "predict/microbench.h"
#include "report/json.h"

namespace mmsim::predict {

/// One model's constants and how well they fit the microbenchmarks (relative errors
/// predicted / measured - 1).
struct FittedModel {
  CostModel model = CostModel::SectorsReadWriteCache;
  std::vector<double> constants;  ///< ms per unit of each feature (constant_names order), all >= 0
  double median_abs_error = 0, worst_abs_error = 0;
};

/// One L2 capacity fit_cache_capacity simulated, and how well each model then fitted the
/// microbenchmarks: the mean over them of |ln(predicted / measured)|, in kCostModels order.
struct CacheCandidate {
  std::uint64_t cache_bytes = 0;
  std::vector<double> mean_abs_log_error;
};

struct GpuProfile {
  GpuFacts gpu;
  std::string device;      ///< the slug of the file name: h100, h200, ...
  std::string date;        ///< of the calibration, YYYY-MM-DD
  MachineParams machine;   ///< the HMM the runs are simulated on: w = 32, l = 1, k = the SMs
  GpuMemoryParams memory;  ///< sector and cache sizes (element_bytes set per run)
  std::vector<FittedModel> models;
  std::vector<MicrobenchTiming> timings;  ///< what the constants were fitted on
  std::vector<RunCounts> timing_counts;   ///< their simulated counts (after a fit; not in the file)
  std::vector<CacheCandidate> cache_fit;  ///< the capacities tried (empty: memory.cache_bytes is the L2's size)

  const FittedModel& model(CostModel m) const;  ///< throws std::invalid_argument if absent
};

/// The machine and memory a profile simulates on, from what the calibration read of the GPU.
GpuProfile profile_skeleton(const GpuFacts& gpu, std::string device, std::string date);

/// Simulates each microbenchmark on the profile's machine and fits every cost model to the
/// timings: non-negative least squares on relative errors. Throws std::invalid_argument when a
/// timing is not positive. `threads` microbenchmarks are simulated at a time (0: every core).
void fit_profile(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, unsigned threads = 0);

/// The L2 capacity the simulated cache is given, fitted on the microbenchmarks alone: fit_profile
/// with memory.cache_bytes at each of 1/8, 2/8, ..., 8/8 of the GPU's L2, keeping the capacity at
/// which kCacheFitCostModel fits best by mean |ln(predicted / measured)| (ties: the larger). The
/// reported L2 need not be what a random walk over a large array finds: an H100's L2 is two halves,
/// and the microbenchmarks of 16 to 128 MiB (calibration_set) show how much of it such a walk gets.
/// Every capacity tried is kept in profile.cache_fit. Costs eight fits.
void fit_cache_capacity(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, unsigned threads = 0);

/// A run's counts as a JSON object, and what each of the profile's models predicts from them (ms
/// by model name): what `mmsim predict --json` and the profile file's microbenchmarks print.
report::Json counts_json(const RunCounts& counts);
report::Json predictions_json(const GpuProfile& profile, const RunCounts& counts);

/// The profile as JSON, and back. read_profile throws std::invalid_argument naming the file and
/// the field for anything missing or malformed.
std::string profile_json(const GpuProfile& profile);
GpuProfile read_profile(const std::filesystem::path& file);

/// What `mmsim gpu calibrate` calls after timing: fits the constants and the L2's capacity
/// (fit_cache_capacity) and writes out_dir/profile-<device>.json (atomically); returns the path
/// written.
std::filesystem::path write_profile_from_calibration(const std::filesystem::path& out_dir, const std::string& device,
                                                     const GpuFacts& gpu, const std::vector<MicrobenchTiming>& timings,
                                                     unsigned threads = 0);

}  // namespace mmsim::predict
