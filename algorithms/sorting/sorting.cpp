#include "algorithms/sorting/sorting.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>

#include "algorithms/input_error.h"
#include "algorithms/sorting/blocks.h"
#include "sim/random.h"

namespace mmsim::sorting {

namespace {

using Addrs = std::vector<Address>;
using Vals = std::vector<Word>;
using RowSort = std::function<void(Work&, const Directions&)>;

constexpr Word kEmpty = 0xFFFFFFFFu;  // an empty cell in the permutation's finish (sorts last)

std::uint64_t floor_log2(std::uint64_t x) {
  std::uint64_t l = 0;
  while ((std::uint64_t{1} << (l + 1)) <= x) ++l;
  return l;
}
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Directions that are constant on blocks of `b` rows: block q is descending when flip(q).
Directions by_block(int w, std::uint64_t b, const std::function<bool(std::uint64_t)>& flip) {
  Directions d(static_cast<std::size_t>(w));
  for (std::size_t r = 0; r < d.size(); ++r) d[r] = flip(r / b) ? 1 : 0;
  return d;
}

// Blocks alternate in direction on top of a base direction (the base is constant on these blocks).
Directions alternate(const Directions& base, std::uint64_t b) {
  Directions d = base;
  for (std::size_t r = 0; r < d.size(); ++r) d[r] = static_cast<char>((base[r] != 0) != ((r / b) % 2 == 1));
  return d;
}

// The number of blocks of b rows that a contiguous range of D rows can touch.
std::uint64_t blocks_touched(std::uint64_t D, std::uint64_t b) { return D == 0 ? 0 : ceil_div(D - 1, b) + 1; }

// papers/003 Lemma 1 on every block of h rows (h^2 <= m), each block in its own direction (dir is
// constant on blocks). Twice: sort rows alternating, row-major -> column-major, sort rows,
// column-major -> row-major; then sort rows. By the 0-1 argument of the proof, the first pair leaves
// at most h dirty columns, the second at most 2 adjacent dirty rows of opposite order, the third
// pair one dirty row, which the last row sort cleans.
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

// Columns of every m x m block sorted by transposing, sorting rows, transposing back (papers/003
// Theorem 1 proof).
void square_column_sort(Work& k, const Directions& dir, const RowSort& rows) {
  k.phase("transpose");
  transpose_tiles(k, k.m);
  k.phase("column sort");
  rows(k, dir);
  k.phase("transpose");
  transpose_tiles(k, k.m);
}

// papers/003 Theorem 1 on every m x m block (w a multiple of m), each block in its own direction.
// Super-rows of s = 2^floor(log2(m)/2) rows are sorted by Lemma 1 (one dirty row each), the columns
// sorted (the at most m/s dirty rows become contiguous), then rounds of "super-rows in alternating
// order + column sort" until the dirty range fits in two super-rows of opposite order, which the
// last column sort reduces to one dirty row; a final row sort. When m is a perfect square this is
// the paper's single round; when m = 2 s^2 the dirty range has 2s rows and one more round is needed.
// Returns the number of cleanup rounds.
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

// The cleanup loop with blocks of b rows sorted in alternating order by `block_sort`, columns sorted
// by the bitonic network over all w rows: a contiguous range of D dirty rows touches at most
// blocks_touched(D, b) blocks, each left with one dirty row, which the column sort makes contiguous
// again; two blocks of opposite order leave one dirty row.
int cleanup(Work& k, std::uint64_t D, std::uint64_t b, const std::function<void(const Directions&)>& block_sort) {
  const auto w = static_cast<std::uint64_t>(k.w());
  const Directions asc(static_cast<std::size_t>(w), 0);
  int rounds = 0;
  while (D > 1) {
    const std::uint64_t touched = blocks_touched(D, b);
    block_sort(by_block(k.w(), b, [](std::uint64_t q) { return q % 2 == 1; }));
    k.phase("column sort");
    column_bitonic_sort(k, w, asc);
    D = touched <= 2 ? 1 : touched;
    ++rounds;
  }
  return rounds;
}

// Sorts the w x m matrix in k.cur into row-major order with whichever of the paper's algorithms
// applies to the shape (all four cases are made of conflict-free pieces) and names it.
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
    return "theorem1 (w = m; " + rowsort + ", columns by transpose; " + std::to_string(rounds) +
           " cleanup round" + (rounds == 1 ? "" : "s") + (rounds > 1 ? ": m is not a perfect square" : "") + ")";
  }
  if (w > m) {
    // papers/003 Theorem 2: sort rows, sort columns, column-major -> row-major (one dirty row per
    // column, m in all), sort columns (contiguous), m x m blocks in alternating order by Theorem 1,
    // sort columns, sort rows. Columns are sorted by the bitonic network instead of Cole's EREW sort.
    k.phase("row sort");
    rows(k, asc);
    k.phase("column sort");
    column_bitonic_sort(k, w, asc);
    k.phase("convert");
    column_to_row_major(k, w);
    k.phase("column sort");
    column_bitonic_sort(k, w, asc);
    cleanup(k, m, m, [&](const Directions& d) { theorem1(k, d, rows); });
    k.phase("row sort");
    rows(k, asc);
    return "theorem2 (w > m; " + rowsort + ", columns by bitonic network, m x m blocks by theorem1)";
  }
  // sqrt(m) < w < m: no theorem of the paper applies. The first half of Lemma 1 (sort rows,
  // row-major -> column-major, sort rows, column-major -> row-major) leaves the at most w dirty
  // columns in ceil((w-1)/(m/w)) + 1 contiguous rows; blocks of b = 2^floor(log2(m)/2) rows (b^2 <= m)
  // are then sorted by Lemma 1 in alternating order, with bitonic column sorts, until one dirty row
  // is left; a final row sort.
  k.phase("row sort");
  rows(k, asc);
  k.phase("convert");
  row_to_column_major(k, w);
  k.phase("row sort");
  rows(k, asc);
  k.phase("convert");
  column_to_row_major(k, w);
  const std::uint64_t b = std::uint64_t{1} << (floor_log2(m) / 2);
  const std::uint64_t D = blocks_touched(w, m / w);
  const int rounds = cleanup(k, D, b, [&](const Directions& d) { lemma1(k, b, d, rows); });
  k.phase("row sort");
  rows(k, asc);
  return "composite (sqrt(m) < w < m; " + rowsort + ", lemma1 half-pass, then " + std::to_string(rounds) +
         " round(s) of lemma1 on blocks of " + std::to_string(b) + " rows in alternating order + bitonic column sort)";
}

