// GPU time of a kernel of one's own (kernels/kernel_spec.h), priced exactly as a registry algorithm
// is (simulate.h): the program runs twice on the profile's machine with the GPU-like global memory,
// the first run warming the L2, and the profile's cost model prices the counts of the second. The
// counts are kept per round (GpuMemoryHierarchy::track_rounds), so that each step of each kernel
// gets its own share of the time: which step costs what, and why (its slots, its congestion or bank
// conflicts, its sectors per request, how much of it the L2 served, what it moved from DRAM).
//
// Given a SamplingOptions, the run is sampled as `mmsim predict ALGORITHM` samples one
// (predict/sampled.h, run_sampled): the program runs once, the L2 and DRAM serve the sectors of a
// seeded part of the DRAM rows twice, and each round's L2 and DRAM counts are its recorded sectors'
// scaled up; the coalescer's and shared memory's counts stay whole. The predicted ms then carries
// a 95 % interval. A run within the sample budget is simulated whole: the exact prediction.
//
// A cost model is linear in the counts (cost_model.h), so a kernel's time is its launch's constant
// plus its steps' times, and the program's the sum of its kernels'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/kernel_spec.h"
#include "predict/cost_model.h"
#include "predict/gpu_profile.h"
#include "predict/sampled.h"
#include "report/json.h"
#include "report/table.h"
#include "sim/engine.h"

