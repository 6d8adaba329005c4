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
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/gpu_memory/gpu_memory.h"
#include "models/machines.h"
#include "predict/cost_model.h"
#include "predict/gpu_facts.h"
#include "predict/instruction_cost.h"
#include "predict/microbench.h"
#include "predict/model_choice.h"
#include "report/json.h"

namespace mmsim::predict {

/// One L2 capacity fit_cache_capacity simulated, and how well each model then fitted the
/// microbenchmarks: the mean over them of |ln(predicted / measured)|, by model name.
struct CacheCandidate {
  std::uint64_t cache_bytes = 0;
  std::vector<std::pair<std::string, double>> mean_abs_log_error;

  /// The error of the model named `model`, or nullopt when it was not fitted at this capacity.
  std::optional<double> error_of(std::string_view model) const;
};

/// One pass of a calibration fitted alone (fit_cache_capacity with passes): the L2 capacity it
/// chose, the model cross-validation chose, and every model's constants. The spread of these over
/// the passes is how far one calibration run's constants can be trusted.
struct CalibrationPass {
  std::uint64_t cache_bytes = 0;
  std::string chosen;
  struct Constant {
    std::string model, constant;
    double ms = 0;
  };
  std::vector<Constant> constants;
};

/// One constant over the passes: its median, least and greatest value.
struct ConstantSpread {
  std::string model, constant;
  double profile_ms = 0;  ///< the profile's own (fitted on the pooled timings)
  double median_ms = 0, min_ms = 0, max_ms = 0;
};

/// The instruction term a profile carries (predict/instruction_cost.h): what a warp's instructions
/// besides its memory accesses cost on this GPU, fitted by `mmsim fit-instructions` on a GPU
/// folder's instruction microbenchmarks (a launch of many at this profile's SM clock, less its empty
/// launch). `mmsim predict --kernel` prices a kernel's declared instructions with it.
struct InstructionTerm {
  InstructionCosts costs;
  std::string fitted_on;  ///< the microbenchmarks it was fitted on, in words
};

struct GpuProfile {
  GpuFacts gpu;
  std::string device;                     ///< the slug of the file name: h100, h200, ...
  std::string date;                       ///< of the calibration, YYYY-MM-DD
  MachineParams machine;                  ///< the HMM the runs are simulated on: w = 32, l = 1, k = the SMs
  GpuMemoryParams memory;                 ///< sector and cache sizes (element_bytes set per run)
  std::vector<CostModel> models;          ///< what each model prices, and its constants
  std::vector<MicrobenchTiming> timings;  ///< what the constants were fitted on
  /// Their simulated counts: after a fit, or as the file records them (empty when it records
  /// only some of the counts, as files written before the counts were data do).
  std::vector<RunCounts> timing_counts;
  std::vector<CacheCandidate> cache_fit;  ///< the capacities tried (empty: memory.cache_bytes is the L2's size)
  /// Each model cross-validated on the microbenchmarks, and the one chosen (model_choice.h): made
  /// by a fit, and on reading a file that records the counts (empty otherwise).
  ModelChoice choice;
  /// Each pass of the calibration fitted alone (empty: a calibration of one pass, or a file written
  /// before passes were recorded).
  std::vector<CalibrationPass> passes;
  /// The instruction term (nullopt: the profile prices memory alone, as every profile written before
  /// the term was, and one whose GPU folder has no instruction microbenchmarks).
  std::optional<InstructionTerm> instruction_term;

  /// The model named `name`; throws std::invalid_argument naming the models the profile has.
  const CostModel& model(std::string_view name) const;
  /// The model `mmsim predict` uses unless told: the cross-validated choice, else kDefaultCostModel.
  std::string default_model() const;
};

/// The machine and memory a profile simulates on, from what the calibration read of the GPU.
GpuProfile profile_skeleton(const GpuFacts& gpu, std::string device, std::string date);

/// Simulates each microbenchmark on the profile's machine and fits the cost models to the timings:
/// non-negative least squares on relative errors. The models fitted are fitted_models() and then
/// any other model the profile holds, with the counts it prices (a model added to a profile file
/// by hand is fitted as those are). Throws std::invalid_argument when a timing is not positive.
/// `threads` microbenchmarks are simulated at a time (0: every core).
void fit_profile(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, unsigned threads = 0);

/// fit_profile without simulating: the constants fitted again on the counts the profile records
/// (timing_counts, one per timing), as after a change of the cost models that left the memory as it
/// was. Throws std::invalid_argument when the profile records no complete counts.
void refit_recorded(GpuProfile& profile);

/// The L2 capacity the simulated cache is given, fitted on the microbenchmarks alone: fit_profile
/// with memory.cache_bytes at each of 1/8, 2/8, ..., 8/8 of the GPU's L2, keeping the capacity at
/// which kCacheFitCostModel fits best by mean |ln(predicted / measured)| (ties: the larger). The
/// reported L2 need not be what a random walk over a large array finds: an H100's L2 is two halves,
/// and the microbenchmarks of 16 to 128 MiB (calibration_set) show how much of it such a walk gets.
/// Every capacity tried is kept in profile.cache_fit. Costs eight simulations of the microbenchmarks.
/// With `passes` (the timings of each pass, pooled into `timings`: pool_passes), each pass is also
/// fitted alone on the same simulated counts, capacity included, into profile.passes.
void fit_cache_capacity(GpuProfile& profile, const std::vector<MicrobenchTiming>& timings, unsigned threads = 0,
                        const std::vector<std::vector<MicrobenchTiming>>& passes = {});

/// Every constant of every model over profile.passes (empty without passes), in the profile's order.
std::vector<ConstantSpread> constant_spread(const GpuProfile& profile);

/// A run's counts as a JSON object, and what each of the profile's models predicts from them (ms
/// by model name): what `mmsim predict --json` and the profile file's microbenchmarks print.
report::Json counts_json(const RunCounts& counts);
report::Json predictions_json(const GpuProfile& profile, const RunCounts& counts);

/// The profile as JSON, and back: each model as its list of priced counts (constant, count, ms per
/// unit). read_profile also reads the files written before (each model's constants by name, the
/// counts implied by its name): a model of fitted_models() is read with its counts, one no longer
/// fitted (docs/prediction.md) is left out. It throws std::invalid_argument naming the file and
/// the field for anything missing or malformed.
std::string profile_json(const GpuProfile& profile);
/// The instruction term as the profile file holds it: {"fitted_on", "rule", "lone", "many",
/// "lone_outside_median_abs_error", "lone_outside_benches"}, each setting with its form, its cycles
/// per instruction, per shared access and per extra slot, and its errors fitted and held out.
report::Json instruction_term_json(const InstructionTerm& term);
GpuProfile read_profile(const std::filesystem::path& file);

/// What `mmsim gpu calibrate` calls after timing: fits the constants and the L2's capacity
/// (fit_cache_capacity) and writes out_dir/profile-<device>.json (atomically); returns the path
/// written.
std::filesystem::path write_profile_from_calibration(const std::filesystem::path& out_dir, const std::string& device,
                                                     const GpuFacts& gpu, const std::vector<MicrobenchTiming>& timings,
                                                     unsigned threads = 0,
                                                     const std::vector<std::vector<MicrobenchTiming>>& passes = {});

}  // namespace mmsim::predict
