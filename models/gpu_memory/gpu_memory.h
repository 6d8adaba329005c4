// A byte-addressed global memory as a GPU serves it: sectors, reads apart from writes, and an L2
// cache in front. Three named extensions of the HMM's global memory, each off by default (the
// papers' UMM, address groups of w cells, stays the model), used to predict GPU time from
// simulation (predict/, `mmsim predict`). Not from the papers: from how NVIDIA GPUs move data.
//
//  - sectors: a cell is `element_bytes` bytes (the array's own size when it declares one:
//    ArrayDecl::element_bytes) and the memory moves aligned sectors of `sector_bytes`; a warp access
//    occupies one slot per distinct sector it touches, instead of one per address group.
//  - reads and writes: every sector is counted as a read or a write, so that a profile can price
//    them differently (the counters are always kept; the extension is the profile's choice).
//  - cache: a set-associative LRU cache of `cache_bytes` in sectors, write-back and write-allocate
//    without fetch. A read of a sector whose bytes are not all held costs a DRAM read; a write only
//    marks its bytes; evicting a dirty sector costs a DRAM write, and a DRAM read before it when
//    some of its bytes were never written nor read (a partial sector must be merged with memory:
//    HBM has no byte mask). The cache keeps its contents across runs: a predictor runs a program
//    twice and counts the second run, as the GPU tables time runs after warm-ups.
//  - DRAM rows: DRAM keeps one open row of `dram_row_bytes` in each of `dram_banks` banks (rows
//    spread over the banks by a hash); a DRAM transfer to a row that is not open in its bank opens
//    it (an activation). Streams open a row once per row; scattered sectors, once per sector: the
//    difference between a copy's bandwidth and a random gather's.
//    Write-backs are matched over the last `dram_write_rows` rows written instead (DramRows).
//  - read-modify-write rows: the same rows counted a second way, by direction. A partial sector's
//    fill is served in its write-back's row, as one read-modify-write from the controller's write
//    queue (HBM with ECC and no byte mask merges a partial sector this way), so a streamed partial
//    write opens a row per row, not per fill; fills leave the reads' open rows alone. Rows opened
//    for reads and rows opened for write-backs are counted apart: a row opened for a write holds
//    its bank longer (the read-to-write turnaround, then the write recovery before it closes).
//    Of the rows opened by write-backs, those whose write-back merged a partial sector are
//    counted apart again (rmw_activations): the controller reads the row before it writes it.
//  - L2 lines: a second cache beside the first, counted apart (GpuGlobalMemory::line_stats), of
//    the same size and ways but allocating `cache_line_bytes` lines (128 B on NVIDIA GPUs) with
//    valid and dirty bytes per sector: a sector taken in claims its whole line, so scattered and
//    widely strided sectors fill the cache four times faster than their bytes; with the DRAM
//    rows of its own, counted by direction as above. The first cache's counts stay as they were,
//    so that every model can be fitted from one simulation.
//
// Arrays never share a sector: array a starts at byte a * 2^40.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/memory_model.h"

namespace mmsim {

struct GpuMemoryParams {
  std::uint32_t sector_bytes = 32;  ///< a power of two, 4..64
  std::uint32_t element_bytes = 4;  ///< bytes of a data cell (float 4, double 8)
  std::uint64_t cache_bytes = 0;    ///< 0: no cache, every sector is a DRAM transfer
  std::uint32_t cache_ways = 16;
  std::uint32_t cache_line_bytes = 0;  ///< 0: no line cache; else a multiple of the sector, <= 1024
  std::uint32_t dram_row_bytes = 0;    ///< 0: DRAM rows are not modelled
  std::uint32_t dram_banks = 1024;
  /// Rows the write-backs are merged over (DramRows): a power of two, 1..2^20. The default, 65536
  /// rows, is the table every profile used before the reach was a parameter.
  std::uint32_t dram_write_rows = 65536;