// ---- papers/003 Lemma 2: the general w-way partition (balancing, convert and divide) ----
//
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

// Sorts every block of q < m rows in row-major order: Lemma 1 when q^2 <= m (O(m)); otherwise the
// Lemma 1 half-pass and rounds of Lemma 1 on blocks of b = 2^floor(log2(m)/2) rows in alternating
// order with bitonic column sorts inside the q-blocks (as the sqrt(m) < w < m case of sort_matrix).
void sort_small_blocks(Work& k, std::uint64_t q, const RowSort& rows) {
  const Directions asc(static_cast<std::size_t>(k.w()), 0);
  if (q <= 1) {
    k.phase("row sort");
    rows(k, asc);
    return;
  }
  if (q * q <= k.m) {
    lemma1(k, q, asc, rows);
    return;
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
  std::uint64_t D = blocks_touched(q, k.m / q);
  while (D > 1) {
    const std::uint64_t touched = blocks_touched(D, b);
    lemma1(k, b, by_block(k.w(), b, [](std::uint64_t x) { return x % 2 == 1; }), rows);
    k.phase("column sort");
    column_bitonic_sort(k, q, asc);
    D = touched <= 2 ? 1 : touched;
  }
  k.phase("row sort");
  rows(k, asc);
}

// Sorts every block of h <= m rows (row-major): Theorem 1 on m x m tiles, or the small-block sort.
void sort_base_blocks(Work& k, std::uint64_t h, const RowSort& rows) {
  if (h == k.m) {
    theorem1(k, Directions(static_cast<std::size_t>(k.w()), 0), rows);
  } else {
    sort_small_blocks(k, h, rows);
  }
}

// Balancing rounds of a block of h > m rows: ceil(log_m h) (the last group may have fewer than m
// sub-matrices when h is not a power of m).
std::uint64_t balancing_rounds(std::uint64_t h, std::uint64_t m) {
  std::uint64_t rounds = 0;
  for (std::uint64_t s = 1; s < h; s *= m) ++rounds;
  return rounds;
}

// The sub-problem size after convert: the R h / m dirty rows (R = rounds; every row then differs
// from the others by at most R zeros, so at most R columns are dirty, and each column becomes h / m
// rows) fit in sub-blocks of (h / m) P rows, P the smallest power of two >= R, so they touch at most
// two sub-problems.
std::uint64_t divide_size(std::uint64_t h, std::uint64_t m) {
  std::uint64_t P = 1;
  while (P < balancing_rounds(h, m)) P *= 2;
  return (h / m) * P;
}

// The most dirty rows (rows that are neither all 0 nor all 1) that partial_sort leaves in a block of
// h rows; 0 when the recursion does not shrink (Lemma 2's assumption on m fails).
std::uint64_t lemma2_dirty_bound(std::uint64_t h, std::uint64_t m) {
  if (h <= m) return 1;
  const std::uint64_t s = divide_size(h, m);
  if (s >= h) return 0;
  const std::uint64_t sub = lemma2_dirty_bound(s, m);
  return sub == 0 ? 0 : blocks_touched(balancing_rounds(h, m) * (h / m), s) * sub;
}

// Lemma 2 applies to blocks of h > m rows when the final step can absorb the dirty rows: at most m/2
// of them, contiguous after the column sort, fit in one square of the plain or the half-shifted
// decomposition into m x m squares.
bool lemma2_applies(std::uint64_t h, std::uint64_t m) {
  if (h <= m || m < 2) return false;
  const std::uint64_t d = lemma2_dirty_bound(h, m);
  return d != 0 && d <= m / 2;
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
    // Row g0 + t s + j (t < g, j < s) of a group starting at g0 goes to g0 + j g + t.
    const auto gather = [g, s](std::uint64_t r) {
      const std::uint64_t g0 = r - r % (g * s), x = r % (g * s);
      return g0 + (x % s) * g + x / s;
    };
    const auto scatter = [g, s](std::uint64_t r) {
      const std::uint64_t g0 = r - r % (g * s), x = r % (g * s);
      return g0 + (x % g) * s + x / g;
    };
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
void partial_sort(Work& k, std::uint64_t h, const RowSort& rows, int depth) {
  if (h <= k.m) {
    sort_base_blocks(k, h, rows);
    return;
  }
  k.prefix = "lemma2 d" + std::to_string(depth) + ": ";
  balancing(k, h, rows);
  k.phase("convert and divide");
  column_to_row_major(k, h);
  partial_sort(k, divide_size(h, k.m), rows, depth + 1);
}

void lemma2_sort_blocks(Work& k, std::uint64_t h, const RowSort& rows, const RowSort& rows2, int depth,
                        std::string& notes);

// Sorts every column inside every block of h rows: each column of a block becomes a block of h/m rows
// in row-major order (convert), those blocks are sorted by recursion, and converted back.
void lemma2_column_sort(Work& k, std::uint64_t h, const RowSort& rows, const RowSort& rows2, int depth,
                        std::string& notes) {
  const std::uint64_t sub = h / k.m;
  if (sub > k.m && !lemma2_applies(sub, k.m)) {
    notes += " [columns of " + std::to_string(h) + " rows by bitonic network]";
    k.phase("column sort");
    column_bitonic_sort(k, h, Directions(static_cast<std::size_t>(k.w()), 0));
    return;
  }
  k.prefix = "lemma2 c" + std::to_string(depth) + ": ";
  k.phase("columns to blocks");
  column_to_row_major(k, h);
  if (sub > k.m) {
    lemma2_sort_blocks(k, sub, rows, rows2, depth + 1, notes);
  } else {
    sort_base_blocks(k, sub, rows);
  }
  k.prefix = "lemma2 c" + std::to_string(depth) + ": ";
  k.phase("blocks to columns");
  row_to_column_major(k, h);
}

// papers/003 Lemma 2 on every block of h rows (lemma2_applies(h, m)): partial sort, column sort (the
// dirty rows become one contiguous range of at most m/2 rows), then the m x m squares sorted, and the
// squares shifted by m/2 rows sorted. The shifted decomposition is made by moving row r of a block
// to (r + m/2) mod h; the square that wraps around holds the block's last and first m/2 rows, and
// the first ones get +offset (larger than every label) so that sorting that square sorts the two
// halves separately: a fixed sorting, so the 0-1 argument still holds.
void lemma2_sort_blocks(Work& k, std::uint64_t h, const RowSort& rows, const RowSort& rows2, int depth,
                        std::string& notes) {
  const std::uint64_t m = k.m, half = m / 2, offset = static_cast<std::uint64_t>(k.w());
  partial_sort(k, h, rows, depth);
  lemma2_column_sort(k, h, rows, rows2, depth, notes);
  k.prefix = "lemma2 f" + std::to_string(depth) + ": ";
  const Directions asc(static_cast<std::size_t>(k.w()), 0);
  theorem1(k, asc, rows);
  k.phase("shift rows");
  move_rows(
      k, [h, half](std::uint64_t r) { return r - r % h + (r % h + half) % h; },
      [h, half, offset](std::uint64_t r) { return r % h < half ? static_cast<std::int64_t>(offset) : std::int64_t{0}; });
  theorem1(k, asc, rows2);
  k.phase("shift rows back");
  move_rows(
      k, [h, half](std::uint64_t r) { return r - r % h + (r % h + h - half) % h; },
      [h, m, half, offset](std::uint64_t r) {
        // the block's first m/2 rows sit at rows [m/2, m) of the shifted block
        return r % h >= half && r % h < m ? -static_cast<std::int64_t>(offset) : std::int64_t{0};
      });
  k.prefix.clear();
}

void load(MatrixDmm& g, Region r, std::uint64_t m, const std::vector<Word>& input) {
  const auto w = static_cast<std::uint64_t>(g.w());
  auto cells = g.cells();
  for (std::uint64_t i = 0; i < w; ++i)
    for (std::uint64_t j = 0; j < m; ++j) cells[g.at(r, i, j)] = input[i * m + j];
}

// Cell (i, j) of region r equals expected[i m + j] for every cell.
bool holds(MatrixDmm& g, Region r, std::uint64_t m, const std::vector<Word>& expected) {
  const auto w = static_cast<std::uint64_t>(g.w());
  auto cells = g.cells();
  for (std::uint64_t i = 0; i < w; ++i)
    for (std::uint64_t j = 0; j < m; ++j)
      if (cells[g.at(r, i, j)] != expected[i * m + j]) return false;
  return true;
}

SortingRun finish_run(std::string algorithm, std::string method, int w, std::uint64_t m, const MatrixDmm& g,
                      bool correct) {
  SortingRun run;
  run.algorithm = std::move(algorithm);
  run.method = std::move(method);
  run.w = w;
  run.m = m;
  run.summary = summarize(g.stats());
  run.correct = correct;
  return run;
}

RowSort merge_rows() {
  return [](Work& k, const Directions& d) { row_merge_sort(k, d); };
}
RowSort radix_rows(std::uint64_t range) {
  return [range](Work& k, const Directions& d) { row_radix_sort(k, d, range); };
}

}  // namespace

void check_shape(int w, std::uint64_t m) {
  const auto pow2 = [](std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; };
  if (w < 1 || w > 1024 || !pow2(static_cast<std::uint64_t>(w)))
    throw InputError("-w: must be a power of two between 1 and 1024");
  if (m < 1 || m > 65536 || !pow2(m)) throw InputError("-m: must be a power of two between 1 and 65536");
  if (static_cast<std::uint64_t>(w) * m > (std::uint64_t{1} << 22))
    throw InputError("-m: w * m must be at most 2^22 = 4194304");
}

SortingRun as_sort(int w, std::uint64_t m, const std::vector<Word>& keys) {
  check_shape(w, m);
  MatrixDmm g(w, 3 * m);
  Work k{g, m, {0}, {m}, {2 * m}, ""};
  load(g, k.cur, m, keys);
  const std::string method = sort_matrix(k, merge_rows(), true);
  std::vector<Word> expected = keys;
  std::sort(expected.begin(), expected.end());
  return finish_run("as-sort", method, w, m, g, holds(g, k.cur, m, expected));
}

namespace {

// The partition: Lemma 2 for w > m where its assumption on m holds (unless sort_based), otherwise the
// sorting algorithms with radix-sorted rows (Corollary 1, Theorem 1, Theorem 2, compositions).
SortingRun partition_run(const std::string& name, int w, std::uint64_t m, const std::vector<Word>& labels,
                         bool sort_based) {
  check_shape(w, m);
  MatrixDmm g(w, 3 * m);
  Work k{g, m, {0}, {m}, {2 * m}, ""};
  load(g, k.cur, m, labels);
  const auto W = static_cast<std::uint64_t>(w);
  std::string method;
  if (!sort_based && W > m && lemma2_applies(W, m)) {
    std::string notes;
    lemma2_sort_blocks(k, W, radix_rows(W), radix_rows(2 * W), 0, notes);
    method = "lemma2 (w > m; balancing in " + std::to_string(balancing_rounds(W, m)) +
             " round(s), convert and divide, columns by recursion, plain and half-shifted m x m squares by theorem1; "
             "at most " + std::to_string(lemma2_dirty_bound(W, m)) + " dirty rows before the squares)" + notes;
  } else {
    method = sort_matrix(k, radix_rows(W), false);
    if (W == m) method = "theorem1 partition: " + method;
    if (!sort_based && W > m)
      method += " [lemma2 does not apply: its dirty rows would exceed m/2 (m too small for log_m w)]";
  }
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x / m);
  return finish_run(name, method, w, m, g, holds(g, k.cur, m, expected));
}

}  // namespace

