// Conflict-free building blocks of AS Sect. 2 on the matrix DMM: row sorts by each row's
// own processor, column sorts across processors, and row-major <-> column-major conversions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/sorting/matrix_dmm.h"

namespace mmsim::sorting {

/// The w x m data the algorithms work on: `cur` holds it, `tmp` and `aux` are scratch regions of
/// m columns each. Primitives that produce their result in `tmp` swap the two (no copy back).
struct Work {
  MatrixDmm& g;
  std::uint64_t m;
  Region cur, tmp, aux;
  std::string prefix;  ///< put before every phase name (e.g. "finish: ")
  void swap() { std::swap(cur, tmp); }
  void phase(const std::string& name) { g.phase(prefix + name); }
  int w() const { return g.w(); }
};

/// desc[r] != 0: row r is sorted in descending order.
using Directions = std::vector<char>;

/// Each processor merge-sorts its own row (bottom-up, ceil(log2 m) passes of 2 steps per element):
/// every access of processor r is in bank r, so every step is conflict-free. O(m log m) steps.
void row_merge_sort(Work& k, const Directions& desc);

/// Each processor sorts its own row by keys < key_range with LSD radix sort in base
/// min(key_range, m) (counting sort per digit, counts kept in its own row of `aux`):
/// O(m ceil(log_m key_range)) steps, O(m) when key_range <= m (AS Corollary 1).
void row_radix_sort(Work& k, const Directions& desc, std::uint64_t key_range);

/// Converts every block of h consecutive rows (h | w, h and m powers of two) from row-major to
/// column-major layout: the x-th element of the block in row-major order goes to (x mod h, x / h).
/// Processors read their own row and write distinct rows in every step (skewed schedule). 2m steps.
void row_to_column_major(Work& k, std::uint64_t h);
/// The inverse: the x-th element in column-major order goes to (x / m, x mod m). 2m steps.
void column_to_row_major(Work& k, std::uint64_t h);

/// Transposes every q x q tile (q divides w and m): cell (r, c) of a tile -> (c, r). Processor r
/// takes column (t + r) mod q of its tile in step t, so destinations are distinct. 2m steps.
void transpose_tiles(Work& k, std::uint64_t q);

/// Sorts every column within each block of b consecutive rows (b a power of two) with Batcher's
/// bitonic network across processors: log2 b (log2 b + 1) / 2 compare-exchange stages over the
/// m columns, 3 steps per column and stage (read own, read partner, write own), all conflict-free
/// because r -> r xor j is a bijection of banks. O(m log^2 b) steps.
/// A block is sorted descending when desc[its first row] != 0.
void column_bitonic_sort(Work& k, std::uint64_t b, const Directions& desc);

}  // namespace mmsim::sorting
