// The GPU-like global memory's stages composed for one configuration: coalescer, then the L2 (when
// the memory has one), then the DRAM rows (when they are modelled).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/gpu_memory/coalescer.h"
#include "models/gpu_memory/dram_rows.h"
#include "models/gpu_memory/l2_cache.h"
#include "models/gpu_memory/params.h"
#include "sim/memory_model.h"

namespace mmsim {

/// Adds the coalescer's counts of one request with at least one sector (accesses .. write_sectors).
void add_request(const WarpRequest& request, GpuMemoryStats& stats);

/// One run's memory below the warps: what it holds changes with every access, so it is used
/// through non-const calls, by one thread, in the order the warps are dispatched.
///
/// Contract: access() takes one warp access at a time, in dispatch order, and returns the sectors
/// it occupies (its slots); the coalescer turns it into sectors, the L2 serves them and passes its
/// DRAM transfers to the DRAM rows; without an L2 every sector is a DRAM transfer of its direction
/// (no fills: they are the L2's). stats() adds up what every stage counted since the last
/// reset_counters(), which keeps what the L2 holds (a warm cache for the next run). With
/// track_rounds(true) it also keeps them per round (AccessContext::round): what each access counted,
/// write-backs of the lines it evicted included, goes to its round, so that the rounds' counts add
/// up to stats() (flush() aside, whose write-backs belong to no round).
class GpuMemoryHierarchy {
 public:
  /// Throws std::invalid_argument when `params` are not valid (GpuMemoryParams::validate).
  /// `dram_slot_shift`: the DRAM rows' tables stand for a 1/2^shift part of the rows (DramRows).
  GpuMemoryHierarchy(int w, const GpuMemoryParams& params, int dram_slot_shift = 0);
  GpuMemoryHierarchy(const GpuMemoryHierarchy&) = delete;  // the L2 refers to the DRAM rows
  GpuMemoryHierarchy& operator=(const GpuMemoryHierarchy&) = delete;

  int width() const { return w_; }
  const GpuMemoryParams& params() const { return params_; }

  /// One warp access: the sectors it occupies (0 when no lane requests).
  int access(std::span<const Address> warp, const AccessContext& context);
  /// The L2 and DRAM stages alone for one sector of a request, counted into `stats`: what access()
  /// does for each of its sectors, in order, for a caller that keeps a warp's sectors to replay
  /// them (a sampled prediction, predict/sampled.h).
  void serve(Op op, const SectorTouch& touch, GpuMemoryStats& stats);
  /// Asks the host's memory for what serving `sector` will look at, ahead of serve(): a caller
  /// replaying many sectors overlaps their host cache misses. No effect on what is held or counted.
  void prefetch(std::uint64_t sector) const {
    if (l2_) l2_->prefetch(sector);
  }
  const GpuMemoryStats& stats() const { return stats_; }
  /// Zeroes the counters, the rounds' too; the L2 keeps what it holds.
  void reset_counters() {
    stats_ = {};
    rounds_.clear();
  }
  /// Keep the counts per round from now on (off by default: it costs a copy of the counters per access).
  void track_rounds(bool on) { track_rounds_ = on; }
  /// What the accesses of each round counted since the last reset_counters(), indexed by
  /// AccessContext::round (rounds without a counted access are zero; accesses without a round are
  /// in stats() alone).
  const std::vector<GpuMemoryStats>& round_stats() const { return rounds_; }
  /// Writes back every dirty sector (counted) and empties the L2.
  void flush();

 private:
  int count(std::span<const Address> warp, const AccessContext& context);

  int w_;
  GpuMemoryParams params_;
  Coalescer coalescer_;
  DramRows dram_;
  std::optional<L2Cache> l2_;
  GpuMemoryStats stats_;
  bool track_rounds_ = false;
  std::vector<GpuMemoryStats> rounds_;
};

}  // namespace mmsim