SortingRun as_partition(int w, std::uint64_t m, const std::vector<Word>& labels) {
  return partition_run("as-partition", w, m, labels, false);
}

SortingRun as_partition_sort_based(int w, std::uint64_t m, const std::vector<Word>& labels) {
  return partition_run("as-partition-sort", w, m, labels, true);
}

SortingRun as_permute(int w, std::uint64_t m, const std::vector<Word>& labels, std::uint64_t seed) {
  check_shape(w, m);
  const auto W = static_cast<std::uint64_t>(w);
  const auto wz = static_cast<std::size_t>(w);
  // Regions: labels still to send, labels sorted by colour, counters, the output, each row's copy
  // of the hash table (w columns) and one column for the synchronisation sums.
  const Region work{0}, bycolour{m}, counts{2 * m}, out{3 * m}, table{4 * m}, sync{4 * m + W};
  MatrixDmm g(w, 4 * m + W + 1);
  load(g, work, m, labels);
  Rng rng(seed);
  Addrs addr(wz), addr2(wz);
  Vals v(wz), u(wz);
  const auto dest_row = [m](Word label) { return static_cast<std::uint64_t>(label) / m; };
  const auto dest_col = [m](Word label) { return static_cast<std::uint64_t>(label) % m; };

  // Preprocessing (Sect. 3): every row shifts its labels cyclically by its own random amount, then
  // q x q tiles are transposed, q = min(w, m) (the paper's m x m matrices when w >= m).
  g.phase("preprocess");
  std::vector<std::uint64_t> shift(wz);
  for (auto& s : shift) s = rng.below(m);
  for (std::uint64_t t = 0; t < m; ++t) {
    for (std::size_t r = 0; r < wz; ++r) {
      addr[r] = g.at(work, r, t);
      addr2[r] = g.at(bycolour, r, (t + shift[r]) % m);
    }
    g.read(addr, v);
    g.write(addr2, v);
  }
  {
    Work k{g, m, bycolour, work, counts, ""};
    k.phase("preprocess");
    transpose_tiles(k, std::min(W, m));
    // The transposed labels are in `work` (transpose_tiles swapped cur back to it).
  }
  std::vector<std::uint64_t> left(wz, m);  // labels each row still holds, in work[0, left)
  std::uint64_t total = W * m;
  constexpr std::uint64_t kAlpha = 2;  // repetitions of the m colour steps in one communication
  // papers/003 Sect. 3 repeats while more than n / log_m^3 w labels are left; for w <= m that
  // bound is n, so at least one iteration always runs; at most 16 keep a bad draw bounded.
  const double logmw = m > 1 ? std::log(static_cast<double>(W)) / std::log(static_cast<double>(m)) : 1.0;
  const double threshold = static_cast<double>(W * m) / std::max(1.0, logmw * logmw * logmw);
  int iterations = 0;
  while (iterations < 16 && (iterations == 0 || static_cast<double>(total) > threshold)) {
    ++iterations;
    // Hash: each processor draws h(i) in [m] for destination row i (a table of random values stands
    // in for the Pagh-Pagh family) and writes it to its own copy; in step t processor i reads the
    // entry of row i + t from that row's copy, so all reads hit distinct banks.
    g.phase("hash");
    for (std::size_t r = 0; r < wz; ++r) {
      v[r] = static_cast<Word>(rng.below(m));
      addr[r] = g.at(table, r, r);
    }
    g.write(addr, v);
    for (std::uint64_t t = 1; t < W; ++t) {
      for (std::size_t r = 0; r < wz; ++r) {
        const std::uint64_t o = (r + t) % W;
        addr[r] = g.at(table, o, o);
        addr2[r] = g.at(table, r, o);
      }
      g.read(addr, v);
      g.write(addr2, v);
    }
    // Colouring: label (a, b) gets colour k = (b - h(a)) mod m; each row counting-sorts its labels
    // by colour into `bycolour`, counters in its own row of `counts` (O(m) steps).
    g.phase("colour");
    const auto colour_of = [&](Word label, Word h) {
      return static_cast<std::uint64_t>((dest_col(label) + m - h % m) % m);
    };
    std::fill(v.begin(), v.end(), 0);
    for (std::uint64_t c = 0; c < m; ++c) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(counts, r, c);
      g.write(addr, v);
    }
    Vals label(wz), h(wz), cnt(wz);
    const auto read_labels_and_hash = [&](std::uint64_t p) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = p < left[r] ? g.at(work, r, p) : kNoAddress;
      g.read(addr, label);
      for (std::size_t r = 0; r < wz; ++r) addr[r] = p < left[r] ? g.at(table, r, dest_row(label[r])) : kNoAddress;
      g.read(addr, h);
    };
    for (std::uint64_t p = 0; p < m; ++p) {
      read_labels_and_hash(p);
      for (std::size_t r = 0; r < wz; ++r) addr[r] = p < left[r] ? g.at(counts, r, colour_of(label[r], h[r])) : kNoAddress;
      g.read(addr, cnt);
      for (auto& c : cnt) ++c;
      g.write(addr, cnt);
    }
    Vals sum(wz, 0);
    for (std::uint64_t c = 0; c < m; ++c) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(counts, r, c);
      g.read(addr, cnt);
      g.write(addr, sum);
      for (std::size_t r = 0; r < wz; ++r) sum[r] += cnt[r];
    }
    for (std::uint64_t p = 0; p < m; ++p) {
      read_labels_and_hash(p);
      for (std::size_t r = 0; r < wz; ++r) addr2[r] = p < left[r] ? g.at(counts, r, colour_of(label[r], h[r])) : kNoAddress;
      g.read(addr2, cnt);
      for (std::size_t r = 0; r < wz; ++r) addr[r] = p < left[r] ? g.at(bycolour, r, cnt[r]) : kNoAddress;
      g.write(addr, label);
      for (auto& c : cnt) ++c;
      g.write(addr2, cnt);
    }
    // counts[k] now ends colour k. Communication: alpha m steps; in step (rep, k) each row sends
    // its rep-th label of colour k straight to its destination. Two labels of one colour bound for
    // one row would have the same column, hence be the same label: the CAC holds.
    g.phase("communicate");
    for (std::uint64_t rep = 0; rep < kAlpha; ++rep) {
      Vals start(wz, 0), end(wz);
      for (std::uint64_t c = 0; c < m; ++c) {
        for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(counts, r, c);
        g.read(addr, end);
        for (std::size_t r = 0; r < wz; ++r)
          addr[r] = start[r] + rep < end[r] ? g.at(bycolour, r, start[r] + rep) : kNoAddress;
        g.read(addr, label);
        for (std::size_t r = 0; r < wz; ++r)
          addr2[r] = addr[r] != kNoAddress ? g.at(out, dest_row(label[r]), dest_col(label[r])) : kNoAddress;
        g.write(addr2, label);
        start = end;
      }
    }
    // Compaction: a label of rank >= alpha within its colour was not sent; keep it in `work`.
    g.phase("compact");
    std::vector<std::uint64_t> kept(wz, 0);
    for (std::uint64_t p = 0; p < m; ++p) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = p < left[r] ? g.at(bycolour, r, p) : kNoAddress;
      g.read(addr, label);
      for (std::size_t r = 0; r < wz; ++r) addr[r] = p < left[r] ? g.at(table, r, dest_row(label[r])) : kNoAddress;
      g.read(addr, h);
      Vals startk(wz, 0);
      for (std::size_t r = 0; r < wz; ++r) {
        const std::uint64_t col = p < left[r] ? colour_of(label[r], h[r]) : 0;
        addr[r] = p < left[r] && col > 0 ? g.at(counts, r, col - 1) : kNoAddress;
      }
      g.read(addr, startk);
      for (std::size_t r = 0; r < wz; ++r) {
        const bool keep = p < left[r] && p - (colour_of(label[r], h[r]) > 0 ? startk[r] : 0) >= kAlpha;
        addr[r] = keep ? g.at(work, r, kept[r]) : kNoAddress;
        if (keep) ++kept[r];
      }
      g.write(addr, label);
    }
    left = kept;
    // Synchronisation: the leftover counts are summed up a binary tree of rows and broadcast back
    // down (2 log2 w reads and writes); every processor then holds the total.
    g.phase("sync");
    for (std::size_t r = 0; r < wz; ++r) {
      v[r] = static_cast<Word>(left[r]);
      addr[r] = g.at(sync, r, 0);
    }
    g.write(addr, v);
    Vals part = v;
    for (std::uint64_t d = 1; d < W; d *= 2) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = r % (2 * d) == 0 ? g.at(sync, r + d, 0) : kNoAddress;
      g.read(addr, u);
      for (std::size_t r = 0; r < wz; ++r) {
        if (addr[r] != kNoAddress) part[r] += u[r];
        addr2[r] = addr[r] != kNoAddress ? g.at(sync, r, 0) : kNoAddress;
      }
      g.write(addr2, part);
    }
    for (std::uint64_t d = W / 2; d >= 1; d /= 2) {
      for (std::size_t r = 0; r < wz; ++r) addr[r] = r % (2 * d) == d ? g.at(sync, r - d, 0) : kNoAddress;
      g.read(addr, u);
      for (std::size_t r = 0; r < wz; ++r) {
        if (addr[r] != kNoAddress) part[r] = u[r];
        addr2[r] = addr[r] != kNoAddress ? g.at(sync, r, 0) : kNoAddress;
      }
      g.write(addr2, part);
    }
    total = part[0];
  }
  const std::uint64_t leftover = total;

  // Finish (simplified from Appendix B, no packing): empty cells become +infinity, the whole matrix
  // is sorted by the conflict-free sort, then each row sends its labels in three conflict-free
  // groups: middle labels (their destination row appears in no other row), then the labels of its
  // first and of its last destination, label (a, j) in step j.
  g.phase("finish: fill");
  std::fill(v.begin(), v.end(), kEmpty);
  for (std::uint64_t c = 0; c < m; ++c) {
    for (std::size_t r = 0; r < wz; ++r) addr[r] = c >= left[r] ? g.at(work, r, c) : kNoAddress;
    g.write(addr, v);
  }
  std::string sort_method;
  Region sorted = work;
  if (leftover > 0) {
    Work k{g, m, work, bycolour, counts, "finish: "};
    sort_method = sort_matrix(k, merge_rows(), true);
    sorted = k.cur;
    g.phase("finish: send");
    std::vector<Word> first(wz, kEmpty), last(wz, kEmpty);
    std::vector<std::uint64_t> last_at(wz, m), count(wz, 0);
    Vals x(wz);
    for (std::uint64_t c = 0; c < m; ++c) {  // scan: first and last destination rows
      for (std::size_t r = 0; r < wz; ++r) addr[r] = g.at(sorted, r, c);
      g.read(addr, x);
      for (std::size_t r = 0; r < wz; ++r) {
        if (x[r] == kEmpty) continue;
        const auto a = static_cast<Word>(dest_row(x[r]));
        if (count[r]++ == 0) first[r] = a;
        if (last[r] != a) {
          last[r] = a;
          last_at[r] = c;
        }
      }
    }
    for (std::uint64_t c = 0; c < m; ++c) {  // middle labels
      for (std::size_t r = 0; r < wz; ++r) addr[r] = c < count[r] ? g.at(sorted, r, c) : kNoAddress;
      g.read(addr, x);
      for (std::size_t r = 0; r < wz; ++r) {
        const bool middle = c < count[r] && dest_row(x[r]) != first[r] && dest_row(x[r]) != last[r];
        addr2[r] = middle ? g.at(out, dest_row(x[r]), dest_col(x[r])) : kNoAddress;
      }
      g.write(addr2, x);
    }
    // First group from column 0, last group from last_at (when it is another row): label (a, j)
    // leaves in step j.
    for (int group = 0; group < 2; ++group) {
      std::vector<std::uint64_t> ptr(wz);
      for (std::size_t r = 0; r < wz; ++r) ptr[r] = group == 0 ? 0 : (last[r] != first[r] ? last_at[r] : m);
      const auto& target = group == 0 ? first : last;
      for (std::uint64_t j = 0; j < m; ++j) {
        for (std::size_t r = 0; r < wz; ++r) addr[r] = ptr[r] < count[r] ? g.at(sorted, r, ptr[r]) : kNoAddress;
        g.read(addr, x);
        for (std::size_t r = 0; r < wz; ++r) {
          const bool send = addr[r] != kNoAddress && dest_row(x[r]) == target[r] && dest_col(x[r]) == j;
          addr2[r] = send ? g.at(out, target[r], j) : kNoAddress;
          if (send) ++ptr[r];
        }
        g.write(addr2, x);
      }
    }
  }
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x);
  std::string method = std::string("theorem4") + (W >= m ? "" : " (w < m: w x w tiles transposed)") +
                       ": random table for the hash family, alpha = 2, " + std::to_string(iterations) +
                       " iteration(s); finish: " + (leftover > 0 ? "full sort [" + sort_method + "] + 3-group sends" : "none needed");
  SortingRun run = finish_run("as-permute", method, w, m, g, holds(g, out, m, expected));
  run.figures = {{"iterations", iterations}, {"leftover_labels", static_cast<std::int64_t>(leftover)}};
  return run;
}

