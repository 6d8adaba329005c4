#include "algorithms/bmmc/tiled.h"

#include <stdexcept>

namespace mmsim::f2 {

std::optional<BitVector> tile_row_bits(const BitMatrix& a, int t) {
  const int n = a.size();
  if (t < 0 || t > n) throw std::invalid_argument("tile_row_bits: t must be in [0, n]");
  BitVector rows = 0;
  for (int j = 0; j < n; ++j)
    if ((a.column(j) & ~low_bits(t)) == 0) rows |= BitVector{1} << j;
  // Columns of an invertible matrix are independent; those zero below row t live in a t-dimensional
  // space, so there are at most t of them, and exactly t make the top block invertible.
  if (__builtin_popcountll(rows) != t) return std::nullopt;
  return rows;
}

std::vector<Bmmc> tiled_factors(const Bmmc& f, int t) {
  if (is_tiled(f.a, t)) return {f};
  const int n = f.bits();
  const Ulp d = ulp(f.a);
  const BitMatrix r = bit_reversal(n).a;
  // A = (U R)(R L P) since R R = I. U R keeps U's first t columns, nonzero only in rows < t, as its
  // last t columns; R L P keeps the last t columns of L, nonzero only in rows >= n - t, which R
  // lifts to rows < t. Applying (R L P, 0) first and then (U R, c) gives A x + c.
  return {Bmmc{r * d.l * d.p, 0}, Bmmc{d.u * r, f.c}};
}

}  // namespace mmsim::f2
