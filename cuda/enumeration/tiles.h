// Which tile each GPU block of the transposition kernels moves (GL Sects. 3-6), and the
// cell contents the kernels are checked with. Host-and-device code: the CPU tests compare it with
// the simulator's grids, so the GPU decodes exactly what the simulator was checked on.
#pragma once

#include <cstdint>

#include "algorithms/enumeration/involution_core.h"
#include "algorithms/enumeration/pairing_core.h"

namespace mmsim::gpu::enumeration {

namespace core = mmsim::enumeration::core;

/// Tile side (one warp per tile row) and rows of the 32 x 8 thread block of Sect. 7 (Figs. 9-11):
/// each thread moves kTile / kRows cells of a tile.
inline constexpr std::uint32_t kTile = 32;
inline constexpr std::uint32_t kRows = 8;

/// The triangular schemes a block index can be decoded with.
enum class Tri : int { V1 = 0, V1R = 1, V1B = 2 };

/// The band actually used: at least 1 and at most `limit` (m - 1 for V1B, m for V1BF).
MMSIM_ENUM_HD std::uint64_t clamp_band(std::uint64_t band, std::uint64_t limit) {
  return band < 1 ? 1 : (band > limit ? limit : band);
}

/// Tile pair (x <= y) of block k of the triangular grid over an nb x nb tile matrix: the tiles on
/// and below the diagonal are the entries strictly below the diagonal of an order-(nb + 1) triangle,
/// entry (x, y + 1) <-> tile (x, y). `band` must already be clamped to [1, nb].
template <Tri S>
MMSIM_ENUM_HD core::XY triangle_tile(std::uint64_t nb, std::uint64_t band, std::uint64_t k) {
  core::XY c{};
  if constexpr (S == Tri::V1)
    c = core::v1_decode(k);
  else if constexpr (S == Tri::V1R)
    c = core::v1r_decode(k);
  else
    c = core::v1b_decode(nb + 1, band, k);
  return {c.x, c.y - 1};
}

/// Tile (x, y) of block k of the banded out-of-place grid: cb tile columns, rb tile rows, bands
/// of `band` tile columns (clamped to [1, cb]), V1BF order (Sect. 6).
MMSIM_ENUM_HD core::XY v1bf_tile(std::uint64_t cb, std::uint64_t rb, std::uint64_t band, std::uint64_t k) {
  return core::v1bf_decode(cb, rb, band, k);
}

/// The 3D involutions' geometry (GL Sect. 3.3), the simulator's own.
using core::Batch3;
using core::batch3;
using core::Inv3;

/// Cell i's contents, as the bits of a float: bit 30 (the exponent's top bit) is always clear, so
/// every value is a finite float and never the poison. Injective for i < 2^31; beyond, the high
/// bits are folded in, so a cell left in place or misplaced shows up except with chance ~2^-31.
MMSIM_ENUM_HD std::uint32_t cell_bits(std::uint64_t i) {
  const std::uint64_t h = i ^ ((i >> 31) * 0x9E3779B97F4A7C15ull);
  const auto lo = static_cast<std::uint32_t>(h & 0x7FFFFFFFu);  // 31 bits
  return (lo & 0x3FFFFFFFu) | ((lo & 0x40000000u) << 1);        // bit 30 -> bit 31
}

/// Every output cell is set to this before an out-of-place run: a NaN that no cell holds.
inline constexpr std::uint32_t kPoison = 0xFFFFFFFFu;

}  // namespace mmsim::gpu::enumeration