SortingRun bitonic_flat(int w, std::uint64_t m, const std::vector<Word>& keys) {
  check_shape(w, m);
  const auto W = static_cast<std::uint64_t>(w);
  const std::uint64_t n = W * m;
  MatrixDmm g(w, m);
  const Region data{0};
  load(g, data, m, keys);
  // Rank x lives at row x / m, column x % m: the row-major target order of the paper.
  const auto cell = [&](std::uint64_t x) { return g.at(data, x / m, x % m); };
  const auto wz = static_cast<std::size_t>(w);
  Addrs lo(wz), hi(wz);
  Vals a(wz), b(wz);
  g.phase("bitonic");
  for (std::uint64_t size = 2; size <= n; size *= 2)
    for (std::uint64_t j = size / 2; j >= 1; j /= 2)
      for (std::uint64_t q0 = 0; q0 < n / 2; q0 += W) {
        for (std::size_t t = 0; t < wz; ++t) {
          const std::uint64_t q = q0 + t;
          const std::uint64_t x = (q / j) * 2 * j + q % j;  // comparator (x, x + j)
          lo[t] = q < n / 2 ? cell(x) : kNoAddress;
          hi[t] = q < n / 2 ? cell(x + j) : kNoAddress;
        }
        g.read(lo, a);
        g.read(hi, b);
        for (std::size_t t = 0; t < wz; ++t) {
          const std::uint64_t q = q0 + t, x = (q / j) * 2 * j + q % j;
          const bool up = (x & size) == 0;
          if ((a[t] > b[t]) == up) std::swap(a[t], b[t]);
        }
        g.write(lo, a);
        g.write(hi, b);
      }
  std::vector<Word> expected = keys;
  std::sort(expected.begin(), expected.end());
  return finish_run("as-sort-bitonic", "baseline: bitonic network over the row-major array, w comparators per step",
                    w, m, g, holds(g, data, m, expected));
}

