// AS Lemma 2 (Afshani-Sitchinava): sorting a w x m matrix, w > m, of small integer keys without bank
// conflicts in O(m log_m^3 w) steps by balancing, convert and divide, and the column sort by recursion.
// The partition (keys are row indices) and the finish of Theorem 4 (keys are labels of the packed
// matrix) both use it.
#include "algorithms/sorting/lemma2.h"

#include <algorithm>
#include <functional>

#include "algorithms/sorting/balancing_core.h"
#include "algorithms/sorting/common.h"

namespace mmsim::sorting {

namespace {

// What one Lemma 2 sort carries through its recursion: the row sorts (plain, and for the half-shifted
// squares, whose keys are raised by key_range), the phase prefix it was called with, and notes on
// where the assumption forced a fallback.
struct Lemma2Run {
  RowSort rows, rows2;
  std::uint64_t key_range;
  std::string base;
  std::string notes;
};

// Every piece below works on all blocks of h consecutive rows at once (h a power of two, h | w), so
// the recursion of the paper (sub-problems and the column sort by recursion) runs as one sequence of
// warp steps over the whole matrix. Each piece is a fixed sorting of fixed subsets of cells, so by the
// 0-1 principle it is enough to argue about 0-1 inputs, as the paper's proof does.

// One conflict-free row move: processor r reads its own row, column by column, and writes it to row
// dest(r) of the scratch region, adding delta(r) to the value (a register operation). dest is a
// bijection of rows, so every write step touches distinct banks. 2m steps.
void move_rows(Work& k, const std::function<std::uint64_t(std::uint64_t)>& dest,
               const std::function<std::int64_t(std::uint64_t)>& delta) {
  const auto w = static_cast<std::size_t>(k.w());
  Addrs addr(w);
  Vals val(w);
  for (std::uint64_t c = 0; c < k.m; ++c) {
    for (std::size_t r = 0; r < w; ++r) addr[r] = k.g.at(k.cur, r, c);
    k.g.read(addr, val);
    for (std::size_t r = 0; r < w; ++r) {
      addr[r] = k.g.at(k.tmp, dest(r), c);
      val[r] = static_cast<Word>(static_cast<std::int64_t>(val[r]) + delta(r));
    }
    k.g.write(addr, val);
  }
  k.swap();
}

// Sorts every block of h <= m rows (row-major): Theorem 1 on m x m tiles, or the small-block sort.
void sort_base_blocks(Work& k, std::uint64_t h, const RowSort& rows) {
  if (h == k.m) {
    theorem1(k, Directions(static_cast<std::size_t>(k.w()), 0), rows);
  } else {
    sort_blocks(k, h, rows);
  }
}

// The sub-problem size after convert: the R h / m dirty rows (R = rounds; every row then differs
// from the others by at most R zeros, so at most R columns are dirty, and each column becomes h / m
// rows) fit in sub-blocks of (h / m) P rows, P the smallest power of two >= R, so they touch at most
// two sub-problems.
std::uint64_t divide_size(std::uint64_t h, std::uint64_t m) {
  std::uint64_t P = 1;
  while (P < lemma2_balancing_rounds(h, m)) P *= 2;
  return (h / m) * P;
}

// Balancing (Lemma 2 proof) inside every block of h rows. Round with sub-matrices of s rows: groups
// of g = min(m, h/s) consecutive sub-matrices; the j-th rows of the g sub-matrices of a group form a
// g x m matrix, which is sorted in column-major order. The rows are first moved so that these
// matrices are contiguous (a row permutation, 2m steps), sorted, and moved back. After the round
// every row of a group of g s rows holds, per 0-1 value, a count within one more than the spread of
// the round before.
void balancing(Work& k, std::uint64_t h, const RowSort& rows) {
  const std::uint64_t m = k.m;
  for (std::uint64_t s = 1; s < h; s *= m) {
    const std::uint64_t g = std::min(m, h / s);
    const auto gather = [g, s](std::uint64_t r) { return core::balancing_gather(r, g, s); };
    const auto scatter = [g, s](std::uint64_t r) { return core::balancing_scatter(r, g, s); };
    const auto none = [](std::uint64_t) { return std::int64_t{0}; };
    if (s > 1) {
      k.phase("balancing: gather rows");
      move_rows(k, gather, none);
    }
    sort_base_blocks(k, g, rows);
    k.phase("balancing: to column-major");
    if (g == m) {
      transpose_tiles(k, m);  // the row-major sorted square, transposed, is sorted column-major
    } else {
      row_to_column_major(k, g);
    }
    if (s > 1) {
      k.phase("balancing: scatter rows");
      move_rows(k, scatter, none);
    }
  }
}

// Balancing and convert-and-divide, recursively, in every block of h rows: leaves every block with
// at most lemma2_dirty_bound(h, m) rows that are neither all 0 nor all 1 (0-1 view), all other rows
// of a block in sorted order. Sub-problems of at most m rows are sorted outright.
void partial_sort(Work& k, std::uint64_t h, const RowSort& rows, const std::string& base, int depth) {
  if (h <= k.m) {
    sort_base_blocks(k, h, rows);
    return;
  }
  k.prefix = base + "lemma2 d" + std::to_string(depth) + ": ";
  balancing(k, h, rows);
  k.phase("convert and divide");
  column_to_row_major(k, h);
  partial_sort(k, divide_size(h, k.m), rows, base, depth + 1);
}

void lemma2_sort_blocks(Work& k, std::uint64_t h, Lemma2Run& L, int depth);

// Sorts every column inside every block of h rows: each column of a block becomes a block of h/m rows
// in row-major order (convert), those blocks are sorted by recursion, and converted back.
void lemma2_column_sort(Work& k, std::uint64_t h, Lemma2Run& L, int depth) {
  const std::uint64_t sub = h / k.m;
  if (sub > k.m && !lemma2_applies(sub, k.m)) {
    L.notes += " [columns of " + std::to_string(h) + " rows by bitonic network]";
    k.phase("column sort");
    column_bitonic_sort(k, h, Directions(static_cast<std::size_t>(k.w()), 0));
    return;
  }
  k.prefix = L.base + "lemma2 c" + std::to_string(depth) + ": ";
  k.phase("columns to blocks");
  column_to_row_major(k, h);
  if (sub > k.m) {
    lemma2_sort_blocks(k, sub, L, depth + 1);
  } else {
    sort_base_blocks(k, sub, L.rows);
  }
  k.prefix = L.base + "lemma2 c" + std::to_string(depth) + ": ";
  k.phase("blocks to columns");
  row_to_column_major(k, h);
}

// AS Lemma 2 on every block of h rows (lemma2_applies(h, m)): partial sort, column sort (the
// dirty rows become one contiguous range of at most m/2 rows), then the m x m squares sorted, and the
// squares shifted by m/2 rows sorted. The shifted decomposition is made by moving row r of a block
// to (r + m/2) mod h; the square that wraps around holds the block's last and first m/2 rows, and
// the first ones get +offset (larger than every label) so that sorting that square sorts the two
// halves separately: a fixed sorting, so the 0-1 argument still holds.
void lemma2_sort_blocks(Work& k, std::uint64_t h, Lemma2Run& L, int depth) {
  const std::uint64_t m = k.m, half = m / 2, offset = L.key_range;
  partial_sort(k, h, L.rows, L.base, depth);
  lemma2_column_sort(k, h, L, depth);
  k.prefix = L.base + "lemma2 f" + std::to_string(depth) + ": ";
  const Directions asc(static_cast<std::size_t>(k.w()), 0);
  theorem1(k, asc, L.rows);
  k.phase("shift rows");
  move_rows(
      k, [h, half](std::uint64_t r) { return r - r % h + (r % h + half) % h; },
      [h, half, offset](std::uint64_t r) {
        return r % h < half ? static_cast<std::int64_t>(offset) : std::int64_t{0};
      });
  theorem1(k, asc, L.rows2);
  k.phase("shift rows back");
  move_rows(
      k, [h, half](std::uint64_t r) { return r - r % h + (r % h + h - half) % h; },
      [h, m, half, offset](std::uint64_t r) {
        // the block's first m/2 rows sit at rows [m/2, m) of the shifted block
        return r % h >= half && r % h < m ? -static_cast<std::int64_t>(offset) : std::int64_t{0};
      });
  k.prefix = L.base;
}

}  // namespace

// Balancing rounds of a block of h > m rows: ceil(log_m h) (the last group may have fewer than m
// sub-matrices when h is not a power of m).
std::uint64_t lemma2_balancing_rounds(std::uint64_t h, std::uint64_t m) {
  std::uint64_t rounds = 0;
  for (std::uint64_t s = 1; s < h; s *= m) ++rounds;
  return rounds;
}

// The most dirty rows (rows that are neither all 0 nor all 1) that partial_sort leaves in a block of
// h rows; 0 when the recursion does not shrink (Lemma 2's assumption on m fails).
std::uint64_t lemma2_dirty_bound(std::uint64_t h, std::uint64_t m) {
  if (h <= m) return 1;
  const std::uint64_t s = divide_size(h, m);
  if (s >= h) return 0;
  const std::uint64_t sub = lemma2_dirty_bound(s, m);
  return sub == 0 ? 0 : blocks_touched(lemma2_balancing_rounds(h, m) * (h / m), s) * sub;
}

// Lemma 2 applies to blocks of h > m rows when the final step can absorb the dirty rows: at most m/2
// of them, contiguous after the column sort, fit in one square of the plain or the half-shifted
// decomposition into m x m squares.
bool lemma2_applies(std::uint64_t h, std::uint64_t m) {
  if (h <= m || m < 2) return false;
  const std::uint64_t d = lemma2_dirty_bound(h, m);
  return d != 0 && d <= m / 2;
}

std::string lemma2_sort(Work& k, std::uint64_t key_range) {
  const auto W = static_cast<std::uint64_t>(k.w());
  Lemma2Run L{radix_rows(key_range), radix_rows(2 * key_range), key_range, k.prefix, ""};
  lemma2_sort_blocks(k, W, L, 0);
  return "lemma2 (w > m; balancing in " + std::to_string(lemma2_balancing_rounds(W, k.m)) +
         " round(s), convert and divide, columns by recursion, plain and half-shifted m x m squares by theorem1; "
         "at most " +
         std::to_string(lemma2_dirty_bound(W, k.m)) + " dirty rows before the squares)" + L.notes;
}

}  // namespace mmsim::sorting
