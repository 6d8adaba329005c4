#include "models/gpu_memory/coalescer.h"

#include <algorithm>
#include <bit>

namespace mmsim {

Coalescer::Coalescer(int w, std::uint32_t sector_bytes, std::uint32_t element_bytes)
    : w_(w), sector_shift_(std::countr_zero(sector_bytes)), sector_bytes_(sector_bytes), element_bytes_(element_bytes) {
  touched_.reserve(static_cast<std::size_t>(w));
  groups_.reserve(static_cast<std::size_t>(w));
  lines_.reserve(static_cast<std::size_t>(w));
}

const WarpRequest& Coalescer::operator()(std::span<const Address> warp, const AccessContext& context) {
  const std::uint64_t bytes = context.element_bytes != 0 ? context.element_bytes : element_bytes_;
  const std::uint64_t base = static_cast<std::uint64_t>(context.array) << 40;
  constexpr int kLineShift = std::countr_zero(kL2LineBytes);
  touched_.clear();
  groups_.clear();
  lines_.clear();
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const Address group = a / static_cast<Address>(w_);
    if (std::find(groups_.begin(), groups_.end(), group) == groups_.end()) groups_.push_back(group);
    const std::uint64_t byte = base + a * bytes;
    const std::uint64_t sector = byte >> sector_shift_;
    if (std::find(lines_.begin(), lines_.end(), byte >> kLineShift) == lines_.end())
      lines_.push_back(byte >> kLineShift);
    const std::uint64_t offset = byte & (sector_bytes_ - 1);
    // An element larger than what is left of the sector would spill over: only with misaligned
    // sizes, which GpuMemoryParams::validate excludes (element and sector are powers of two,
    // element <= sector).
    const std::uint64_t mask = (bytes == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << bytes) - 1)) << offset;
    auto it = std::find_if(touched_.begin(), touched_.end(), [&](const SectorTouch& t) { return t.sector == sector; });
    if (it == touched_.end())
      touched_.push_back({sector, mask});
    else
      it->mask |= mask;
  }
  request_ = {context.op, groups_.size(), lines_.size(), touched_};
  return request_;
}

}  // namespace mmsim
