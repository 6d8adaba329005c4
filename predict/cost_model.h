// The cost models a GPU profile fits and a prediction uses: GPU time as a sum of simulated counts,
// each priced by a constant fitted on the calibration microbenchmarks (predict/microbench.h).
//
// One model per step of the extension of the machine (models/gpu_memory/gpu_memory.h), so that
// each step's effect on the errors can be shown before and after:
//   papers            launches, the UMM's slots (address groups of w cells), shared-memory time units
//   sectors           launches, the 32-byte sectors requested, shared-memory time units
//   sectors-rw        launches, sectors read and sectors written apart, shared-memory time units
//   sectors-rw-cache  launches, the L2's transactions (128-byte lines per warp access) and sectors,
//                     DRAM sector reads and DRAM sector writes behind an L2 of the GPU's size,
//                     shared-memory time units
//   dram-rows         the same and the DRAM rows opened (activations): scattered transfers open a
//                     row each, streams one per row
//   dram-rmw          the same with the rows opened counted by direction: rows opened by reads and
//                     rows opened by write-backs, a partial sector's fill served in its
//                     write-back's row as one read-modify-write (models/gpu_memory/gpu_memory.h)
//   l2-lines          dram-rmw's counts with the L2 of 128-byte lines in place of the L2 of sectors:
//                     its DRAM reads, writes and rows opened by direction (RunCounts::line_memory)
//   rmw-rows          dram-rows' counts (the L2 of sectors) with the rows opened split by what the
//                     bank does: rows opened for a read-modify-write (a write-back that merges a
//                     partial sector: read, turn the bus round, write) apart from every other row
//                     opened (by a read or by a whole sector's write-back)
// Shared-memory time units are the simulator's: per round, max over DMMs of (slots + l - 1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/gpu_memory/gpu_memory.h"

namespace mmsim::predict {

enum class CostModel : std::uint8_t {
  Papers,
  Sectors,
  SectorsReadWrite,
  SectorsReadWriteCache,
  DramRows,
  DramRmw,
  L2Lines,
  RmwRows
};
inline constexpr std::array<CostModel, 8> kCostModels = {
    CostModel::Papers,   CostModel::Sectors, CostModel::SectorsReadWrite, CostModel::SectorsReadWriteCache,
    CostModel::DramRows, CostModel::DramRmw, CostModel::L2Lines,          CostModel::RmwRows};

/// The model `mmsim predict` prices with unless told otherwise.
inline constexpr CostModel kDefaultCostModel = CostModel::RmwRows;
/// The model the L2's effective capacity is fitted for (fit_cache_capacity, predict/gpu_profile.h):
/// dram-rows, the default when the rule was fixed, kept so that the fitted capacity, and every
/// run simulated with it, stays as it was.
inline constexpr CostModel kCacheFitCostModel = CostModel::DramRows;

std::string_view to_string(CostModel m);
std::optional<CostModel> cost_model_from_name(std::string_view name);

/// What one simulated run (of an algorithm or a microbenchmark) moved: the counts the models price.
struct RunCounts {
  std::uint64_t launches = 0;
  std::uint64_t shared_time_units = 0;  ///< sum over shared rounds of the round's time units
  GpuMemoryStats memory;                ///< UMM groups, sectors, DRAM transfers (models/gpu_memory)
  GpuMemoryStats line_memory;           ///< the L2 of lines' hits, DRAM transfers and rows
};

/// The names of a model's constants, in the order of features().
std::vector<std::string> constant_names(CostModel m);
/// The counts a model prices, in the order of constant_names().
std::vector<double> features(CostModel m, const RunCounts& counts);

}  // namespace mmsim::predict