namespace {
// Each processor reads its cell of column j and writes it to its destination (given to it by an
// oracle for the partition: the next free column of the label's row in column-major input order).
SortingRun direct(const std::string& name, int w, std::uint64_t m, const std::vector<Word>& labels,
                  const std::function<std::pair<std::uint64_t, std::uint64_t>(std::uint64_t i, std::uint64_t j)>& dest,
                  const std::vector<Word>& expected) {
  check_shape(w, m);
  MatrixDmm g(w, 2 * m);
  const Region in{0}, out{m};
  load(g, in, m, labels);
  const auto wz = static_cast<std::size_t>(w);
  Addrs src(wz), dst(wz);
  Vals v(wz);
  g.phase("direct");
  for (std::uint64_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i < wz; ++i) {
      src[i] = g.at(in, i, j);
      const auto [a, b] = dest(i, j);
      dst[i] = g.at(out, a, b);
    }
    g.read(src, v);
    g.write(dst, v);
  }
  return finish_run(name, "baseline: direct sends, one column per step (ignores the CAC)", w, m, g,
                    holds(g, out, m, expected));
}
}  // namespace

SortingRun direct_partition(int w, std::uint64_t m, const std::vector<Word>& labels) {
  check_shape(w, m);
  const auto wz = static_cast<std::size_t>(w);
  std::vector<std::uint64_t> next(wz, 0);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> to(labels.size());
  for (std::uint64_t j = 0; j < m; ++j)
    for (std::size_t i = 0; i < wz; ++i) {
      const Word a = labels[i * m + j];
      to[i * m + j] = {a, next[a]++};
    }
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x / m);
  return direct("as-partition-direct", w, m, labels, [&](std::uint64_t i, std::uint64_t j) { return to[i * m + j]; },
                expected);
}

