// The last stage of the GPU-like global memory: the DRAM's banks and the rows open in them.
#pragma once

#include <cstdint>
#include <vector>

#include "models/gpu_memory/params.h"

namespace mmsim {

/// The open rows of the DRAM's banks: every DRAM transfer passes here.
///
/// Contract: told each DRAM transfer in the order the L2 makes it (or, without an L2, the order
/// the warps ask), it counts the rows opened into GpuMemoryStats' activations fields and nothing
/// else. DRAM keeps one open row of `row_bytes` in each of `banks` banks, rows spread over the
/// banks by a hash; a transfer to a row not open in its bank opens it (an activation), so streams
/// open a row once per row and scattered sectors once per sector: the difference between a copy's
/// bandwidth and a random gather's. The rows are counted two ways:
///  - `activations`: reads and fills in the order asked, write-backs against a table of the last
///    `write_rows` rows written (its reach), as a memory controller's write queue drains them row
///    by row: an L2 evicts a stream's sectors in a shuffled order (its sets are hashed), yet a copy
///    writes at full bandwidth, while scattered write-backs over more rows than the reach open a
///    row each;
///  - by direction: rows opened by reads (`read_activations`, fills left out) and by write-backs
///    (`write_activations`), a partial sector's fill served in its write-back's row as one
///    read-modify-write (HBM with ECC has no byte mask: the controller merges the sector in the row
///    it writes), so a streamed partial write opens a row per row, not per fill. Of the rows opened
///    by write-backs, those whose write-back merged a partial sector are counted apart again
///    (`rmw_activations`): the controller reads the row before it writes it, and the turnaround and
///    the write recovery hold the bank longer.
/// With `row_bytes` 0 rows are not modelled and every call is a no-op.
///
/// A row's slot in a table of `size` entries is slot_hash(row) % size. With `slot_shift` s > 0 the
/// tables stand for the part of a memory whose rows' slot_hash has one given residue modulo 2^s
/// (a sampled prediction, predict/sampled.h): each table has size / 2^s entries and a row's slot
/// is (slot_hash(row) >> s) % (size / 2^s), which is its full table's slot >> s whenever 2^s
/// divides the size. Rows that share a slot in the full tables then share one here, and no others:
/// told the transfers of those rows in the full memory's order, it counts what the full memory
/// counts for them.
class DramRows {
 public:
  DramRows(std::uint32_t sector_bytes, std::uint32_t row_bytes, std::uint32_t banks, std::uint32_t write_rows,
           int slot_shift = 0);
  /// The hash that spreads rows over the banks and the write-back table.
  static std::uint64_t slot_hash(std::uint64_t row) { return row * 0x9E3779B97F4A7C15ull >> 17; }
  /// A DRAM read of `sector`.
  void read(std::uint64_t sector, GpuMemoryStats& stats);
  /// The fill of a partial sector before its write-back: a read for `activations`; for
  /// `write_activations` it is part of the write-back that follows.
  void fill(std::uint64_t sector, GpuMemoryStats& stats);
  /// A write-back of `sector`; `merged`: it carries the fill of a partial sector.
  void write(std::uint64_t sector, bool merged, GpuMemoryStats& stats);

 private:
  std::uint64_t row_of(std::uint64_t sector) const { return sector / sectors_per_row_; }
  // Opens `row` in the slot its hash picks in `table`; true when it was not open.
  bool open(std::vector<std::uint64_t>& table, std::uint64_t row) const;

  std::uint64_t sectors_per_row_ = 0;
  int slot_shift_ = 0;
  std::vector<std::uint64_t> open_;        // per bank: open row + 1 (0: none), reads and fills
  std::vector<std::uint64_t> open_reads_;  // the same, reads alone
  std::vector<std::uint64_t> written_;     // write-back rows, by hash: row + 1
};

}  // namespace mmsim
