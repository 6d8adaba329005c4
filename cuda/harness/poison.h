// The one poison-and-check protocol of the GPU measurements: before every run the output is set to
// the poison, so that a cell a kernel forgets to write cannot keep the right value from an earlier
// run; after the runs every cell is compared with the reference. Plain C++ (no CUDA header).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace mmsim::gpu {

/// The poison, byte by byte: all ones, a NaN as float and as double, and no cell's value
/// (source_bits32/64 of cuda/index.h and cell_bits of cuda/enumeration/tiles.h never are).
inline constexpr unsigned char kPoisonByte = 0xFF;

/// Sets `bytes` bytes of device memory at `device_ptr` to the poison, on the default stream: done
/// before any later launch, without waiting on the host. Throws GpuError.
void poison(void* device_ptr, std::uint64_t bytes);

/// The outcome of a cell-by-cell comparison.
struct Mismatches {
  std::uint64_t count = 0;
  std::uint64_t first = 0;  ///< the lowest index that failed, when count > 0
};

/// Checks cells 0 .. n - 1 with `cell_ok(i)` (true: cell i holds what it should), split into
/// `threads` ranges on the host.
template <typename CellOk>
Mismatches compare_cells(std::uint64_t n, unsigned threads, const CellOk& cell_ok) {
  threads = std::max(1u, threads);
  std::vector<Mismatches> part(threads);
  const auto scan = [&](unsigned t) {
    const std::uint64_t lo = n * t / threads, hi = n * (t + 1) / threads;
    Mismatches m;
    for (std::uint64_t i = lo; i < hi; ++i)
      if (!cell_ok(i) && m.count++ == 0) m.first = i;
    part[t] = m;
  };
  if (threads == 1) {
    scan(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(scan, t);
    for (auto& th : pool) th.join();
  }
  // The ranges are in order, so the first range with a mismatch holds the lowest one.
  Mismatches all;
  for (const Mismatches& m : part) {
    if (m.count && all.count == 0) all.first = m.first;
    all.count += m.count;
  }
  return all;
}

}  // namespace mmsim::gpu
