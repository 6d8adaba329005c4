#include "algorithms/layouts/patterns.h"

#include <algorithm>

#include "sim/names.h"

namespace mmsim::layouts {

namespace {
constexpr NameTable<MatrixPattern, 4> kMatrixNames{{{{MatrixPattern::Contiguous, "contiguous"},
                                                     {MatrixPattern::Stride, "stride"},
                                                     {MatrixPattern::Diagonal, "diagonal"},
                                                     {MatrixPattern::Random, "random"}}}};
constexpr NameTable<Array4Pattern, 6> kArray4Names{{{{Array4Pattern::Contiguous, "contiguous"},
                                                     {Array4Pattern::Stride1, "stride1"},
                                                     {Array4Pattern::Stride2, "stride2"},
                                                     {Array4Pattern::Stride3, "stride3"},
                                                     {Array4Pattern::Random, "random"},
                                                     {Array4Pattern::Malicious, "malicious"}}}};
}  // namespace

std::span<const MatrixPattern> matrix_patterns() { return kMatrixNames.values(); }
std::span<const Array4Pattern> array4_patterns() { return kArray4Names.values(); }
const char* to_string(MatrixPattern p) { return kMatrixNames.name(p); }
const char* to_string(Array4Pattern p) { return kArray4Names.name(p); }
std::optional<MatrixPattern> matrix_pattern_from_name(std::string_view name) { return kMatrixNames.parse(name); }
std::optional<Array4Pattern> array4_pattern_from_name(std::string_view name) { return kArray4Names.parse(name); }

const char* malicious_meaning(Array4LayoutKind k) {
  switch (k) {
    case Array4LayoutKind::Raw:
      return "a[i][j][0 : w-1][l]: every request in bank l (congestion w)";
    case Array4LayoutKind::P1:
      return "a[i][0 : w-1][k][l]: one shift r_k for all, so every request in one bank (congestion w)";
    case Array4LayoutKind::R1p:
      return "ceil(w/6) groups of the 6 orderings of a triple of distinct indices (x, y, z) as (i, j, k), one column "
             "l: each group shares r_x + r_y + r_z, so its 6 requests share a bank ([NMI] Sect. VII)";
    case Array4LayoutKind::Ras:
    case Array4LayoutKind::P3:
    case Array4LayoutKind::W2p:
    case Array4LayoutKind::P1W2r:
      return "a[x][p(x)][q(x)][l], x = 0 .. w-1, p and q random permutations, one column l: no access is known that "
             "forces two requests into one bank, so every (i, j, k) is new in all three indices";
  }
  return "?";
}

void draw_matrix_pattern(MatrixPattern p, std::uint32_t w, Draws& draws, std::uint32_t* rows, std::uint32_t* cols) {
  switch (p) {
    case MatrixPattern::Contiguous:
      return draw_matrix_cells<MatrixPattern::Contiguous>(w, draws, rows, cols);
    case MatrixPattern::Stride:
      return draw_matrix_cells<MatrixPattern::Stride>(w, draws, rows, cols);
    case MatrixPattern::Diagonal:
      return draw_matrix_cells<MatrixPattern::Diagonal>(w, draws, rows, cols);
    case MatrixPattern::Random:
      return draw_matrix_cells<MatrixPattern::Random>(w, draws, rows, cols);
  }
}

namespace {
// First n entries of a uniformly random permutation of 0 .. w-1 (partial Fisher-Yates), into out[0 .. w).
void partial_permutation(std::uint32_t w, std::uint32_t n, Draws& draws, std::uint32_t* out) {
  for (std::uint32_t x = 0; x < w; ++x) out[x] = x;
  for (std::uint32_t x = 0; x < n && x + 1 < w; ++x) std::swap(out[x], out[x + draws.below(w - x)]);
}
}  // namespace

void draw_array4_pattern(Array4Pattern p, Array4LayoutKind scheme, std::uint32_t w, Draws& draws, Cell4* cells,
                         std::uint32_t* scratch) {
  switch (p) {
    case Array4Pattern::Contiguous:
    case Array4Pattern::Stride1:
    case Array4Pattern::Stride2:
    case Array4Pattern::Stride3: {
      const Cell4 base{draws.below(w), draws.below(w), draws.below(w), draws.below(w)};
      for (std::uint32_t t = 0; t < w; ++t) {
        Cell4 c = base;
        if (p == Array4Pattern::Contiguous)
          c.l = t;
        else if (p == Array4Pattern::Stride1)
          c.k = t;
        else if (p == Array4Pattern::Stride2)
          c.j = t;
        else
          c.i = t;
        cells[t] = c;
      }
      return;
    }
    case Array4Pattern::Random:
      for (std::uint32_t t = 0; t < w; ++t) cells[t] = {draws.below(w), draws.below(w), draws.below(w), draws.below(w)};
      return;
    case Array4Pattern::Malicious:
      break;
  }
  if (scheme == Array4LayoutKind::Raw)
    return draw_array4_pattern(Array4Pattern::Stride1, scheme, w, draws, cells, scratch);
  if (scheme == Array4LayoutKind::P1)
    return draw_array4_pattern(Array4Pattern::Stride2, scheme, w, draws, cells, scratch);
  const std::uint32_t l = draws.below(w);
  if (scheme == Array4LayoutKind::R1p) {
    // Group g takes three distinct fresh indices and all 6 of their orderings; the last group may be
    // cut short. For w = 2 no three distinct indices exist: the orderings of (x, x, y) share a bank too.
    static constexpr std::uint32_t kOrder[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const std::uint32_t groups = (w + 5) / 6;
    partial_permutation(w, std::min(3 * groups, w), draws, scratch);
    for (std::uint32_t t = 0; t < w; ++t) {
      const std::uint32_t g = t / 6, o = t % 6;
      std::uint32_t v[3];
      if (w < 3)
        v[0] = scratch[0], v[1] = scratch[0], v[2] = scratch[1];
      else
        v[0] = scratch[3 * g], v[1] = scratch[3 * g + 1], v[2] = scratch[3 * g + 2];
      if (w < 3) {
        static constexpr std::uint32_t kMulti[3][3] = {{0, 1, 2}, {0, 2, 1}, {2, 0, 1}};
        cells[t] = {v[kMulti[o][0]], v[kMulti[o][1]], v[kMulti[o][2]], l};
      } else {
        cells[t] = {v[kOrder[o][0]], v[kOrder[o][1]], v[kOrder[o][2]], l};
      }
    }
    return;
  }
  // a[x][p(x)][q(x)][l]: two fresh permutations, drawn one after the other through scratch.
  partial_permutation(w, w, draws, scratch);
  for (std::uint32_t t = 0; t < w; ++t) cells[t].i = t, cells[t].j = scratch[t], cells[t].l = l;
  partial_permutation(w, w, draws, scratch);
  for (std::uint32_t t = 0; t < w; ++t) cells[t].k = scratch[t];
}

}  // namespace mmsim::layouts
