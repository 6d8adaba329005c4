// The GPU tables beyond KNI Table II that `mmsim validate` predicts, one small reader per family
// (rap.cpp, as.cpp, bmmc.cpp, parm.cpp, enumeration.cpp): each maps a measured row to the registry run that
// mirrors its kernel and says how the GPU figure was made into ms and how the run is priced.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "predict/validate/csv_rows.h"
#include "predict/validate/prediction_table.h"

namespace mmsim::predict::validate {

/// Which measured rows a reader returns: n (the cells the run moves) in [min_n, max_n] for the
/// families that run in global memory; the one-warp shared-memory families (rap, A-S) always run
/// whole, since a run moves at most w x 512 cells.
struct Selection {
  std::uint64_t min_n = 0, max_n = ~std::uint64_t{0};
  std::string type = "float";
  /// Where the A-S reader finds the instruction and copy microbenchmarks and the kernels' counts
  /// (instructions.csv, instructions-ncu.csv, instructions-copy.csv, as-ncu.csv); empty: the measured
  /// folder. Another GPU's folder prices a GPU of the same SM that has no such files of its own.
  std::filesystem::path instructions;
};

struct FamilyReader {
  std::string name;  ///< what --families names: rap, as, bmmc, parm, enumeration
  std::string file;  ///< the table in the measured folder it reads (the first, for several)
  std::vector<MeasuredRun> (*read)(const std::filesystem::path& dir, const Selection& s,
                                   const predict::GpuProfile& profile);
};

/// A measured row of a family's table: its source table and family, and its time in ms, the
/// row's `ms_column` times `ms_per_unit`; throws (naming the row) when the column is not positive.
MeasuredRun timed_row(const CsvRow& row, const std::string& source, const std::string& family,
                      const std::string& ms_column, double ms_per_unit = 1);

/// Blocks of `threads` threads and `shared_bytes` of shared memory each that one SM of compute
/// capability 9.0 (H100, H200) holds at once: at most 2048 threads, 32 blocks and 228 KiB of
/// shared memory, 1 KiB of it reserved a block (CUDA's occupancy rules); the mirrored kernels'
/// registers (at most 40 a thread) never bind before the threads do.
std::uint32_t resident_blocks(std::uint32_t threads, std::uint64_t shared_bytes);

/// Every family reader, in the table's order.
const std::vector<FamilyReader>& family_readers();

std::vector<MeasuredRun> read_rap(const std::filesystem::path& dir, const Selection& s,
                                  const predict::GpuProfile& profile);
std::vector<MeasuredRun> read_as(const std::filesystem::path& dir, const Selection& s,
                                 const predict::GpuProfile& profile);
/// The instruction term's costs fitted on DIR's instruction microbenchmarks (instructions.csv, and
/// Nsight Compute's counts of them in instructions-ncu.csv), a launch of many read at the profile's
/// SM clock less its empty launch. Throws std::invalid_argument naming a missing or malformed file.
predict::InstructionCosts instruction_costs(const std::filesystem::path& dir, const predict::GpuProfile& profile);
/// The same, when DIR also holds the A-S kernels' counts (as-ncu.csv); nullopt when a
/// file is missing. Throws std::invalid_argument naming a malformed file.
std::optional<predict::InstructionCosts> as_instruction_costs(const std::filesystem::path& dir,
                                                              const predict::GpuProfile& profile);
/// The copy term's costs fitted on DIR's copy microbenchmarks (instructions-copy.csv), which prices
/// the A-S launches' load and store; nullopt when the file is missing. Throws
/// std::invalid_argument naming a malformed file.
std::optional<predict::CopyCosts> as_copy_costs(const std::filesystem::path& dir, const predict::GpuProfile& profile);
/// The tile term's costs fitted on DIR's tile microbenchmarks (instructions-tiles.csv, out of
/// place), which bound the tiled kernels' time by their rounds' latency; nullopt when the file is
/// missing. Throws std::invalid_argument naming a malformed file.
std::optional<predict::TileCosts> tile_costs(const std::filesystem::path& dir, const predict::GpuProfile& profile);
std::vector<MeasuredRun> read_bmmc(const std::filesystem::path& dir, const Selection& s,
                                   const predict::GpuProfile& profile);
std::vector<MeasuredRun> read_parm(const std::filesystem::path& dir, const Selection& s,
                                   const predict::GpuProfile& profile);
std::vector<MeasuredRun> read_enumeration(const std::filesystem::path& dir, const Selection& s,
                                          const predict::GpuProfile& profile);

}  // namespace mmsim::predict::validate
