// The conflict-free sort of AS Sect. 2 as pieces the other results reuse: Lemma 1 on blocks of rows,
// Theorem 1 on m x m tiles, and the whole-matrix sort that picks the case (Lemma 1, Theorem 1,
// Theorem 2, or a composition where no theorem applies). Internal to the family.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "algorithms/sorting/blocks.h"

namespace mmsim::sorting {

/// How every row is sorted in its direction: merge sort for keys, radix sort for small labels.
using RowSort = std::function<void(Work&, const Directions&)>;
RowSort merge_rows();
/// Radix sort of keys below `range` (AS Corollary 1: O(m) steps when range <= m).
RowSort radix_rows(std::uint64_t range);

std::uint64_t floor_log2(std::uint64_t x);
/// The number of blocks of b rows that a contiguous range of D rows can touch.
std::uint64_t blocks_touched(std::uint64_t D, std::uint64_t b);
/// Directions that are constant on blocks of `b` rows: block q is descending when flip(q).
Directions by_block(int w, std::uint64_t b, const std::function<bool(std::uint64_t)>& flip);

/// AS Lemma 1 on every block of h rows (h^2 <= m), each block in its own direction (dir is constant
/// on blocks).
void lemma1(Work& k, std::uint64_t h, const Directions& dir, const RowSort& rows);
/// AS Theorem 1 on every m x m block (w a multiple of m), each block in its own direction. Returns
/// the number of cleanup rounds.
int theorem1(Work& k, const Directions& dir, const RowSort& rows);
/// Sorts every block of q < m rows in row-major order: Lemma 1 when q^2 <= m, otherwise a
/// composition of Lemma 1 pieces and bitonic column sorts inside the q-blocks.
/// Returns the number of cleanup rounds (0 when Lemma 1 applies outright).
int sort_blocks(Work& k, std::uint64_t q, const RowSort& rows);
/// Sorts the w x m matrix in k.cur into row-major order with whichever of the paper's algorithms
/// applies to the shape (all are made of conflict-free pieces) and names it; `comparison` says
/// whether `rows` is the comparison sort (for the name only).
std::string sort_matrix(Work& k, const RowSort& rows, bool comparison);

}  // namespace mmsim::sorting
