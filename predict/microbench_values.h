// The values and sizes every calibration microbenchmark starts from, which the GPU's kernels
// (cuda/calibrate/, compiled as C++17 by nvcc) and the simulator's side share: nothing here needs
// more than C++17 (microbench_reference.h, with its std::span checks, is the host's alone).
#pragma once

#include <cstdint>

#include "predict/microbench.h"

namespace mmsim::predict {

/// a[i] = i + 1: never 0 (a cell nobody wrote) and, below 2^32 - 1 elements, never the poison.
constexpr std::uint64_t microbench_source(std::uint64_t i) { return i + 1; }

/// Shared: before its reads, block `block` fills word j of its shared array with j + block, so
/// that the sums differ from block to block (a thread that summed another block's words is seen).
constexpr std::uint32_t shared_fill(std::uint64_t block, std::uint32_t word) {
  return static_cast<std::uint32_t>(block) + word;
}
inline constexpr std::uint32_t kSharedWords = 32 * 33;    ///< the shared array, in words
inline constexpr std::uint32_t kMaxEmptyLaunches = 1024;  ///< Empty's launches back to back, at most

/// The launches an Empty bench makes: `repeats`, one for 0 or 1.
constexpr std::uint32_t empty_launches(const Microbench& m) { return m.repeats > 1 ? m.repeats : 1; }

/// Threads launched, and the elements of a and b (0 where the bench has no such array).
std::uint64_t microbench_threads(const Microbench& m);
std::uint64_t microbench_input_size(const Microbench& m);
std::uint64_t microbench_output_size(const Microbench& m);

/// The first bad field of a microbenchmark and its rule, or nullptr: n a positive multiple of the
/// stride, below 2^32 - 1; strides 1 to 32, and for Shared a power of two (the congestion is the
/// stride only then); for the transposed kinds the stride and n / stride powers of two; Empty's
/// launches at most kMaxEmptyLaunches; element_bytes 4 or 8.
const char* microbench_error(const Microbench& m);

}  // namespace mmsim::predict
