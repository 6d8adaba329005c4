// AS Sect. 2, sorting: Lemma 1 (w^2 <= m), Theorem 1 (w = m), Theorem 2 (w > m), and a composition
// of Lemma 1 pieces for sqrt(m) < w < m, where no theorem of the paper applies.
#include "algorithms/sorting/sort.h"

#include <algorithm>

#include "algorithms/sorting/common.h"

namespace mmsim::sorting {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Blocks alternate in direction on top of a base direction (the base is constant on these blocks).
Directions alternate(const Directions& base, std::uint64_t b) {
  Directions d = base;
  for (std::size_t r = 0; r < d.size(); ++r) d[r] = static_cast<char>((base[r] != 0) != ((r / b) % 2 == 1));
  return d;
}

// Columns of every m x m block sorted by transposing, sorting rows, transposing back (AS Theorem 1
// proof).
void square_column_sort(Work& k, const Directions& dir, const RowSort& rows) {
  k.phase("transpose");
  transpose_tiles(k, k.m);
  k.phase("column sort");
  rows(k, dir);
  k.phase("transpose");
  transpose_tiles(k, k.m);
}

// The cleanup loop with blocks of b rows sorted in alternating order by `block_sort`, columns sorted
// by the bitonic network inside blocks of `column_rows` rows: a contiguous range of D dirty rows
// touches at most blocks_touched(D, b) blocks, each left with one dirty row, which the column sort
// makes contiguous again; two blocks of opposite order leave one dirty row.
int cleanup(Work& k, std::uint64_t D, std::uint64_t b, std::uint64_t column_rows,
            const std::function<void(const Directions&)>& block_sort) {
  const Directions asc(static_cast<std::size_t>(k.w()), 0);
  int rounds = 0;
  while (D > 1) {
    const std::uint64_t touched = blocks_touched(D, b);
    block_sort(by_block(k.w(), b, [](std::uint64_t q) { return q % 2 == 1; }));
    k.phase("column sort");
    column_bitonic_sort(k, column_rows, asc);
    D = touched <= 2 ? 1 : touched;
    ++rounds;
  }
  return rounds;
}

}  // namespace

RowSort merge_rows() {
  return [](Work& k, const Directions& d) { row_merge_sort(k, d); };
}
RowSort radix_rows(std::uint64_t range) {
  return [range](Work& k, const Directions& d) { row_radix_sort(k, d, range); };
}

std::uint64_t floor_log2(std::uint64_t x) {
  std::uint64_t l = 0;
  while ((std::uint64_t{1} << (l + 1)) <= x) ++l;
  return l;
}

std::uint64_t blocks_touched(std::uint64_t D, std::uint64_t b) { return D == 0 ? 0 : ceil_div(D - 1, b) + 1; }

Directions by_block(int w, std::uint64_t b, const std::function<bool(std::uint64_t)>& flip) {
  Directions d(static_cast<std::size_t>(w));
  for (std::size_t r = 0; r < d.size(); ++r) d[r] = flip(r / b) ? 1 : 0;
  return d;
}

// Twice: sort rows alternating, row-major -> column-major, sort rows, column-major -> row-major; then
// sort rows. By the 0-1 argument of the proof, the first pair leaves at most h dirty columns, the
// second at most 2 adjacent dirty rows of opposite order, the third pair one dirty row, which the
// last row sort cleans.
void lemma1(Work& k, std::uint64_t h, const Directions& dir, const RowSort& rows) {
  for (int rep = 0; rep < 2; ++rep) {
    k.phase("row sort");
    rows(k, alternate(dir, 1));  // rows alternate inside each block (row r of a block: r odd flips)
    k.phase("convert");
    row_to_column_major(k, h);
    k.phase("row sort");
    rows(k, dir);
    k.phase("convert");
    column_to_row_major(k, h);
  }
  k.phase("row sort");
  rows(k, dir);
}

// Super-rows of s = 2^floor(log2(m)/2) rows are sorted by Lemma 1 (one dirty row each), the columns
// sorted (the at most m/s dirty rows become contiguous), then rounds of "super-rows in alternating
// order + column sort" until the dirty range fits in two super-rows of opposite order, which the
// last column sort reduces to one dirty row; a final row sort. When m is a perfect square this is
// the paper's single round; when m = 2 s^2 the dirty range has 2s rows and one more round is needed.
int theorem1(Work& k, const Directions& dir, const RowSort& rows) {
  const std::uint64_t m = k.m, s = std::uint64_t{1} << (floor_log2(m) / 2);
  lemma1(k, s, dir, rows);
  square_column_sort(k, dir, rows);
  std::uint64_t D = m / s;
  int rounds = 0;
  while (D > 1) {
    const std::uint64_t touched = blocks_touched(D, s);
    lemma1(k, s, alternate(dir, s), rows);
    square_column_sort(k, dir, rows);
    D = touched <= 2 ? 1 : touched;
    ++rounds;
  }
  k.phase("row sort");
  rows(k, dir);
  return rounds;
}

