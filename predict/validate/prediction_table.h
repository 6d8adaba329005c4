// `mmsim validate`: the GPU's measured times (the CSVs `mmsim gpu reproduce` writes) beside the
// times a GPU profile predicts by simulating the same runs (predict/), with the error of every
// cost model, so that each extension of the machine shows what it changed. Needs no GPU.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/params.h"
#include "predict/copy_cost.h"
#include "predict/counts_file.h"
#include "predict/gpu_profile.h"
#include "predict/instruction_cost.h"
#include "predict/sampled.h"
#include "predict/simulate.h"
#include "predict/tile_cost.h"
#include "report/table.h"

namespace mmsim::predict {

/// How a simulated run's counts become a predicted time (predict/cost_model.h).
enum class Pricing : std::uint8_t {
  WholeRun,    ///< every count the model prices: the GPU timed whole launches
  SharedOnly,  ///< only the shared-memory time units: the GPU timed inside a kernel (clock64)
  Waves,       ///< one launch plus `waves` runs one after another on each SM's shared memory
  /// The warp's instructions, shared accesses and extra slots at the instruction microbenchmarks'
  /// costs (predict/instruction_cost.h): cycles alone, or an SM's cycles for `waves` warps at once
  /// plus one launch, or plus their copies in and out, launch included (predict/copy_cost.h); the
  /// shared-memory time units give the extra slots
  Instructions,
};

/// What Pricing::Instructions prices a run with besides its simulated counts.
struct InstructionWork {
  predict::InstructionCosts costs;
  double warp_instructions = 0;  ///< the kernel's, between its clock64 reads (Nsight Compute)
  /// The run's shared-memory warp accesses, as the table's writer simulated them (as-gpu.csv's sim_steps).
  double steps = 0;
  double sm_clock_khz = 0;
  bool many = false;  ///< a launch of `waves` warps per SM; false: one warp alone
  /// A launch of many: each warp's load before and store after its work, `rows` rows of w words,
  /// at the copy microbenchmarks' costs (predict/copy_cost.h); nullopt leaves them unpriced.
  std::optional<predict::CopyCosts> copy;
  double rows = 0;
  /// The factor of the run's interval: alone, the lone fit's; a launch of many, the largest of the
  /// lone, many and copy fits' (its cycles are a maximum and a sum of their terms, so where each
  /// term is within its factor the whole is within the largest).
  double interval_factor() const;
};

/// The floor of a run whose kernels' blocks wait a load latency per round (a barrier between
/// their loads and their stores): each launch priced as the tile microbenchmark of its shape
/// (predict/tile_cost.h: its waves of rounds, its loads in flight, its words read and written per
/// SM, within or beyond the L2), the run as their sum; the run is priced at the larger of its
/// model's time and this one. The benches' accesses are coalesced, a kernel's at best as good.
struct TileFloor {
  predict::TileCosts costs;
  struct Launch {
    double waves = 0;         ///< ceil(blocks / (SMs x blocks resident a SM)) x rounds a block
    double loads = 0;         ///< loads a thread has in flight in a round
    double words_per_sm = 0;  ///< words the launch reads and writes, over the SMs
    bool beyond_l2 = false;   ///< the launch's arrays exceed the L2: its rounds wait for the DRAM
  };
  std::vector<Launch> launches;
  double sm_clock_khz = 0;
  double ms() const;
};

/// One GPU measurement: a kernel family's run at one size.
struct MeasuredRun {
  std::string family;  ///< conventional, in-place, scheduled, ...
  std::string kernel;  ///< the GPU table's name for it (d-designated, scheduled-pipelined, ...)
  std::string permutation;
  std::string type;  ///< float or double
  std::uint64_t n = 0;
  double ms = 0;
  // Filled by the family readers beyond KNI Table II (predict/validate/family.h); the
  // kasagi-t2 rows leave them as they are and are mapped by kernel name.
  std::string source = "kasagi-t2";  ///< the measured table the row came from
  std::string algorithm;             ///< the registry algorithm that mirrors the kernel; "": none does
  ParamValues params;                ///< its parameters, typed (the profile's machine is added)
  unsigned seeds = 1;                ///< runs averaged, with seed, seed + 1, ... (random layouts drawn per block)
  Pricing pricing = Pricing::WholeRun;
  std::uint64_t waves = 1;  ///< Pricing::Waves: runs one after another on each SM; Instructions: warps per SM
  InstructionWork work;     ///< Pricing::Instructions only
  std::optional<TileFloor> tile_floor;  ///< Pricing::WholeRun: a floor under the model's time
  std::string measured_as;              ///< how the GPU's figure became ms, when not read as ms
  std::string known_failure;            ///< where the model is known to fail for this kernel, and why
};

/// The rows of DIR/kasagi-t2.csv (KNI Table II on the GPU) with min_n <= n <= max_n and the type.
/// Throws std::invalid_argument naming the file and line for a malformed row.
std::vector<MeasuredRun> read_kasagi_measurements(const std::filesystem::path& csv, std::uint64_t min_n,
                                                  std::uint64_t max_n, const std::string& type);

struct PredictedRun {
  MeasuredRun measured;
  std::string simulated;          ///< the registry algorithm simulated; empty: none mirrors the kernel
  std::vector<double> predicted;  ///< ms, one per cost model of the profile, in its order
  predict::RunCounts counts;
  bool correct = false;
  bool reused = false;          ///< the counts came from a counts file, not from a simulation
  bool missing_counts = false;  ///< a program mirrors the kernel, but with counts_only its counts were not found
  /// 1/2^sample_shift of the DRAM rows were simulated (predict/sampled.h); 0: every one, as --exact.
  int sample_shift = 0;
  std::uint64_t sample_seed = 0;  ///< the seed of the sample's rows (0 when exact)
  /// Per cost model, half the width of the predicted ms' 95 % sampling interval (0 when every row
  /// was simulated); empty for a sampled run reused from a counts file, which keeps no interval.
  std::vector<double> predicted_ci95;
};

/// How predict_runs simulates: up to `threads` runs at a time while their estimated peak memory
/// (simulation_bytes) fits in `max_memory` (when fewer runs than threads, each run gets the
/// threads left over: the offline schedule and the shared-memory rounds use them); runs found in
/// `reuse` (run and machine alike) are not simulated; progress lines (run i of N, started, done,
/// elapsed) go to `progress` when not null; `finished`, when set, is told each run's counts as the
/// run ends (under a lock), so that a long validation can save what it has before it is stopped.
struct SimulationPlan {
  unsigned threads = 1;
  std::uint64_t max_memory = ~std::uint64_t{0};
  const predict::CountsFile* reuse = nullptr;
  std::ostream* progress = nullptr;
  std::function<void(const predict::CountsRow&)> finished;
  bool counts_only = false;  ///< simulate nothing: runs not in `reuse` stay unpriced (missing_counts)
  /// The GPU-memory runs' sampling (predict/sampled.h); nullopt simulates every sector (--exact),
  /// and then a sampled run of the counts file is simulated again rather than reused.
  std::optional<predict::SamplingOptions> sampling = std::nullopt;
};

/// A run's estimated peak memory in bytes: the simulated algorithm's measured bytes per element
/// (the engine's arrays and registers, the permutation, the offline schedule) times n.
std::uint64_t simulation_bytes(const std::string& algorithm, std::uint64_t n);

/// Simulates every measurement's run on the profile (runs shared by several kernels, e.g. the
/// paper's and the pipelined scheduled kernels, once), as `plan` says, one host thread a run.
std::vector<PredictedRun> predict_runs(const predict::GpuProfile& profile, const std::vector<MeasuredRun>& runs,
                                       const SimulationPlan& plan);

/// The counts of the simulated rows, as counts-file rows (reused ones included).
std::vector<predict::CountsRow> counts_rows(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows);

/// The prediction table (one row per measurement) and its summary (per family and cost model:
/// median and worst |error|, the worst as a factor max(p/m, m/p)).
report::Table prediction_table(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows);
report::Table prediction_summary(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows);

/// The profile's microbenchmarks, priced by each of its models from the counts the profile records:
/// measured ms, and per model the predicted ms and predicted / measured. Throws
/// std::invalid_argument when the profile records no counts (a file written before the counts were
/// data: refit it with `mmsim validate --refit`).
report::Table microbench_table(const predict::GpuProfile& profile);

}  // namespace mmsim::predict