namespace mmsim::predict {

/// One memory step (one round) of one kernel.
struct StepPrediction {
  std::string kernel, step;
  std::string array;
  Space memory = Space::Global;
  Op op = Op::Read;
  std::uint64_t requests = 0;                   ///< thread requests before merging
  std::uint64_t warps = 0;                      ///< warp accesses with at least one request
  std::uint64_t slots = 0;                      ///< pipeline slots: sectors (global) or bank passes (shared)
  int congestion = 0;                           ///< the most slots one warp took
  std::optional<std::uint64_t> bank_conflicts;  ///< shared: Nsight Compute's count (sim/stats.h)
  std::optional<double> sectors_per_request;    ///< global: sectors per warp access
  std::optional<double> l2_hit_rate;            ///< global: sectors the L2 served / sectors requested
  std::uint64_t dram_bytes = 0;                 ///< global: (DRAM reads + writes) x sector bytes
  RunCounts counts;                             ///< what the step alone counted (launches 0)
  double ms = 0;                                ///< what the model charges for those counts
  double ms_ci95 = 0;                           ///< half the width of ms' 95 % interval, when sampled
  double share = 0;                             ///< ms / the kernel's ms
};

struct KernelPrediction {
  std::string name;
  double ms = 0;  ///< the model's price of `counts`; with the instruction term, launch_ms + max(memory, instructions)
  RunCounts counts;      ///< the launch's counts (launches 1)
  double launch_ms = 0;  ///< of which the launch's constant (no step's)
  std::vector<StepPrediction> steps;
  /// With the instruction term (ProgramPrediction::instructions_priced): each warp's instructions
  /// (those its steps declare, and one for each memory step), the busiest SM's cycles for its warps
  /// at the profile's SM clock, and what the model charges its steps.
  double warp_instructions = 0;
  double instruction_ms = 0;
  double memory_ms = 0;
  /// The factor of the kernel's interval (0: none, the profile records no cross-validation of the
  /// model): the model's, and with the instruction term the largest of it and the term's two
  /// settings' (the kernel is a maximum of parts each within its own factor).
  double interval_factor = 0;
};

struct ProgramPrediction {
  std::string source;     ///< the kernel file, "Python", ...
  std::string profile;    ///< the GPU and its profile, in words
  std::string model;      ///< the cost model priced with
  double ms = 0;          ///< the model's price of `counts`, as `mmsim predict` gives an algorithm's
  RunCounts counts;       ///< the whole counted run
  MachineParams machine;  ///< what it ran on: the profile's machine
  std::uint32_t sector_bytes = 32;
  std::vector<KernelPrediction> kernels;
  /// How the L2 and DRAM were simulated: every sector (exact), or a sample (predict/sampled.h)
  /// asked for with `sampling`; `sampled` holds the fraction and the interval (sampled.counts is
  /// `counts`; shift 0 and no interval when exact or within the budget).
  bool exact = true;
  SamplingOptions sampling;
  SampledCounts sampled;
  double ms_ci95 = 0;  ///< half the width of the 95 % interval of `ms` (0 when nothing was left out)
  /// Whether the kernels' declared instructions were priced (some step declares instructions, and
  /// the profile carries an instruction term), and in words what became of them ("" when no step
  /// declares any).
  bool instructions_priced = false;
  std::string instructions;
  /// The interval that held for kIntervalCoverage of the held-out microbenchmark predictions: each
  /// kernel's ms over and times its factor, summed (both 0 when some kernel has no factor).
  double interval_low_ms = 0, interval_high_ms = 0;
};

/// The limits of one CUDA block on the GPUs profiled (compute capability 9.0): threads, and bytes of
/// shared memory (the opt-in maximum; 48 KiB without cudaFuncSetAttribute).
inline constexpr std::uint32_t kMaxGpuThreadsPerBlock = 1024;
inline constexpr std::uint64_t kMaxGpuSharedBytesPerBlock = 227 * 1024;

/// The description moved onto the profile's machine: the profile's w, l, L and k, the file's
/// extensions. Throws InputError naming the source, the kernel and the rule when it cannot run
/// there: not an HMM, another warp width, a block of more threads or shared bytes than the GPU's.
kernels::ProgramSpec on_profile_machine(const GpuProfile& profile, const kernels::ProgramSpec& spec);

/// What the instruction term needs of one launch: its shape, and per warp the instructions its
/// steps declare, its memory steps and how many of them are shared.
struct KernelWork {
  std::uint64_t blocks = 1;
  std::uint32_t threads_per_block = 32;
  double declared = 0;      ///< warp instructions the steps declare, besides their memory instructions
  double memory_steps = 0;  ///< reads, writes and atomics: one warp instruction each
  double shared_steps = 0;  ///< of which on shared arrays
};

/// Each kernel's work, in order.
std::vector<KernelWork> kernel_work(const kernels::ProgramSpec& spec);

/// The instruction term on a prediction (docs/your-kernel.md, "Instructions besides memory"): when
/// some launch declares instructions and the profile carries the term, each kernel's warps are
/// spread evenly over the SMs, the busiest SM's cycles for them are the term's (sm_cycles: the
/// larger of a warp alone and the SM's throughput for its warps, shared accesses and extra bank
/// slots included) at the profile's SM clock, and the kernel takes its launch plus the larger of
/// that and its memory steps' time: a warp's instructions and its memory requests overlap, each
/// bounding the kernel from below. `work` has one entry per kernel of `p`.
void price_instructions(ProgramPrediction& p, const GpuProfile& profile, const std::vector<KernelWork>& work);

/// Predicts a described program on the profile's GPU with `model` ("": the profile's default,
/// GpuProfile::default_model()). Throws InputError for a description that cannot run (kernels::validate,
/// on_profile_machine) or a model the profile does not hold. `threads` host threads simulate.
/// `sampling` nullopt simulates every sector (run_warm), else a sample of the DRAM rows (run_sampled).
/// Declared instructions are priced by price_instructions.
ProgramPrediction predict_program(const GpuProfile& profile, const kernels::ProgramSpec& spec, const std::string& model,
                                  unsigned threads = 0, const std::optional<SamplingOptions>& sampling = std::nullopt);

/// The same for any run: `run` performs the launches on an engine made with the options given (on
/// the profile's machine, which the caller builds), launch i having rounds_per_launch[i] memory
/// steps. What the Python module's Engine is predicted with.
ProgramPrediction predict_launches(const GpuProfile& profile, const std::string& source, const std::string& model,
                                   const std::function<RunStats(const EngineOptions&)>& run,
                                   const std::vector<std::size_t>& rounds_per_launch, unsigned threads = 0,
                                   const std::optional<SamplingOptions>& sampling = std::nullopt);

/// The profile's model named `model` ("" for the default), or InputError naming the models it has.
const CostModel& model_or_input_error(const GpuProfile& profile, const std::string& model);

/// The program's ms by each of the profile's models, as `mmsim predict --kernel --json` gives
/// predicted_ms_by_model: each kernel's counts priced by the model, its memory steps against its
/// instructions where those were priced (the instruction term does not depend on the model).
report::Json predictions_json(const GpuProfile& profile, const ProgramPrediction& p);

/// " (interval LOW - HIGH ms)", the words every table of a program's prediction puts after its
/// ms, or "" where the profile records no cross-validation.
std::string interval_words(const ProgramPrediction& p);
/// Sets "interval_ms" ([LOW, HIGH]) and "interval_coverage" in `out`, both null without an interval.
void set_interval_json(report::Json& out, const ProgramPrediction& p);

/// Per kernel: ms, share of the program, launch ms and the counts the models price.
report::Table kernels_table(const ProgramPrediction& p);
/// Per step, one table: slots, congestion, bank conflicts, requests, sectors per request, L2 hit
/// rate, DRAM bytes, ms and share of its kernel's time.
report::Table steps_table(const ProgramPrediction& p);
/// {"source", "profile", "model", "machine", "predicted_ms", "predicted_ms_ci95", "sampling",
///  "counts", "counts_ci95", "kernels": [{"name", "predicted_ms", "launch_ms", "counts",
///  "steps": [{...as steps_table, "counts"}]}]}; "sampling" and the *_ci95 as `mmsim predict` gives
///  them for an algorithm (sampling_json, counts_ci95_json); each kernel's "memory_ms",
///  "instruction_ms", "warp_instructions" (null unless the instruction term priced them) and
///  "interval_factor"; "instructions" (what became of declared instructions, or null) and
///  "interval_ms" with "interval_coverage" (null without a cross-validated model).
report::Json prediction_json(const ProgramPrediction& p);

}  // namespace mmsim::predict
