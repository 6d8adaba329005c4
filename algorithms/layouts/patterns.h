// Access patterns of one warp over a w x w matrix or a w^4 array (NMI Sect. III, V, VII).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "models/layouts/array4_layout.h"
#include "models/layouts/draws.h"

namespace mmsim::layouts {

/// One warp's w cells of a w x w matrix (NMI Sect. III; the row, column or offset drawn fresh):
///  - contiguous: row i, cells (i, 0) .. (i, w-1);
///  - stride:     column j, cells (0, j) .. (w-1, j);
///  - diagonal:   offset d, thread t takes (t, (d + t) mod w) (warp d of the diagonal access);
///  - random:     each thread an independent uniform cell; equal cells merge into one request.
enum class MatrixPattern { Contiguous, Stride, Diagonal, Random };

/// One warp's w cells of a w^4 array (NMI Sect. VII; free coordinates drawn fresh):
///  - contiguous a[i][j][k][0 : w-1], stride1 a[i][j][0 : w-1][l], stride2 a[i][0 : w-1][k][l],
///    stride3 a[0 : w-1][j][k][l], random: w independent uniform cells (equal ones merge);
///  - malicious: the access the scheme is weakest against (malicious_meaning()).
enum class Array4Pattern { Contiguous, Stride1, Stride2, Stride3, Random, Malicious };

std::span<const MatrixPattern> matrix_patterns();
std::span<const Array4Pattern> array4_patterns();
const char* to_string(MatrixPattern p);
const char* to_string(Array4Pattern p);
std::optional<MatrixPattern> matrix_pattern_from_name(std::string_view name);
std::optional<Array4Pattern> array4_pattern_from_name(std::string_view name);

/// True when the pattern may name one cell twice (then equal addresses must merge).
inline bool may_repeat(MatrixPattern p) { return p == MatrixPattern::Random; }
inline bool may_repeat(Array4Pattern p) { return p == Array4Pattern::Random; }

/// What `malicious` means under each w^4 scheme, in words (printed by `mmsim list`).
const char* malicious_meaning(Array4LayoutKind k);

/// Fills rows[t], cols[t] (t < w) with one fresh access of pattern P.
template <MatrixPattern P>
inline void draw_matrix_cells(std::uint32_t w, Draws& draws, std::uint32_t* rows, std::uint32_t* cols) {
  if constexpr (P == MatrixPattern::Contiguous) {
    const std::uint32_t i = draws.below(w);
    for (std::uint32_t t = 0; t < w; ++t) rows[t] = i, cols[t] = t;
  } else if constexpr (P == MatrixPattern::Stride) {
    const std::uint32_t j = draws.below(w);
    for (std::uint32_t t = 0; t < w; ++t) rows[t] = t, cols[t] = j;
  } else if constexpr (P == MatrixPattern::Diagonal) {
    const std::uint32_t d = draws.below(w);
    for (std::uint32_t t = 0; t < w; ++t) {
      const std::uint32_t c = d + t;
      rows[t] = t, cols[t] = c >= w ? c - w : c;
    }
  } else {
    for (std::uint32_t t = 0; t < w; ++t) rows[t] = draws.below(w), cols[t] = draws.below(w);
  }
}

/// draw_matrix_cells for a pattern chosen at run time.
void draw_matrix_pattern(MatrixPattern p, std::uint32_t w, Draws& draws, std::uint32_t* rows, std::uint32_t* cols);

/// A cell a[i][j][k][l] of a w^4 array.
struct Cell4 {
  std::uint32_t i = 0, j = 0, k = 0, l = 0;
};
/// Fills cells[t] (t < w) with one fresh access of pattern p; `scheme` picks the malicious access;
/// `scratch` holds at least w numbers.
void draw_array4_pattern(Array4Pattern p, Array4LayoutKind scheme, std::uint32_t w, Draws& draws, Cell4* cells,
                         std::uint32_t* scratch);

}  // namespace mmsim::layouts
