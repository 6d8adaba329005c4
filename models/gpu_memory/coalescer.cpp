#include "models/gpu_memory/coalescer.h"

#include <algorithm>
#include <bit>

namespace mmsim {

Coalescer::KeyIndex::KeyIndex(int w) {
  const std::size_t slots = std::bit_ceil(std::max<std::size_t>(2 * static_cast<std::size_t>(w), 8));
  keys_.assign(slots, 0);
  stamp_.assign(slots, 0);
  index_.assign(slots, 0);
  mask_ = slots - 1;
}

void Coalescer::KeyIndex::start() {
  if (++gen_ == 0) {  // stamps wrapped: clear them once
    std::fill(stamp_.begin(), stamp_.end(), 0);
    gen_ = 1;
  }
}

std::uint32_t Coalescer::KeyIndex::find_or_add(std::uint64_t key, std::uint32_t next) {
  std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 40) & mask_;
  while (stamp_[h] == gen_) {
    if (keys_[h] == key) return index_[h];
    h = (h + 1) & mask_;
  }
  stamp_[h] = gen_;
  keys_[h] = key;
  index_[h] = next;
  return next;
}

Coalescer::Coalescer(int w, std::uint32_t sector_bytes, std::uint32_t element_bytes)
    : w_(w),
      sector_shift_(std::countr_zero(sector_bytes)),
      sector_bytes_(sector_bytes),
      element_bytes_(element_bytes),
      groups_(w),
      lines_(w),
      sectors_(w) {
  touched_.reserve(static_cast<std::size_t>(w));
}

const WarpRequest& Coalescer::operator()(std::span<const Address> warp, const AccessContext& context) {
  const std::uint64_t bytes = context.element_bytes != 0 ? context.element_bytes : element_bytes_;
  const std::uint64_t base = static_cast<std::uint64_t>(context.array) << 40;
  constexpr int kLineShift = std::countr_zero(kL2LineBytes);
  // An element larger than what is left of the sector would spill over: only with misaligned
  // sizes, which GpuMemoryParams::validate excludes (element and sector are powers of two,
  // element <= sector).
  const std::uint64_t element_mask = bytes == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << bytes) - 1);
  touched_.clear();
  groups_.start();
  lines_.start();
  sectors_.start();
  std::uint32_t groups = 0, lines = 0;
  // The lane before's group, line and sector: a coalesced warp repeats them, and needs no lookup.
  Address last_group = kNoAddress;
  std::uint64_t last_line = ~std::uint64_t{0}, last_sector = ~std::uint64_t{0};
  std::size_t last_index = 0;
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const Address group = a / static_cast<Address>(w_);
    if (group != last_group) {
      groups += groups_.find_or_add(group, groups) == groups;
      last_group = group;
    }
    const std::uint64_t byte = base + a * bytes;
    const std::uint64_t line = byte >> kLineShift, sector = byte >> sector_shift_;
    if (line != last_line) {
      lines += lines_.find_or_add(line, lines) == lines;
      last_line = line;
    }
    const std::uint64_t mask = element_mask << (byte & (sector_bytes_ - 1));
    if (sector != last_sector) {
      const auto next = static_cast<std::uint32_t>(touched_.size());
      last_index = sectors_.find_or_add(sector, next);
      last_sector = sector;
      if (last_index == next) {
        touched_.push_back({sector, mask});
        continue;
      }
    }
    touched_[last_index].mask |= mask;
  }
  request_ = {context.op, groups, lines, touched_};
  return request_;
}

}  // namespace mmsim
