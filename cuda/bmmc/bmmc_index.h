// Index arithmetic of the GPU BPC / BMMC kernels (BDS Sect. 4-5), shared by the device and
// the CPU tests: one pass's parameters as plain data, and the per-lane pieces of every address.
// The kernels are generic at run time: the matrix rows and the bit masks are kernel arguments.
#pragma once

#include <cstdint>

#include "cuda/index.h"

namespace mmsim::gpu::bmmc {

/// Index bits a device pass handles: 32-bit indices, and source cells whose bit patterns stay finite.
inline constexpr std::uint32_t kMaxBits = 30;

/// One pass y = A x + c over n-bit indices, as the kernels read it. Rows are bit vectors: bit j of
/// rows[i] is a_ij, so output bit i is the parity of rows[i] & x; rows at or above n are zero. The
/// masks partition the n index bits as in BDS Sect. 4.1 and 4.3 for tiles of w = 32 columns:
/// col (the 5 low bits), row (the tile row bits: the columns of A that vanish below row 5),
/// over = row & col, iter (the bits a block walks through in its loop) and block (the grid).
struct PassArgs {
  std::uint32_t rows[32];
  std::uint32_t c;
  std::uint32_t bits;
  std::uint32_t row, col_only, row_only, over, iter, block;
  std::uint32_t warps;   ///< warps per block of a tiled pass: 2^(5 - |over|)
  std::uint32_t blocks;  ///< grid of a tiled pass: 2^|block|
};

MMSIM_HD std::uint32_t popc32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__popc(x));
#else
  return static_cast<std::uint32_t>(__builtin_popcount(x));
#endif
}

/// Output bit i of A x: the parity of one row against x.
MMSIM_HD std::uint32_t parity_bit(std::uint32_t row, std::uint32_t x) { return popc32(row & x) & 1u; }

/// A x (no complement), one row at a time. The loop has a fixed length so that the rows are read
/// at fixed offsets (kernel arguments stay in the constant bank).
MMSIM_HD std::uint32_t apply_rows(const PassArgs& a, std::uint32_t x) {
  std::uint32_t y = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (std::uint32_t i = 0; i < 32; ++i) y |= parity_bit(a.rows[i], x) << i;
  return y;
}

/// Software deposit and extract (the stitching functions of BDS Sect. 4.1 are built from
/// them): `value`'s low bits go, in order, to the set bits of `mask`; and back.
MMSIM_HD std::uint32_t deposit32(std::uint32_t value, std::uint32_t mask) {
  std::uint32_t out = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1, value >>= 1) out |= (value & 1u) ? (m & (~m + 1u)) : 0u;
  return out;
}
MMSIM_HD std::uint32_t extract32(std::uint32_t x, std::uint32_t mask) {
  std::uint32_t out = 0, k = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1, ++k) out |= ((x & m & (~m + 1u)) != 0 ? 1u : 0u) << k;
  return out;
}

/// Bit `lane` of one warp-wide word that every warp forms with a ballot before its reads: the
/// thread-block bits deposit(blk, block), the tile row bits the warp reads deposit(warp, row_only),
/// and, in the low 5 bits, deposit(warp, col_only): the row shift of Sect. 4.2 in the read phase and
/// the column bits the warp writes in the write phase (the same function of the warp index). Lane
/// L answers for index bit L, so one ballot replaces three software deposits per thread.
MMSIM_HD std::uint32_t read_word_bit(const PassArgs& a, std::uint32_t lane, std::uint32_t warp, std::uint32_t blk) {
  const std::uint32_t bit = 1u << lane;
  const bool in_block = (a.block & bit) != 0;
  const std::uint32_t mask = in_block             ? a.block
                             : (a.row_only & bit) ? a.row_only
                             : (a.col_only & bit) ? a.col_only
                                                  : 0u;
  if (mask == 0) return 0;
  const std::uint32_t src = in_block ? blk : warp;
  return (src >> popc32(mask & (bit - 1u))) & 1u;
}