SortingRun direct_permute(int w, std::uint64_t m, const std::vector<Word>& labels) {
  std::vector<Word> expected(labels.size());
  for (std::size_t x = 0; x < expected.size(); ++x) expected[x] = static_cast<Word>(x);
  return direct("as-permute-direct", w, m, labels,
                [&](std::uint64_t i, std::uint64_t j) {
                  const Word x = labels[i * m + j];
                  return std::pair<std::uint64_t, std::uint64_t>{x / m, x % m};
                },
                expected);
}

std::vector<Word> random_keys(int w, std::uint64_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Word> v(static_cast<std::size_t>(w) * m);
  for (auto& x : v) x = static_cast<Word>(rng.next());
  return v;
}

std::vector<Word> random_partition(int w, std::uint64_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Word> v(static_cast<std::size_t>(w) * m);
  for (std::size_t x = 0; x < v.size(); ++x) v[x] = static_cast<Word>(x / m);
  rng.shuffle(std::span<Word>(v));
  return v;
}

std::vector<Word> random_permutation(int w, std::uint64_t m, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Word> v(static_cast<std::size_t>(w) * m);
  for (std::size_t x = 0; x < v.size(); ++x) v[x] = static_cast<Word>(x);
  rng.shuffle(std::span<Word>(v));
  return v;
}

