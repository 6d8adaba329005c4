// What every calibration microbenchmark (predict/microbench.h) starts from and what it must leave
// in b, for both sides: the GPU driver (cuda/calibrate/) checks its output with it cell by cell, and
// the simulator's programs (predict/microbench_programs.h) are tested with it.
#pragma once

#include <cstdint>
#include <span>

#include "predict/microbench.h"

namespace mmsim::predict {

/// a[i] = i + 1: never 0 (a cell nobody wrote) and, below 2^32 - 1 elements, never the poison.
constexpr std::uint64_t microbench_source(std::uint64_t i) { return i + 1; }

/// Shared: before its reads, block `block` fills word j of its shared array with j + block, so
/// that the sums differ from block to block (a thread that summed another block's words is seen).
constexpr std::uint32_t shared_fill(std::uint64_t block, std::uint32_t word) {
  return static_cast<std::uint32_t>(block) + word;
}
inline constexpr std::uint32_t kSharedWords = 32 * 33;  ///< the shared array, in words

/// Threads launched, and the elements of a and b (0 where the bench has no such array).
std::uint64_t microbench_threads(const Microbench& m);
std::uint64_t microbench_input_size(const Microbench& m);
std::uint64_t microbench_output_size(const Microbench& m);

/// The first bad field of a microbenchmark and its rule, or nullptr: n a positive multiple of the
/// stride, below 2^32 - 1; strides 1 to 32, and for Shared a power of two (the congestion is the
/// stride only then); element_bytes 4 or 8.
const char* microbench_error(const Microbench& m);

/// The outcome of checking b against the bench's semantics.
struct OutputCheck {
  std::uint64_t wrong = 0;  ///< cells that hold what they should not
  std::uint64_t first = 0;  ///< the lowest wrong cell, when wrong > 0
};

/// Checks every cell of `b` (microbench_output_size cells), a having been microbench_source:
/// what each kind must write is there, and every cell it must not write still holds `untouched`
/// (the poison). WriteRandom: a cell written holds a[i] of some i whose hash lands there (any one
/// of the colliding writes may land). Values are compared modulo 2^(8 element_bytes).
OutputCheck check_output(const Microbench& m, std::span<const std::uint32_t> b, std::uint64_t untouched);
OutputCheck check_output(const Microbench& m, std::span<const std::uint64_t> b, std::uint64_t untouched);

}  // namespace mmsim::predict