/// The pieces of the read word.
MMSIM_HD std::uint32_t word_block(const PassArgs& a, std::uint32_t word) { return word & a.block; }
MMSIM_HD std::uint32_t word_row(const PassArgs& a, std::uint32_t word) { return word & a.row_only; }
MMSIM_HD std::uint32_t word_col(std::uint32_t word) { return word & (kW - 1); }

/// The k-th lowest set bit of mask (0 when it has fewer bits): iteration bit k's unit vector.
MMSIM_HD std::uint32_t nth_bit(std::uint32_t mask, std::uint32_t k) {
  for (std::uint32_t i = 0; i < k && mask != 0; ++i) mask &= mask - 1;
  return mask & (~mask + 1u);
}

/// deposit(it, iter) from the iteration bits' unit vectors e0 < e1 < e2 (zero where iter has fewer),
/// and, applied to their images A e_k, A deposit(it, iter): the same XOR, by linearity. Sect. 4.3
/// uses at most 3 iteration bits.
MMSIM_HD std::uint32_t iter_combo(std::uint32_t it, std::uint32_t e0, std::uint32_t e1, std::uint32_t e2) {
  return ((it & 1u) ? e0 : 0u) ^ ((it & 2u) ? e1 : 0u) ^ ((it & 4u) ? e2 : 0u);
}

/// Read phase (Sect. 4.1, stitch_col): the source index of the element a thread loads in iteration
/// `it` (iter_in = deposit(it, iter)), and the tile cell it stores it in. The tile is 2^(5 - over)
/// rows of 32 cells; the warp fills row `warp`, its lanes the columns, rotated right by the row's
/// shift deposit(warp, col_only) when `banks` (Sect. 4.2): any rotation keeps one row conflict-free.
MMSIM_HD std::uint32_t read_source(const PassArgs& a, std::uint32_t word, std::uint32_t lane, std::uint32_t iter_in) {
  return word_block(a, word) | word_row(a, word) | lane | iter_in;
}
MMSIM_HD std::uint32_t read_tile_cell(std::uint32_t word, std::uint32_t warp, std::uint32_t lane, bool banks) {
  const std::uint32_t shift = banks ? word_col(word) : 0u;
  return (warp << kLogW) | ((lane + shift) & (kW - 1));
}

/// Write phase (Sect. 4.1, stitch_row): lane L supplies the tile row bits, D = deposit(L, row). The
/// element then sits in tile row r = extract(D, row_only) at column (warp's col_only bits | D's over
/// bits) plus the row's shift. lane_tile(L) packs r << 5 with the lane's share of the column,
/// (D & over) + shift(r), so that write_tile_cell adds the warp's share. Built once per block.
MMSIM_HD std::uint32_t lane_tile(const PassArgs& a, std::uint32_t lane, bool banks) {
  const std::uint32_t d = deposit32(lane, a.row);
  const std::uint32_t r = extract32(d, a.row_only);
  const std::uint32_t shift = banks ? deposit32(r, a.col_only) : 0u;
  return (r << kLogW) | (((d & a.over) + shift) & (kW - 1));
}
/// A D: by Sect. 5.1's tiling condition the columns of A on the tile row bits vanish below row 5,
/// so this is a 5-bit value, and lane L's outputs of one warp run over 32 consecutive cells.
MMSIM_HD std::uint32_t lane_out(const PassArgs& a, std::uint32_t lane) { return apply_rows(a, deposit32(lane, a.row)); }

MMSIM_HD std::uint32_t write_tile_cell(std::uint32_t lane_tile_entry, std::uint32_t word) {
  return (lane_tile_entry & ~(kW - 1)) | ((word_col(word) + lane_tile_entry) & (kW - 1));
}

/// The element the write phase handles is x = word_col | D | word_block | iter_in, and by linearity
/// A x + c = [A (word_col | word_block) + c] + A D + A iter_in: the first term is warp-uniform (one
/// ballot of parity bits), the second comes from the lane table, the third from the iteration.
MMSIM_HD std::uint32_t warp_out_operand(const PassArgs& a, std::uint32_t word) {
  return word_col(word) | word_block(a, word);
}

}  // namespace mmsim::gpu::bmmc