  bool has_cache() const { return cache_bytes > 0; }
  bool has_dram_rows() const { return dram_row_bytes > 0; }
  /// Empty when valid, else one line "field: rule".
  std::optional<std::string> validate() const;
};

/// What the memory moved, in sectors.
struct GpuMemoryStats {
  std::uint64_t accesses = 0;           ///< warp accesses with at least one request
  std::uint64_t umm_groups = 0;         ///< distinct address groups of w cells (the papers' UMM slots)
  std::uint64_t lines = 0;              ///< distinct 128-byte lines per access: the L2's transactions
  std::uint64_t read_sectors = 0;       ///< distinct sectors requested by reads (summed over accesses)
  std::uint64_t write_sectors = 0;      ///< distinct sectors requested by writes
  std::uint64_t hits = 0;               ///< requested sectors the cache served without DRAM
  std::uint64_t dram_reads = 0;         ///< sectors read from DRAM (misses and fills)
  std::uint64_t fills = 0;              ///< of which fills of a partial sector
  std::uint64_t dram_writes = 0;        ///< sectors written back to DRAM
  std::uint64_t activations = 0;        ///< DRAM rows opened (with dram_row_bytes), fills as reads
  std::uint64_t read_activations = 0;   ///< rows opened by DRAM reads, fills left out
  std::uint64_t write_activations = 0;  ///< rows opened by write-backs, each with its fill (one RMW)
  std::uint64_t rmw_activations = 0;    ///< of which write-backs of a partial sector, merged (a fill)

  std::uint64_t sectors() const { return read_sectors + write_sectors; }
};

/// The open rows of the DRAM's banks: every DRAM transfer passes here. Reads open rows in the
/// order they are asked; write-backs, which a memory controller queues and drains row by row, are
/// matched against a table of `write_rows` recently written rows instead (its reach): an L2 evicts
/// a stream's sectors in a shuffled order (its sets are hashed), yet a copy writes at full
/// bandwidth, while scattered write-backs over more rows than the reach open a row each.
class DramRows {
 public:
  DramRows(std::uint32_t sector_bytes, std::uint32_t row_bytes, std::uint32_t banks, std::uint32_t write_rows);
  /// A DRAM read of `sector` (no-op when rows are not modelled): counts an activation if its row
  /// is not open.
  void read(std::uint64_t sector, GpuMemoryStats& stats);
  /// The fill of a partial sector before its write-back: a read for `activations`; for
  /// `write_activations` it is part of the write-back that follows.
  void fill(std::uint64_t sector, GpuMemoryStats& stats);
  /// A write-back of `sector`; `merged`: it carries the fill of a partial sector.
  void write(std::uint64_t sector, bool merged, GpuMemoryStats& stats);

 private:
  std::uint64_t row_of(std::uint64_t sector) const { return sector / sectors_per_row_; }
  // Opens `row` in the slot its hash picks in `table`; true when it was not open.
  static bool open(std::vector<std::uint64_t>& table, std::uint64_t row);

  std::uint64_t sectors_per_row_ = 0;
  std::vector<std::uint64_t> open_;        // per bank: open row + 1 (0: none), reads and fills
  std::vector<std::uint64_t> open_reads_;  // the same, reads alone
  std::vector<std::uint64_t> written_;     // write-back rows, by hash: row + 1
};

/// The cache alone (no time, no engine): tests and the model share it. It holds lines of
/// `sectors_per_line` sectors under one tag each, with valid and dirty bytes kept per sector: one
/// sector per line is a cache of sectors; four (128 B) is an NVIDIA L2, which allocates a whole
/// line for a sector it takes in and fetches and writes back only the sectors it needs.
class SectorCache {
 public:
  SectorCache(std::uint64_t sectors, std::uint32_t ways, std::uint64_t full_mask, DramRows* dram = nullptr,
              std::uint32_t sectors_per_line = 1);
  /// A read of the bytes `need` of `sector`: true on a hit.
  bool read(std::uint64_t sector, std::uint64_t need, GpuMemoryStats& stats);
  /// A write of the bytes `mask` of `sector`: true when the sector's line was held.
  bool write(std::uint64_t sector, std::uint64_t mask, GpuMemoryStats& stats);
  /// Writes every dirty sector back (counted) and empties the cache.
  void flush(GpuMemoryStats& stats);
  /// Asks the host's memory for the set `sector` maps to, ahead of its read() or write(): a warp's
  /// scattered sectors then miss the host's caches together instead of one after another. No
  /// effect on what the cache holds or counts.
  void prefetch(std::uint64_t sector) const;

