// What the GPU-like global memory is made of (its parameters) and what it counts (its stats):
// the vocabulary its stages share (coalescer.h, l2_cache.h, dram_rows.h, hierarchy.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mmsim {

/// An NVIDIA L2 serves a warp's request as one transaction per 128-byte line it touches, and
/// tags its data in lines of that size: the coalescer counts transactions in it, and the L2's
/// capacity is fitted in whole sets of such lines (predict/gpu_profile.h).
inline constexpr std::uint32_t kL2LineBytes = 128;

struct GpuMemoryParams {
  std::uint32_t sector_bytes = 32;  ///< a power of two, 4..64
  std::uint32_t element_bytes = 4;  ///< bytes of a data cell (float 4, double 8)
  std::uint64_t cache_bytes = 0;    ///< 0: no L2, every sector is a DRAM transfer
  std::uint32_t cache_ways = 16;
  std::uint32_t dram_row_bytes = 0;  ///< 0: DRAM rows are not modelled
  std::uint32_t dram_banks = 1024;
  /// Rows the write-backs are merged over (DramRows): a power of two, 1..2^20. The default, 65536
  /// rows, is the table every profile used before the reach was a parameter.
  std::uint32_t dram_write_rows = 65536;

  bool has_cache() const { return cache_bytes > 0; }
  bool has_dram_rows() const { return dram_row_bytes > 0; }
  /// Empty when valid, else one line "field: rule".
  std::optional<std::string> validate() const;
};

/// What the memory moved, in sectors. Each stage adds its own fields: the coalescer the requests
/// (accesses .. write_sectors), the L2 what it served and what it asked of DRAM (hits .. dram_writes;
/// without an L2 the hierarchy counts every sector as a DRAM transfer), the DRAM rows the rows
/// opened (activations ..).
struct GpuMemoryStats {
  std::uint64_t accesses = 0;           ///< warp accesses with at least one request
  std::uint64_t umm_groups = 0;         ///< distinct address groups of w cells (the papers' UMM slots)
  std::uint64_t lines = 0;              ///< distinct 128-byte lines per access: the L2's transactions
  std::uint64_t read_sectors = 0;       ///< distinct sectors requested by reads (summed over accesses)
  std::uint64_t write_sectors = 0;      ///< distinct sectors requested by writes
  std::uint64_t hits = 0;               ///< requested sectors the L2 served without DRAM
  std::uint64_t dram_reads = 0;         ///< sectors read from DRAM (misses and fills)
  std::uint64_t fills = 0;              ///< of which fills of a partial sector
  std::uint64_t dram_writes = 0;        ///< sectors written back to DRAM
  std::uint64_t activations = 0;        ///< DRAM rows opened (with dram_row_bytes), fills as reads
  std::uint64_t read_activations = 0;   ///< rows opened by DRAM reads, fills left out
  std::uint64_t write_activations = 0;  ///< rows opened by write-backs, each with its fill (one RMW)
  std::uint64_t rmw_activations = 0;    ///< of which write-backs of a partial sector, merged (a fill)

  std::uint64_t sectors() const { return read_sectors + write_sectors; }
  /// Field by field: a run's counts are the sum of its rounds' (GpuMemoryHierarchy::round_stats).
  GpuMemoryStats& operator+=(const GpuMemoryStats& x);
  GpuMemoryStats& operator-=(const GpuMemoryStats& x);
};

}  // namespace mmsim
