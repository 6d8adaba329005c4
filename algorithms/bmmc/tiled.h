// Tiled BMMCs (BDS Sect. 5.1) and the factorisation of any BMMC into at most two of them
// (Sect. 5.2).
#pragma once

#include <optional>
#include <vector>

#include "algorithms/bmmc/f2.h"

namespace mmsim::f2 {

/// The tile row bits of A for tiles of 2^t columns: the columns of A that are zero in rows t..n-1.
/// A (invertible) is tiled exactly when there are t of them: they are then independent, so the t x t
/// block they form with rows 0..t-1 is invertible (Sect. 5.1's two conditions). nullopt otherwise.
/// Requires 0 <= t <= n.
std::optional<BitVector> tile_row_bits(const BitMatrix& a, int t);
inline bool is_tiled(const BitMatrix& a, int t) { return tile_row_bits(a, t).has_value(); }

/// Tiled BMMCs whose composition is f, in the order they apply: {f} when f is tiled, else
/// {(R L P, 0), (U R, c)} from A = U L P and the bit-reversal matrix R (Sect. 5.2). Requires an
/// invertible A and 0 <= t <= n.
std::vector<Bmmc> tiled_factors(const Bmmc& f, int t);

}  // namespace mmsim::f2
