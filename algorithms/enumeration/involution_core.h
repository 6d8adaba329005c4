// Where the 3D involutions of GL Sect. 3.3 move each cell, as header-only integer arithmetic that
// both the host compiler and nvcc (device code) build, so that the simulator's runs and the GPU
// kernels and their checks share one definition (involutions.h says what the involutions are).
#pragma once

#include <cstdint>

#include "algorithms/enumeration/pairing_core.h"

namespace mmsim::enumeration::core {

/// The matrix is stored x fastest, then y, then z.
enum class Inv3 : int {
  Yxz = 0,  ///< n x n x depth: the xy planes transposed
  Zyx = 1,  ///< n x depth x n: the xz slices transposed
};

/// Matrix p of the batch of n x n matrices the involution transposes: its first cell, and the
/// cells from one of its rows to the next.
struct Batch3 {
  std::uint64_t base, pitch;
};
template <Inv3 I>
MMSIM_ENUM_HD Batch3 batch3(std::uint64_t n, std::uint64_t depth, std::uint64_t p) {
  if constexpr (I == Inv3::Yxz)
    return {p * n * n, n};  // plane z = p: cell (x, y) at x + n y
  else
    return {p * n, n * depth};  // slice y = p: cell (x, z) at x + (n depth) z
}

/// The cell that cell i moves to; the involution is its own inverse, so this is also the cell
/// whose contents cell i receives.
template <Inv3 I>
MMSIM_ENUM_HD std::uint64_t involution_image(std::uint64_t n, std::uint64_t depth, std::uint64_t i) {
  if constexpr (I == Inv3::Yxz) {
    const std::uint64_t x = i % n, y = i / n % n, z = i / (n * n);
    return y + n * x + n * n * z;
  } else {
    const std::uint64_t x = i % n, y = i / n % depth, z = i / (n * depth);
    return z + n * y + n * depth * x;
  }
}

}  // namespace mmsim::enumeration::core
