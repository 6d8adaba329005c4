// A byte-addressed global memory as a GPU serves it: sectors, reads apart from writes, an L2 cache
// and DRAM rows. Extensions of the HMM's global memory, each off by default (the papers' UMM,
// address groups of w cells, stays the model), used to predict GPU time from simulation
// (predict/, `mmsim predict`). Not from the papers: from how NVIDIA GPUs move data.
//
// The memory is three stages, each with its contract in its header, composed per configuration
// into one hierarchy per run (hierarchy.h):
//  - the coalescer (coalescer.h): a warp's addresses become distinct sectors of `sector_bytes`,
//    a cell being `element_bytes` bytes (the array's own size when it declares one:
//    ArrayDecl::element_bytes), each read or written; a warp access occupies one slot per
//    sector, instead of one per address group, and its 128-byte lines are the L2's transactions;
//  - the L2 (l2_cache.h), with `cache_bytes`: a set-associative LRU cache of sectors, write-back,
//    write-allocate without fetch; a dirty partial sector is filled from DRAM before its
//    write-back;
//  - the DRAM rows (dram_rows.h), with `dram_row_bytes`: rows opened in `dram_banks` banks, for
//    reads in the order asked, for write-backs against the last `dram_write_rows` rows written,
//    counted in all and by direction, the read-modify-write rows of merged write-backs apart.
// The engine sees the hierarchy through GpuGlobalMemory (below), a MemoryModel.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "models/gpu_memory/hierarchy.h"
#include "models/gpu_memory/params.h"
#include "sim/memory_model.h"

namespace mmsim {

/// The engine's view of a GpuMemoryHierarchy. Contract: the model itself holds no state; every
/// access the engine costs goes on to the hierarchy it was given, which changes with each one, so
/// the model is not order-free (MemoryModel::order_free: the engine asks it once per warp access,
/// at dispatch, in dispatch order, on one thread). The caller owns the hierarchy, reads its counts
/// and keeps it alive while the model is used. cost() without a context prices a read of data
/// cells.
class GpuGlobalMemory final : public MemoryModel {
 public:
  GpuGlobalMemory(int latency, GpuMemoryHierarchy& hierarchy) : latency_(latency), hierarchy_(hierarchy) {}
  std::string_view name() const override { return "gpu-global"; }
  int width() const override { return hierarchy_.width(); }
  int latency() const override { return latency_; }
  WarpCost cost(std::span<const Address> warp) const override { return cost_access(warp, AccessContext{}); }
  WarpCost cost_access(std::span<const Address> warp, const AccessContext& context) const override;
  /// Traces only: the requests grouped by data sector, in first-touch order.
  std::vector<std::vector<Address>> partition(std::span<const Address> warp) const override;
  bool order_free() const override { return false; }

 private:
  int latency_;
  GpuMemoryHierarchy& hierarchy_;  // not owned; changed by every access
};

}  // namespace mmsim