 private:
  struct Way {
    std::uint64_t tag = 0, stamp = 0;  // tag: the line
    bool used = false;
  };
  struct Bytes {
    std::uint64_t valid = 0, dirty = 0;  // byte masks of one sector
  };
  // The way holding `sector`'s line (installed, after evicting the set's LRU line, if absent) and
  // the sector's bytes in it.
  Bytes& find_or_install(std::uint64_t sector, bool& hit, GpuMemoryStats& stats);
  void evict(std::size_t way, GpuMemoryStats& stats);

  DramRows* dram_;
  std::uint32_t ways_, per_line_;
  std::uint64_t sets_, full_, clock_ = 0;
  std::vector<Way> lines_;    // set s: lines_[s * ways_ .. + ways_)
  std::vector<Bytes> bytes_;  // way i's sectors: bytes_[i * per_line_ .. + per_line_)
};

/// The GPU-like global memory. Contract: asked once per warp access at dispatch, in dispatch order
/// (it keeps state, so the engine runs its rounds on one thread); cost() without a context prices
/// a read of data cells.
///
/// With `caches_on_threads`, each simulated cache (the sectors', the lines') runs on a host thread
/// of its own, fed the warp accesses' sectors in order through a queue: a warp access's cost does
/// not depend on what the caches hold, so the engine need not wait for them. The counts are the
/// same as without; stats(), line_stats(), reset_counters() and flush() wait for the queue to drain.
class GpuGlobalMemory final : public MemoryModel {
 public:
  GpuGlobalMemory(int w, int latency, const GpuMemoryParams& params, bool caches_on_threads = false);
  ~GpuGlobalMemory() override;
  GpuGlobalMemory(const GpuGlobalMemory&) = delete;  // the caches point at the DRAM rows
  GpuGlobalMemory& operator=(const GpuGlobalMemory&) = delete;
  std::string_view name() const override { return "gpu-global"; }
  int width() const override { return w_; }
  int latency() const override { return latency_; }
  WarpCost cost(std::span<const Address> warp) const override;
  WarpCost cost_access(std::span<const Address> warp, const AccessContext& context) const override;
  std::vector<std::vector<Address>> partition(std::span<const Address> warp) const override;

  const GpuMemoryParams& params() const { return params_; }
  const GpuMemoryStats& stats() const;
  /// What the L2 of lines moved (with cache_line_bytes): its hits, DRAM transfers and rows; the
  /// counts of the warp accesses themselves are in stats().
  const GpuMemoryStats& line_stats() const;
  /// Zeroes the counters and keeps the caches' contents (a warm cache for the next run).
  void reset_counters() const;
  /// Writes back every dirty sector (counted) and empties the cache.
  void flush() const;

 private:
  struct Touch {
    std::uint64_t sector, mask;
  };
  struct CacheThreads;  // the queue and the two threads (gpu_memory.cpp)
  // One sector of a warp access, as a cache is asked it.
  struct Request {
    std::uint64_t sector, mask;
    bool write;
  };
  // Applies a request to a cache, counting in `stats` (the hit as well).
  static void apply(SectorCache& cache, const Request& r, GpuMemoryStats& stats);
  // Waits until the cache threads have applied every request queued (no-op without them).
  void drain() const;
  // The distinct sectors of the access with the bytes it touches in each, in first-touch order.
  void sectors_of(std::span<const Address> warp, const AccessContext& context) const;

  int w_, latency_;
  GpuMemoryParams params_;
  int sector_shift_;
  std::uint64_t full_mask_;
  mutable std::vector<Touch> touched_;
  mutable std::vector<Address> groups_;
  mutable std::vector<std::uint64_t> lines_;
  mutable DramRows dram_, line_dram_;
  mutable std::optional<SectorCache> cache_, line_cache_;
  // The warp accesses' own counts (and the DRAM's without a cache); the sector cache's counts (its
  // hits and DRAM transfers); the line cache's; stats() adds the first two.
  mutable GpuMemoryStats stats_, cache_stats_, line_stats_, merged_;
  std::unique_ptr<CacheThreads> threads_;
};

}  // namespace mmsim
