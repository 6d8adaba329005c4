// The middle stage of the GPU-like global memory: an L2 cache of sectors in front of DRAM.
#pragma once

#include <cstdint>
#include <vector>

#include "models/gpu_memory/dram_rows.h"
#include "models/gpu_memory/params.h"

namespace mmsim {

/// A set-associative LRU cache of sectors, write-back and write-allocate without fetch.
///
/// Contract: told each sector a warp asks, in the order asked, with the bytes it reads or writes;
/// it counts `hits`, `dram_reads`, `fills` and `dram_writes`, and passes every DRAM transfer it
/// makes, in the order it makes it, to the DRAM rows behind it. A read of a sector whose bytes are
/// not all held costs a DRAM read of the whole sector; a write only marks its bytes; evicting a
/// dirty sector costs a DRAM write, and a DRAM read before it (a fill) when some of its bytes were
/// never written nor read: a partial sector must be merged with memory, as HBM has no byte mask.
/// Sectors map to sets by a hash of their number, as GPUs hash addresses over their L2 slices.
/// The cache keeps its contents until flush(): a predictor runs a program twice and counts the
/// second run, as the GPU tables time runs after warm-ups.
class L2Cache {
 public:
  /// `sectors` of capacity in sets of `ways`; `full_mask`: the byte mask of a whole sector.
  L2Cache(std::uint64_t sectors, std::uint32_t ways, std::uint64_t full_mask, DramRows& dram);
  /// A read of the bytes `need` of `sector`: true on a hit.
  bool read(std::uint64_t sector, std::uint64_t need, GpuMemoryStats& stats);
  /// A write of the bytes `mask` of `sector`: true when the sector was held.
  bool write(std::uint64_t sector, std::uint64_t mask, GpuMemoryStats& stats);
  /// Writes every dirty sector back (counted) and empties the cache.
  void flush(GpuMemoryStats& stats);
  /// Asks the host's memory for the set `sector` maps to, ahead of its read() or write(): a warp's
  /// scattered sectors then miss the host's caches together instead of one after another. No
  /// effect on what the cache holds or counts.
  void prefetch(std::uint64_t sector) const;

 private:
  struct Bytes {
    std::uint64_t valid = 0, dirty = 0;  // byte masks of one sector
  };
  // The first way of `sector`'s set.
  std::size_t set_of(std::uint64_t sector) const;
  // The way holding `sector` (installed, after evicting the set's least recently used sector, if
  // absent).
  std::size_t find_or_install(std::uint64_t sector, bool& hit, GpuMemoryStats& stats);
  void evict(std::size_t way, GpuMemoryStats& stats);

  DramRows& dram_;
  std::uint32_t ways_;
  std::uint64_t sets_, full_, clock_ = 0;
  // Per way, set s at [s * ways_, (s + 1) * ways_): a lookup reads the tags alone, a miss the
  // stamps too, so that each is a few host cache lines.
  std::vector<std::uint64_t> tags_;    // sector + 1; 0: empty
  std::vector<std::uint64_t> stamps_;  // the clock at the last use; 0: empty
  std::vector<Bytes> bytes_;
};

}  // namespace mmsim
