// Index arithmetic of the shared-memory 32 x 32 transposes (NMI Sect. III, VI) under the
// raw, ras, rap, pad and xor layouts, shared by the GPU kernels and the CPU tests. The layouts are
// the ones of models/layouts (MatrixLayout with w = 32); their random shifts are drawn on the host.
#pragma once

#include <cstdint>

#include "cuda/index.h"

namespace mmsim::gpu {

/// The layouts, in the order of layouts::matrix_layout_kinds() (checked on the host).
enum class SmemLayout : std::uint8_t { Raw, Ras, Rap, Pad, Xor };
/// The transposes, in the order of layouts::transposes().
enum class SmemTranspose : std::uint8_t { Crsw, Srcw, Drdw };

inline constexpr int kSmemLayouts = 5;
inline constexpr int kSmemTransposes = 3;

/// Cells a layout spans: a row pitch of w + 1 for pad, w otherwise.
MMSIM_HD std::uint32_t smem_pitch(SmemLayout k) { return k == SmemLayout::Pad ? kW + 1 : kW; }
MMSIM_HD std::uint32_t smem_cells(SmemLayout k) { return kW * smem_pitch(k); }

/// Address of cell (i, j), i, j < 32, given r = r_i, row i's shift (read by ras and rap only):
/// raw i w + j; ras and rap i w + (j + r_i) mod w (NMI Sect. I, IV); pad i (w + 1) + j;
/// xor i w + (j XOR i). The same map as MatrixLayout::address for w = 32.
MMSIM_HD std::uint32_t smem_address(SmemLayout k, std::uint32_t i, std::uint32_t j, std::uint32_t r) {
  switch (k) {
    case SmemLayout::Ras:
    case SmemLayout::Rap:
      return (i << kLogW) | ((j + r) & (kW - 1));
    case SmemLayout::Pad:
      return i * (kW + 1) + j;
    case SmemLayout::Xor:
      return (i << kLogW) | (j ^ i);
    case SmemLayout::Raw:
    default:
      return (i << kLogW) | j;
  }
}

/// A cell of the matrix: row and column.
struct SmemCell {
  std::uint32_t row, col;
};

/// The cell thread T(i w + j) reads from a (NMI Sect. III): crsw (i, j), srcw (j, i),
/// drdw ((i + j) mod w, j). It writes the transposed cell of b: (col, row) of the cell it read.
MMSIM_HD SmemCell smem_read_cell(SmemTranspose t, std::uint32_t thread) {
  const std::uint32_t i = thread >> kLogW, j = thread & (kW - 1);
  switch (t) {
    case SmemTranspose::Srcw:
      return {j, i};
    case SmemTranspose::Drdw:
      return {(i + j) & (kW - 1), j};
    case SmemTranspose::Crsw:
    default:
      return {i, j};
  }
}
MMSIM_HD SmemCell smem_write_cell(SmemTranspose t, std::uint32_t thread) {
  const SmemCell c = smem_read_cell(t, thread);
  return {c.col, c.row};
}

}  // namespace mmsim::gpu