// Beyond Lemma 1 (q^2 > m): the first half of Lemma 1 (sort rows, row-major -> column-major, sort
// rows, column-major -> row-major) leaves the at most q dirty columns of a block in
// ceil((q-1)/(m/q)) + 1 contiguous rows; blocks of b = 2^floor(log2(m)/2) rows (b^2 <= m) are then
// sorted by Lemma 1 in alternating order, with bitonic column sorts inside the q-blocks, until one
// dirty row is left; a final row sort.
int sort_blocks(Work& k, std::uint64_t q, const RowSort& rows) {
  const Directions asc(static_cast<std::size_t>(k.w()), 0);
  if (q <= 1) {
    k.phase("row sort");
    rows(k, asc);
    return 0;
  }
  if (q * q <= k.m) {
    lemma1(k, q, asc, rows);
    return 0;
  }
  k.phase("row sort");
  rows(k, asc);
  k.phase("convert");
  row_to_column_major(k, q);
  k.phase("row sort");
  rows(k, asc);
  k.phase("convert");
  column_to_row_major(k, q);
  const std::uint64_t b = std::uint64_t{1} << (floor_log2(k.m) / 2);
  const int rounds = cleanup(k, blocks_touched(q, k.m / q), b, q, [&](const Directions& d) { lemma1(k, b, d, rows); });
  k.phase("row sort");
  rows(k, asc);
  return rounds;
}

std::string sort_matrix(Work& k, const RowSort& rows, bool comparison) {
  const auto w = static_cast<std::uint64_t>(k.w());
  const std::uint64_t m = k.m;
  const Directions asc(static_cast<std::size_t>(w), 0);
  const std::string rowsort = comparison ? "merge-sorted rows" : "radix-sorted rows";
  if (w * w <= m) {
    lemma1(k, w, asc, rows);
    return std::string(comparison ? "lemma1" : "corollary1") + " (w^2 <= m; " + rowsort + ")";
  }
  if (w == m) {
    const int rounds = theorem1(k, asc, rows);
    return "theorem1 (w = m; " + rowsort + ", columns by transpose; " + std::to_string(rounds) + " cleanup round" +
           (rounds == 1 ? "" : "s") + (rounds > 1 ? ": m is not a perfect square" : "") + ")";
  }
  if (w > m) {
    // AS Theorem 2: sort rows, sort columns, column-major -> row-major (one dirty row per column, m
    // in all), sort columns (contiguous), m x m blocks in alternating order by Theorem 1, sort
    // columns, sort rows. Columns are sorted by the bitonic network instead of Cole's EREW sort.
    k.phase("row sort");
    rows(k, asc);
    k.phase("column sort");
    column_bitonic_sort(k, w, asc);
    k.phase("convert");
    column_to_row_major(k, w);
    k.phase("column sort");
    column_bitonic_sort(k, w, asc);
    cleanup(k, m, m, w, [&](const Directions& d) { theorem1(k, d, rows); });
    k.phase("row sort");
    rows(k, asc);
    return "theorem2 (w > m; " + rowsort + ", columns by bitonic network, m x m blocks by theorem1)";
  }
  // sqrt(m) < w < m: no theorem of the paper applies; the whole matrix is one block of w rows.
  const int rounds = sort_blocks(k, w, rows);
  const std::uint64_t b = std::uint64_t{1} << (floor_log2(m) / 2);
  return "composite (sqrt(m) < w < m; " + rowsort + ", lemma1 half-pass, then " + std::to_string(rounds) +
         " round(s) of lemma1 on blocks of " + std::to_string(b) + " rows in alternating order + bitonic column sort)";
}

SortingRun as_sort(int w, std::uint64_t m, const std::vector<Word>& keys, const EngineOptions& engine) {
  check_shape(w, m);
  const auto dmm = std::make_shared<MatrixDmm>(w, 3 * m, engine);
  MatrixDmm& g = *dmm;
  Work k{g, m, {0}, {m}, {2 * m}, ""};
  load(g, k.cur, m, keys);
  const std::string method = sort_matrix(k, merge_rows(), true);
  std::vector<Word> expected = keys;
  std::sort(expected.begin(), expected.end());
  return finish_run("as-sort", method, w, m, dmm, holds(g, k.cur, m, expected));
}

}  // namespace mmsim::sorting
