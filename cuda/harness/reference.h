// What every permutation family's check and speed are measured against: the source array of
// distinct values that cuda/index.h defines (cell i holds source_bits32/64(i)), and the copy that is
// every table's 100 % line. Plain C++ (no CUDA header).
#pragma once

#include <cstdint>

namespace mmsim::gpu {

/// Fills n cells of `cell_bytes` (4 or 8) bytes at `device_ptr` with source_bits32/64(i) and waits
/// for it. Throws GpuError.
void fill_source(void* device_ptr, std::uint64_t n, unsigned cell_bytes);

/// Launches the 100 % line: `bytes` (a multiple of 16) copied from `src` to `dst` in 16-byte
/// vectors, one per thread (coalesced 512-byte warp accesses). Does not wait. Throws GpuError.
void launch_copy16(const void* src, void* dst, std::uint64_t bytes);

}  // namespace mmsim::gpu