void check_input(const std::string& task, int w, std::uint64_t m, const std::vector<Word>& input,
                 const std::string& source) {
  const std::uint64_t n = static_cast<std::uint64_t>(w) * m;
  if (input.size() != n)
    throw InputError(source + ": needs w * m = " + std::to_string(n) + " values, has " + std::to_string(input.size()));
  if (task == "sort") return;
  const std::uint64_t range = task == "partition" ? static_cast<std::uint64_t>(w) : n;
  const std::uint64_t copies = task == "partition" ? m : 1;
  std::vector<std::uint64_t> seen(range, 0);
  for (std::size_t x = 0; x < input.size(); ++x) {
    const std::string where = source + " line " + std::to_string(x + 1) + ": ";
    if (input[x] >= range)
      throw InputError(where + "label " + std::to_string(input[x]) + " is not below " + std::to_string(range));
    if (++seen[input[x]] > copies)
      throw InputError(where + "label " + std::to_string(input[x]) + " occurs more than " + std::to_string(copies) +
                       " time(s)");
  }
}

std::vector<Word> read_keys_file(const std::string& path, std::uint64_t count) {
  std::ifstream in(path);
  if (!in) throw InputError("--keys-file: cannot read " + path);
  std::vector<Word> keys;
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;  // blank lines are skipped
    const auto last = line.find_last_not_of(" \t\r");
    const std::string text = line.substr(first, last - first + 1);
    const bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || text.size() > 10 || std::stoull(text) > 0xFFFFFFFFull)
      throw InputError("--keys-file: " + path + " line " + std::to_string(number) + ": '" + text +
                       "' is not an unsigned 32-bit integer");
    if (keys.size() == count)
      throw InputError("--keys-file: " + path + " line " + std::to_string(number) + ": more than w * m = " +
                       std::to_string(count) + " values");
    keys.push_back(static_cast<Word>(std::stoull(text)));
  }
  if (keys.size() != count)
    throw InputError("--keys-file: " + path + " has " + std::to_string(keys.size()) + " values, needs w * m = " +
                     std::to_string(count));
  return keys;
}

