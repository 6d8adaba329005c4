#include "models/gpu_memory/params.h"

#include <algorithm>
#include <bit>

namespace mmsim {

std::optional<std::string> GpuMemoryParams::validate() const {
  if (sector_bytes < 4 || sector_bytes > 64 || !std::has_single_bit(sector_bytes))
    return "sector-bytes: must be a power of two from 4 to 64";
  if (element_bytes == 0 || element_bytes > sector_bytes || !std::has_single_bit(element_bytes))
    return "element-bytes: must be a power of two no larger than a sector";
  if (cache_bytes > (std::uint64_t{1} << 34)) return "cache-bytes: at most 16 GiB";
  if (cache_ways < 1 || cache_ways > 64) return "cache-ways: must be between 1 and 64";
  if (dram_row_bytes != 0 &&
      (dram_row_bytes < sector_bytes || dram_row_bytes > 65536 || !std::has_single_bit(dram_row_bytes)))
    return "dram-row-bytes: must be 0 or a power of two from a sector to 65536";
  if (dram_banks < 1 || dram_banks > 65536) return "dram-banks: must be between 1 and 65536";
  if (dram_write_rows < 1 || dram_write_rows > (1u << 20) || !std::has_single_bit(dram_write_rows))
    return "dram-write-rows: must be a power of two from 1 to 1048576";
  if (cache_bytes > 0 && cache_bytes < std::uint64_t{sector_bytes} * cache_ways)
    return "cache-bytes: must hold at least one set of cache-ways sectors";
  return std::nullopt;
}

namespace {

// Applies f to each pair of fields of a and b.
template <typename F>
void each_field(GpuMemoryStats& a, const GpuMemoryStats& b, F f) {
  f(a.accesses, b.accesses), f(a.umm_groups, b.umm_groups), f(a.lines, b.lines);
  f(a.read_sectors, b.read_sectors), f(a.write_sectors, b.write_sectors), f(a.hits, b.hits);
  f(a.dram_reads, b.dram_reads), f(a.fills, b.fills), f(a.dram_writes, b.dram_writes);
  f(a.activations, b.activations), f(a.read_activations, b.read_activations);
  f(a.write_activations, b.write_activations), f(a.rmw_activations, b.rmw_activations);
}

}  // namespace

GpuMemoryStats& GpuMemoryStats::operator+=(const GpuMemoryStats& x) {
  each_field(*this, x, [](std::uint64_t& a, std::uint64_t b) { a += b; });
  return *this;
}

GpuMemoryStats& GpuMemoryStats::operator-=(const GpuMemoryStats& x) {
  each_field(*this, x, [](std::uint64_t& a, std::uint64_t b) { a -= b; });
  return *this;
}

}  // namespace mmsim
