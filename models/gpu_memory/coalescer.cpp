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

void Coalescer::KeyIndex::reserve(std::size_t keys) {
  if (2 * keys <= keys_.size()) return;
  const std::size_t slots = std::bit_ceil(2 * keys);
  keys_.assign(slots, 0);
  stamp_.assign(slots, 0);
  index_.assign(slots, 0);
  mask_ = slots - 1;
  gen_ = 0;
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
  line_list_.reserve(static_cast<std::size_t>(w));
}

std::uint64_t Coalescer::atomic_transactions(std::span<const Address> warp, std::uint64_t base, std::uint64_t bytes) {
  // An atomic moves one element a thread, so each address lies in one sector. Atomics are rare
  // and a warp holds few addresses: linear searches.
  repeats_.clear();
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    auto it = std::find_if(repeats_.begin(), repeats_.end(), [a](const auto& r) { return r.first == a; });
    if (it == repeats_.end())
      repeats_.emplace_back(a, 1);
    else
      ++it->second;
  }
  std::uint64_t n = 0;
  for (const SectorTouch& t : touched_) {
    std::uint64_t most = 0;
    for (const auto& [a, threads] : repeats_)
      if (((base + a * bytes) >> sector_shift_) == t.sector) most = std::max(most, threads);
    n += most;
  }
  return n;
}

const WarpRequest& Coalescer::operator()(std::span<const Address> warp, const AccessContext& context) {
  const std::uint64_t bytes = context.element_bytes != 0 ? context.element_bytes : element_bytes_;
  const std::uint64_t lane_bytes = bytes * std::max<std::uint32_t>(1, context.vector);
  const std::uint64_t base = static_cast<std::uint64_t>(context.array) << 40;
  constexpr int kLineShift = std::countr_zero(kL2LineBytes);
  // A lane of a vector wider than a sector (or a line) touches several: room for them all. An
  // access is aligned to its size (the engine checks it), so a lane covers exactly this many.
  if (lane_bytes > sector_bytes_) sectors_.reserve(warp.size() * ((lane_bytes - 1) / sector_bytes_ + 1));
  if (lane_bytes > kL2LineBytes) lines_.reserve(warp.size() * ((lane_bytes - 1) / kL2LineBytes + 1));
  // An element larger than what is left of the sector would spill over: only with misaligned
  // sizes, which GpuMemoryParams::validate excludes (element and sector are powers of two,
  // element <= sector); a vector's bytes beyond its sector go on to the next (below).
  const std::uint64_t lane_mask = lane_bytes >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << lane_bytes) - 1);
  touched_.clear();
  line_list_.clear();
  groups_.start();
  lines_.start();
  sectors_.start();
  std::uint32_t groups = 0;
  // The lane before's group, line and sector: a coalesced warp repeats them, and needs no lookup.
  Address last_group = kNoAddress;
  std::uint64_t last_line = ~std::uint64_t{0}, last_sector = ~std::uint64_t{0};
  std::size_t last_index = 0;
  // Sector `sector` gets the bytes `mask`; a line first touched joins the list of lines.
  const auto touch = [&](std::uint64_t sector, std::uint64_t mask) {
    const std::uint64_t line = (sector << sector_shift_) >> kLineShift;  // a sector never straddles a line
    if (line != last_line) {
      const auto next = static_cast<std::uint32_t>(line_list_.size());
      if (lines_.find_or_add(line, next) == next) line_list_.push_back(line);
      last_line = line;
    }
    if (sector != last_sector) {
      const auto next = static_cast<std::uint32_t>(touched_.size());
      last_index = sectors_.find_or_add(sector, next);
      last_sector = sector;
      if (last_index == next) {
        touched_.push_back({sector, mask});
        return;
      }
    }
    touched_[last_index].mask |= mask;
  };
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const Address group = a / static_cast<Address>(w_);
    if (group != last_group) {
      groups += groups_.find_or_add(group, groups) == groups;
      last_group = group;
    }
    const std::uint64_t byte = base + a * bytes, offset = byte & (sector_bytes_ - 1);
    if (offset + lane_bytes <= sector_bytes_) {  // the lane's bytes in one sector: the common case
      touch(byte >> sector_shift_, lane_mask << offset);
      continue;
    }
    const std::uint64_t last = byte + lane_bytes - 1;
    for (std::uint64_t sector = byte >> sector_shift_; sector <= last >> sector_shift_; ++sector) {
      const std::uint64_t start = sector << sector_shift_;
      const std::uint64_t lo = std::max(byte, start) - start, hi = std::min(last, start + sector_bytes_ - 1) - start;
      const std::uint64_t n = hi - lo + 1;
      touch(sector, (n == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n) - 1)) << lo);
    }
  }
  request_ = {context.op, groups, line_list_.size(), touched_, line_list_, touched_.size()};
  if (context.atomic != AtomicOp::None) request_.transactions = atomic_transactions(warp, base, bytes);
  return request_;
}

}  // namespace mmsim
