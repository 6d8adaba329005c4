// The cost models a GPU profile fits and a prediction uses: GPU time as a sum of simulated counts,
// each priced by a constant fitted on the calibration microbenchmarks (predict/microbench.h).
//
// A model is data, not code: a name and a list of priced counts (a constant's name, the count it
// prices, and its ms per unit of that count), kept in the profile file, so that a prediction is
// the sum of constant x count over the list and nothing in the program depends on which model it
// is. The counts a model may price are the run's named counts (count_fields()): the memory's own
// counters (models/gpu_memory/params.h) and a few sums of them.
//
// The models a calibration fits (fitted_models()), each adding extensions of the machine
// (models/gpu_memory/gpu_memory.h) to the one before it:
//   papers     launches, the UMM's slots (address groups of w cells), shared-memory time units
//   dram-rows  launches, the L2's transactions (128-byte lines per warp access) and sectors, DRAM
//              sector reads and writes behind the L2, the DRAM rows opened (scattered transfers
//              open a row each, streams one per row), shared-memory time units; the model the L2's
//              capacity is fitted for (kCacheFitCostModel)
//   rmw-rows   dram-rows' counts with the rows opened split by what the bank does: rows opened for
//              a read-modify-write (a write-back that merges a partial sector: read, turn the bus
//              round, write) apart from every other row opened (by a read or by a whole sector's
//              write-back)
// Which of them `mmsim predict` uses is each profile's choice, made on the microbenchmarks alone
// (predict/model_choice.h).
// Shared-memory time units are the simulator's: per round, max over DMMs of (slots + l - 1).
// The models compared on the way to these (sectors, sectors-rw, sectors-rw-cache, dram-rmw,
// l2-lines), their counts and their errors, are in docs/prediction.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/gpu_memory/params.h"

namespace mmsim::predict {

/// What one simulated run (of an algorithm or a microbenchmark) moved: the counts the models price.
struct RunCounts {
  std::uint64_t launches = 0;
  std::uint64_t shared_time_units = 0;  ///< sum over shared rounds of the round's time units
  GpuMemoryStats memory;                ///< UMM groups, sectors, DRAM transfers and rows (models/gpu_memory)
};

/// A count of a run that a model may price, by the name profiles, counts files and `mmsim predict
/// --json` give it.
struct CountField {
  std::string_view name;
  std::string_view meaning;
  std::uint64_t (*of)(const RunCounts&);
  /// Kept as a column of counts files and in the profile's microbenchmarks; false: a sum of
  /// stored counts, computed when priced.
  bool stored = true;
};

/// Every count, stored ones first, in the counts file's column order.
std::span<const CountField> count_fields();
/// The index of a count in count_fields(), or nullopt.
std::optional<std::size_t> count_index(std::string_view name);
/// Sets a stored count by its index in count_fields().
void set_count(RunCounts& counts, std::size_t index, std::uint64_t value);

/// One term of a model: `ms` per unit of the count count_fields()[count].
struct PricedCount {
  std::string constant;  ///< its name (launch_ms, dram_read_ms, ...)
  std::size_t count = 0;
  double ms = 0;  ///< >= 0
};

/// A cost model with its constants, and how well they fit the microbenchmarks (relative errors
/// predicted / measured - 1).
struct CostModel {
  std::string name;
  std::vector<PricedCount> prices;  ///< summed in this order
  double median_abs_error = 0, worst_abs_error = 0;

  /// The constant of `count` (0 when the model does not price it).
  double price_of(std::string_view count) const;
};

/// The counts one model prices, by name, each with its constant's name: what a fit starts from.
struct CostModelSpec {
  std::string_view name;
  std::vector<std::pair<std::string_view, std::string_view>> prices;  ///< (constant, count)
};

/// The models a calibration fits, in the order profiles list them.
std::span<const CostModelSpec> fitted_models();
/// A model of `spec` with every constant 0.
CostModel unfitted(const CostModelSpec& spec);

/// The model `mmsim predict` prices with when the profile records no cross-validated choice (a
/// profile of an earlier format; predict/model_choice.h).
inline constexpr std::string_view kDefaultCostModel = "rmw-rows";
/// The model the L2's effective capacity is fitted for (fit_cache_capacity, predict/gpu_profile.h):
/// dram-rows, the default when the rule was fixed, kept so that the fitted capacity, and every
/// run simulated with it, stays as it was.
inline constexpr std::string_view kCacheFitCostModel = "dram-rows";

/// The counts a model prices, as numbers, in the order of its prices.
std::vector<double> features(const CostModel& model, const RunCounts& counts);
/// predicted ms = sum over the model's prices of constant x count, in their order.
double predicted_ms(const CostModel& model, const RunCounts& counts);

}  // namespace mmsim::predict
