// The GPU-like global memory's stages composed for one configuration: coalescer, then the L2 (when
// the memory has one), then the DRAM rows (when they are modelled).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "models/gpu_memory/coalescer.h"
#include "models/gpu_memory/dram_rows.h"
#include "models/gpu_memory/l2_cache.h"
#include "models/gpu_memory/params.h"
#include "sim/memory_model.h"

namespace mmsim {

/// One run's memory below the warps: what it holds changes with every access, so it is used
/// through non-const calls, by one thread, in the order the warps are dispatched.
///
/// Contract: access() takes one warp access at a time, in dispatch order, and returns the sectors
/// it occupies (its slots); the coalescer turns it into sectors, the L2 serves them and passes its
/// DRAM transfers to the DRAM rows; without an L2 every sector is a DRAM transfer of its direction
/// (no fills: they are the L2's). stats() adds up what every stage counted since the last
/// reset_counters(), which keeps what the L2 holds (a warm cache for the next run).
class GpuMemoryHierarchy {
 public:
  /// Throws std::invalid_argument when `params` are not valid (GpuMemoryParams::validate).
  GpuMemoryHierarchy(int w, const GpuMemoryParams& params);
  GpuMemoryHierarchy(const GpuMemoryHierarchy&) = delete;  // the L2 refers to the DRAM rows
  GpuMemoryHierarchy& operator=(const GpuMemoryHierarchy&) = delete;

  int width() const { return w_; }
  const GpuMemoryParams& params() const { return params_; }

  /// One warp access: the sectors it occupies (0 when no lane requests).
  int access(std::span<const Address> warp, const AccessContext& context);
  const GpuMemoryStats& stats() const { return stats_; }
  /// Zeroes the counters; the L2 keeps what it holds.
  void reset_counters() { stats_ = {}; }
  /// Writes back every dirty sector (counted) and empties the L2.
  void flush();

 private:
  int w_;
  GpuMemoryParams params_;
  Coalescer coalescer_;
  DramRows dram_;
  std::optional<L2Cache> l2_;
  GpuMemoryStats stats_;
};

}  // namespace mmsim
