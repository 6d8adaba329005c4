#include "models/gpu_memory/dram_rows.h"

#include <algorithm>

namespace mmsim {

DramRows::DramRows(std::uint32_t sector_bytes, std::uint32_t row_bytes, std::uint32_t banks, std::uint32_t write_rows,
                   int slot_shift)
    : slot_shift_(slot_shift) {
  if (row_bytes == 0) return;
  sectors_per_row_ = row_bytes / sector_bytes;
  const auto part = [&](std::uint32_t size) { return std::max<std::size_t>(1, size >> slot_shift); };
  open_.assign(part(banks), 0);
  open_reads_.assign(part(banks), 0);
  written_.assign(part(write_rows), 0);
}

bool DramRows::open(std::vector<std::uint64_t>& table, std::uint64_t row) const {
  const std::uint64_t h = slot_hash(row) >> slot_shift_;
  std::uint64_t& slot = table[static_cast<std::size_t>(h % table.size())];
  if (slot == row + 1) return false;
  slot = row + 1;
  return true;
}

void DramRows::read(std::uint64_t sector, GpuMemoryStats& stats) {
  if (open_.empty()) return;
  if (open(open_, row_of(sector))) ++stats.activations;
  if (open(open_reads_, row_of(sector))) ++stats.read_activations;
}

void DramRows::fill(std::uint64_t sector, GpuMemoryStats& stats) {
  if (open_.empty()) return;
  if (open(open_, row_of(sector))) ++stats.activations;
}

void DramRows::write(std::uint64_t sector, bool merged, GpuMemoryStats& stats) {
  if (open_.empty()) return;
  if (open(written_, row_of(sector))) {
    ++stats.activations;
    ++stats.write_activations;
    if (merged) ++stats.rmw_activations;
  }
}

}  // namespace mmsim
