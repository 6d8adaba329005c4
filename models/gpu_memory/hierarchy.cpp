#include "models/gpu_memory/hierarchy.h"

#include <stdexcept>

namespace mmsim {

namespace {

const GpuMemoryParams& checked(const GpuMemoryParams& params) {
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  return params;
}

}  // namespace

GpuMemoryHierarchy::GpuMemoryHierarchy(int w, const GpuMemoryParams& params)
    : w_(w),
      params_(checked(params)),
      coalescer_(w, params.sector_bytes, params.element_bytes),
      dram_(params.sector_bytes, params.dram_row_bytes, params.dram_banks, params.dram_write_rows) {
  if (params.has_cache()) {
    const std::uint64_t full =
        params.sector_bytes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.sector_bytes) - 1;
    l2_.emplace(params.cache_bytes / params.sector_bytes, params.cache_ways, full, dram_);
  }
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
  ++stats_.accesses;
  stats_.umm_groups += r.umm_groups;
  stats_.lines += r.l2_transactions;
  const bool write = r.op == Op::Write;
  (write ? stats_.write_sectors : stats_.read_sectors) += r.sectors.size();
  if (!l2_) {
    for (const SectorTouch& t : r.sectors) {
      if (write) {
        ++stats_.dram_writes;
        dram_.write(t.sector, false, stats_);
      } else {
        ++stats_.dram_reads;
        dram_.read(t.sector, stats_);
      }
    }
  } else {
    // The host fetches the warp's sets together, then the L2 takes the sectors in order.
    for (const SectorTouch& t : r.sectors) l2_->prefetch(t.sector);
    for (const SectorTouch& t : r.sectors)
      if (write ? l2_->write(t.sector, t.mask, stats_) : l2_->read(t.sector, t.mask, stats_)) ++stats_.hits;
  }
  return static_cast<int>(r.sectors.size());
}

void GpuMemoryHierarchy::flush() {
  if (l2_) l2_->flush(stats_);
}

}  // namespace mmsim