bool is_sorting_algorithm(const std::string& name) { return !task_of(name).empty(); }

std::string task_of(const std::string& name) {
  if (name == "as-sort" || name == "as-sort-bitonic") return "sort";
  if (name == "as-partition" || name == "as-partition-sort" || name == "as-partition-direct") return "partition";
  if (name == "as-permute" || name == "as-permute-direct") return "permute";
  return "";
}

SortingRun run_by_name(const std::string& name, int w, std::uint64_t m, const std::vector<Word>& input,
                       std::uint64_t seed) {
  if (name == "as-sort") return as_sort(w, m, input);
  if (name == "as-sort-bitonic") return bitonic_flat(w, m, input);
  if (name == "as-partition") return as_partition(w, m, input);
  if (name == "as-partition-sort") return as_partition_sort_based(w, m, input);
  if (name == "as-partition-direct") return direct_partition(w, m, input);
  if (name == "as-permute") return as_permute(w, m, input, seed);
  if (name == "as-permute-direct") return direct_permute(w, m, input);
  throw InputError("algorithm: unknown '" + name + "'");
}

std::vector<CatalogueEntry> catalogue_entries() {
  const std::string p = "papers/003 ";
  return {
      {"algorithm", "as-sort", "sorting a w x m matrix without bank conflicts (Lemma 1, Theorems 1-2, compositions)",
       p + "Sect. 2"},
      {"algorithm", "as-partition", "w-way partition without bank conflicts (Corollary 1, Theorem 1, Lemma 2)",
       p + "Sect. 2"},
      {"algorithm", "as-partition-sort", "w-way partition by the sorting algorithms with radix-sorted rows",
       p + "Sect. 2"},
      {"algorithm", "as-permute", "randomized permutation without bank conflicts (colouring by a random hash)",
       p + "Sect. 3, Thm 4"},
      {"algorithm", "as-sort-bitonic", "baseline: bitonic network over the row-major flat array", p + "Sect. 1"},
      {"algorithm", "as-partition-direct", "baseline: every item sent straight to its row", p + "Sect. 1"},
      {"algorithm", "as-permute-direct", "baseline: every item sent straight to its cell", p + "Sect. 1"},
  };
}

}  // namespace mmsim::sorting
