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

#include "predict/gpu_profile.h"
#include "predict/simulate.h"
#include "report/table.h"

namespace mmsim::experiments {

/// How a simulated run's counts become a predicted time (predict/cost_model.h).
enum class Pricing : std::uint8_t {
  WholeRun,    ///< every count the model prices: the GPU timed whole launches
  SharedOnly,  ///< only the shared-memory time units: the GPU timed inside a kernel (clock64)
  Waves,       ///< one launch plus `waves` runs one after another on each SM's shared memory
};

/// One GPU measurement: a kernel family's run at one size.
struct MeasuredRun {
  std::string family;  ///< conventional, in-place, scheduled, ...
  std::string kernel;  ///< the GPU table's name for it (d-designated, scheduled-pipelined, ...)
  std::string permutation;
  std::string type;  ///< float or double
  std::uint64_t n = 0;
  double ms = 0;
  // Filled by the family readers beyond KNI Table II (experiments/prediction/family.h); the
  // kasagi-t2 rows leave them as they are and are mapped by kernel name.
  std::string source = "kasagi-t2";           ///< the measured table the row came from
  std::string algorithm;                      ///< the registry algorithm that mirrors the kernel; "": none does
  std::map<std::string, std::string> params;  ///< its parameters (the profile's machine is added)
  unsigned seeds = 1;  ///< runs averaged, with seed, seed + 1, ... (random layouts drawn per block)
  Pricing pricing = Pricing::WholeRun;
  std::uint64_t waves = 1;    ///< Pricing::Waves: runs one after another on each SM
  std::string measured_as;    ///< how the GPU's figure became ms, when not read as ms
  std::string known_failure;  ///< where the model is known to fail for this kernel, and why
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
};

/// Simulates every measurement's run on the profile (runs shared by several kernels, e.g. the
/// paper's and the pipelined scheduled kernels, once), on `threads` host threads, one run each.
/// `progress` (may be empty) is told each run as it starts.
std::vector<PredictedRun> predict_runs(const predict::GpuProfile& profile, const std::vector<MeasuredRun>& runs,
                                       unsigned threads, const std::function<void(const std::string&)>& progress);

/// The prediction table (one row per measurement) and its summary (per family and cost model:
/// median and worst |error|, the worst as a factor max(p/m, m/p)).
report::Table prediction_table(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows);
report::Table prediction_summary(const predict::GpuProfile& profile, const std::vector<PredictedRun>& rows);

}  // namespace mmsim::experiments
