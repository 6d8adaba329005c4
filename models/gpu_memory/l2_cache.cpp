#include "models/gpu_memory/l2_cache.h"

#include <algorithm>

namespace mmsim {

L2Cache::L2Cache(std::uint64_t sectors, std::uint32_t ways, std::uint64_t full_mask, DramRows& dram)
    : dram_(dram), ways_(ways), sets_(std::max<std::uint64_t>(1, sectors / ways)), full_(full_mask) {
  const auto n = static_cast<std::size_t>(sets_ * ways_);
  tags_.assign(n, 0);
  stamps_.assign(n, 0);
  bytes_.resize(n);
}

// A mix of the sector's bits, so that arrays at round bases and strided walks do not pile into a
// few sets.
std::size_t L2Cache::set_of(std::uint64_t sector) const {
  std::uint64_t x = sector * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return static_cast<std::size_t>((x % sets_) * ways_);
}

void L2Cache::prefetch(std::uint64_t sector) const {
  const std::size_t first = set_of(sector);
  const auto* tags = reinterpret_cast<const char*>(&tags_[first]);
  const auto* stamps = reinterpret_cast<const char*>(&stamps_[first]);
  const auto* bytes = reinterpret_cast<const char*>(&bytes_[first]);
  for (std::size_t b = 0; b < ways_ * sizeof(std::uint64_t); b += 64) {
    __builtin_prefetch(tags + b);
    __builtin_prefetch(stamps + b);
  }
  for (std::size_t b = 0; b < ways_ * sizeof(Bytes); b += 64) __builtin_prefetch(bytes + b);
}

std::size_t L2Cache::find_or_install(std::uint64_t sector, bool& hit, GpuMemoryStats& stats) {
  const std::size_t first = set_of(sector), end = first + ways_;
  for (std::size_t i = first; i < end; ++i)
    if (tags_[i] == sector + 1) {
      hit = true;
      stamps_[i] = ++clock_;
      return i;
    }
  hit = false;
  // An empty way first (stamp 0), else the least recently used: the first smallest stamp.
  const std::size_t victim =
      static_cast<std::size_t>(std::min_element(stamps_.begin() + static_cast<std::ptrdiff_t>(first),
                                                stamps_.begin() + static_cast<std::ptrdiff_t>(end)) -
                               stamps_.begin());
  evict(victim, stats);
  tags_[victim] = sector + 1;
  stamps_[victim] = ++clock_;
  return victim;
}

void L2Cache::evict(std::size_t way, GpuMemoryStats& stats) {
  if (tags_[way] == 0) return;
  Bytes& b = bytes_[way];
  if (b.dirty != 0) {
    const std::uint64_t sector = tags_[way] - 1;
    const bool partial = b.valid != full_;
    if (partial) {  // merge the partial sector with memory before writing it
      ++stats.dram_reads;
      ++stats.fills;
      dram_.fill(sector, stats);
    }
    ++stats.dram_writes;
    dram_.write(sector, partial, stats);
  }
  b = Bytes{};
  tags_[way] = 0;
  stamps_[way] = 0;
}

bool L2Cache::read(std::uint64_t sector, std::uint64_t need, GpuMemoryStats& stats) {
  bool held = false;
  Bytes& b = bytes_[find_or_install(sector, held, stats)];
  const bool hit = held && (b.valid & need) == need;
  if (!hit) {
    ++stats.dram_reads;
    dram_.read(sector, stats);
    b.valid = full_;  // the whole sector comes in; bytes written here stay newer
  }
  return hit;
}

bool L2Cache::write(std::uint64_t sector, std::uint64_t mask, GpuMemoryStats& stats) {
  bool held = false;
  Bytes& b = bytes_[find_or_install(sector, held, stats)];
  b.valid |= mask;
  b.dirty |= mask;
  return held;
}

void L2Cache::flush(GpuMemoryStats& stats) {
  for (std::size_t i = 0; i < tags_.size(); ++i) evict(i, stats);
}

}  // namespace mmsim
