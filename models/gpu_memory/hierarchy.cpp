#include "models/gpu_memory/hierarchy.h"

#include <stdexcept>

namespace mmsim {

namespace {

const GpuMemoryParams& checked(const GpuMemoryParams& params) {
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  return params;
}

}  // namespace

GpuMemoryHierarchy::GpuMemoryHierarchy(int w, const GpuMemoryParams& params, int dram_slot_shift)
    : w_(w),
      params_(checked(params)),
      coalescer_(w, params.sector_bytes, params.element_bytes),
      dram_(params.sector_bytes, params.dram_row_bytes, params.dram_banks, params.dram_write_rows, dram_slot_shift) {
  if (params.has_cache()) {
    const std::uint64_t full =
        params.sector_bytes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.sector_bytes) - 1;
    l2_.emplace(params.cache_bytes / params.sector_bytes, params.cache_ways, full, dram_);
  }
}

void add_request(const WarpRequest& r, GpuMemoryStats& stats) {
  ++stats.accesses;
  stats.umm_groups += r.umm_groups;
  stats.lines += r.l2_transactions;
  (r.op == Op::Write ? stats.write_sectors : stats.read_sectors) += r.sectors.size();
}

int GpuMemoryHierarchy::access(std::span<const Address> warp, const AccessContext& context) {
  if (!track_rounds_ || context.round < 0) return count(warp, context);
  const GpuMemoryStats before = stats_;
  const int sectors = count(warp, context);
  const auto round = static_cast<std::size_t>(context.round);
  if (rounds_.size() <= round) rounds_.resize(round + 1);
  GpuMemoryStats delta = stats_;
  delta -= before;
  rounds_[round] += delta;
  return sectors;
}

int GpuMemoryHierarchy::count(std::span<const Address> warp, const AccessContext& context) {
  const WarpRequest& r = coalescer_(warp, context);
  if (r.sectors.empty()) return 0;
  add_request(r, stats_);
  // The host fetches the warp's sets together, then the L2 takes the sectors in order.
  if (l2_)
    for (const SectorTouch& t : r.sectors) l2_->prefetch(t.sector);
  for (const SectorTouch& t : r.sectors) serve(r.op, t, stats_);
  return static_cast<int>(r.sectors.size());
}

void GpuMemoryHierarchy::serve(Op op, const SectorTouch& t, GpuMemoryStats& stats) {
  const bool write = op == Op::Write;
  if (!l2_) {
    if (write) {
      ++stats.dram_writes;
      dram_.write(t.sector, false, stats);
    } else {
      ++stats.dram_reads;
      dram_.read(t.sector, stats);
    }
  } else if (write ? l2_->write(t.sector, t.mask, stats) : l2_->read(t.sector, t.mask, stats)) {
    ++stats.hits;
  }
}

void GpuMemoryHierarchy::flush() {
  if (l2_) l2_->flush(stats_);
}

}  // namespace mmsim
