// AS on the matrix DMM: every algorithm's output checked cell by cell, and the CAC (no step
// with congestion above 1) checked on every step the engine counted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "algorithms/sorting/blocks.h"
#include "algorithms/sorting/sorting.h"
#include "io/input_error.h"
#include "sim/random.h"

using namespace mmsim;
using namespace mmsim::sorting;

namespace {
void conflict_free(const SortingRun& r) {
  INFO(r.algorithm << " w=" << r.w << " m=" << r.m << " " << r.method);
  CHECK(r.correct);
  CHECK(r.summary.cac_violations == 0);
  CHECK(r.summary.time_units == r.summary.steps);  // latency 1, congestion 1: one time unit a step
}
}  // namespace

TEST_CASE("sort, partition and permutation over a grid of shapes: correct and conflict-free") {
  for (int w : {1, 2, 4, 8, 16}) {
    for (std::uint64_t m = 1; m <= 16u * static_cast<std::uint64_t>(w) && m <= 128; m *= 2) {
      const std::uint64_t seed = static_cast<std::uint64_t>(w) * 1000 + m;
      conflict_free(as_sort(w, m, random_keys(w, m, seed)));
      conflict_free(as_partition(w, m, random_partition(w, m, seed)));
      conflict_free(as_permute(w, m, random_permutation(w, m, seed), seed));
    }
  }
}

TEST_CASE("every case of the sort is reached and named") {
  CHECK(as_sort(4, 16, random_keys(4, 16, 1)).method.rfind("lemma1", 0) == 0);
  CHECK(as_sort(16, 16, random_keys(16, 16, 1)).method.rfind("theorem1", 0) == 0);
  CHECK(as_sort(8, 8, random_keys(8, 8, 1)).method.find("2 cleanup rounds") != std::string::npos);
  CHECK(as_sort(32, 8, random_keys(32, 8, 1)).method.rfind("theorem2", 0) == 0);
  CHECK(as_sort(16, 64, random_keys(16, 64, 1)).method.rfind("composite", 0) == 0);
  CHECK(as_partition(4, 16, random_partition(4, 16, 1)).method.rfind("corollary1", 0) == 0);
}

TEST_CASE("special inputs: 0-1 keys, duplicates, all equal, sorted, reversed") {
  for (auto [w, m] : {std::pair<int, std::uint64_t>{8, 64}, {16, 16}, {32, 8}, {16, 32}, {8, 8}}) {
    const std::uint64_t n = static_cast<std::uint64_t>(w) * m;
    Rng rng(n);
    std::vector<std::vector<Word>> inputs;
    std::vector<Word> v(n);
    for (auto& x : v) x = static_cast<Word>(rng.below(2));  // 0-1 principle, directly
    inputs.push_back(v);
    for (auto& x : v) x = static_cast<Word>(rng.below(5));  // many duplicates
    inputs.push_back(v);
    inputs.emplace_back(n, 7u);  // all equal
    for (std::uint64_t i = 0; i < n; ++i) v[i] = static_cast<Word>(i);
    inputs.push_back(v);  // already sorted
    std::reverse(v.begin(), v.end());
    inputs.push_back(v);                  // reversed
    inputs.emplace_back(n, 0xFFFFFFFFu);  // the largest key
    for (const auto& in : inputs) conflict_free(as_sort(w, m, in));
    // Partition and permutation of structured inputs: already in place and reversed.
    std::vector<Word> part(n), perm(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      part[i] = static_cast<Word>(i / m);
      perm[i] = static_cast<Word>(i);
    }
    conflict_free(as_partition(w, m, part));
    conflict_free(as_permute(w, m, perm, 3));
    std::reverse(part.begin(), part.end());
    std::reverse(perm.begin(), perm.end());
    conflict_free(as_partition(w, m, part));
    conflict_free(as_permute(w, m, perm, 3));
  }
}

TEST_CASE("building blocks: exact step counts, conflict-free, data moved as specified") {
  const int w = 8;
  for (std::uint64_t m : {2u, 8u, 32u}) {
    for (std::uint64_t h : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{4}, std::uint64_t{8}}) {
      MatrixDmm g(w, 2 * m);
      Work k{g, m, {0}, {m}, {0}, ""};
      auto cells = g.cells();
      for (std::uint64_t r = 0; r < 8; ++r)
        for (std::uint64_t c = 0; c < m; ++c) cells[g.at(k.cur, r, c)] = static_cast<Word>(r * m + c);
      row_to_column_major(k, h);
      // Within block b, x-th element (row-major) at (x mod h, x / h).
      bool ok = true;
      for (std::uint64_t r = 0; r < 8; ++r)
        for (std::uint64_t c = 0; c < m; ++c) {
          const std::uint64_t base = r / h * h, x = (r % h) * m + c;
          ok = ok && cells[g.at(k.cur, base + x % h, x / h)] == r * m + c;
        }
      CHECK(ok);
      column_to_row_major(k, h);
      for (std::uint64_t r = 0; r < 8; ++r)
        for (std::uint64_t c = 0; c < m; ++c) ok = ok && cells[g.at(k.cur, r, c)] == r * m + c;
      CHECK(ok);
      const auto s = summarize(g.stats());
      CHECK(s.steps == static_cast<std::int64_t>(4 * m));  // 2m per conversion
      CHECK(s.cac_violations == 0);
    }
  }
}

TEST_CASE("row merge sort: at most 2L + 1 steps per merge of L cells, each row sorted in its direction") {
  const int w = 4;
  const std::uint64_t m = 16;
  MatrixDmm g(w, 2 * m);
  Work k{g, m, {0}, {m}, {0}, ""};
  Rng rng(5);
  auto cells = g.cells();
  for (std::uint64_t r = 0; r < 4; ++r)
    for (std::uint64_t c = 0; c < m; ++c) cells[g.at(k.cur, r, c)] = static_cast<Word>(rng.below(10));
  row_merge_sort(k, {0, 1, 0, 1});
  for (std::uint64_t r = 0; r < 4; ++r)
    for (std::uint64_t c = 1; c < m; ++c) {
      const Word a = cells[g.at(k.cur, r, c - 1)], b = cells[g.at(k.cur, r, c)];
      CHECK((r % 2 == 0 ? a <= b : a >= b));
    }
  // Pass with runs of width s: m/(2s) merges of 2 + 2(2s) - 1 steps each, less the read after the
  // write when every processor's advancing run is exhausted (no request: not a step); with s = 1 that
  // read is always idle.
  std::int64_t expected = 0, merges = 0;
  for (std::uint64_t s = 1; s < m; s *= 2) {
    expected += static_cast<std::int64_t>(m / (2 * s) * (2 + 4 * s - 1));
    merges += static_cast<std::int64_t>(m / (2 * s));
  }
  const auto sum = summarize(g.stats());
  CHECK(sum.steps <= expected - static_cast<std::int64_t>(m / 2));
  CHECK(sum.steps >= expected - merges);
  CHECK(sum.cac_violations == 0);
}

TEST_CASE("row radix sort: passes x (3 base + 7m) steps, worked out by hand, each row sorted in its direction") {
  // Per pass: base steps zero the counters, 3 per column count (read the cell, read and write its
  // counter), 2 per counter make the prefix sums, 4 per column place the cell: 3 base + 7m. Keys below
  // 256 in rows of m = 16: base 16 (4 bits a pass), 8 key bits, so 2 passes of 3 * 16 + 7 * 16 = 160.
  // Keys below 10: still base 16 but one pass, 160 steps.
  const int w = 4;
  const std::uint64_t m = 16;
  for (const auto& [range, expected] : {std::pair<std::uint64_t, std::int64_t>{256, 320}, {10, 160}}) {
    MatrixDmm g(w, 3 * m);
    Work k{g, m, {0}, {m}, {2 * m}, ""};
    Rng rng(7);
    auto cells = g.cells();
    for (std::uint64_t r = 0; r < 4; ++r)
      for (std::uint64_t c = 0; c < m; ++c) cells[g.at(k.cur, r, c)] = static_cast<Word>(rng.below(range));
    row_radix_sort(k, {0, 1, 0, 1}, range);
    for (std::uint64_t r = 0; r < 4; ++r)
      for (std::uint64_t c = 1; c < m; ++c) {
        const Word a = cells[g.at(k.cur, r, c - 1)], b = cells[g.at(k.cur, r, c)];
        CHECK((r % 2 == 0 ? a <= b : a >= b));
      }
    const auto sum = summarize(g.stats());
    INFO("key range " << range);
    CHECK(sum.steps == expected);
    CHECK(sum.cac_violations == 0);
  }
}

TEST_CASE("AS step counts within stated constants of their bounds where the bound is the whole story") {
  // For m >= w^2 (AS Lemma 1, Corollary 1, Theorem 4) the papers' bounds are O(m log(mw)) for sorting
  // and permutation and O(m) for partition; the simulated steps divided by the bound stay near a
  // constant there (mmsim table as-bounds: 7.4 .. 8.9 for the sort, 3.6 .. 7.8 for the partition per
  // m; the permutation, finished as Appendix B does, stays under 14 from m = 2 w^2). The test holds
  // them under stated constants, 10, 48 and 14 (28 for the permutation at m = w^2), and above the floor every algorithm
  // that moves all mw cells pays: m reads and m writes.
  for (int w : {4, 8}) {
    const auto W = static_cast<std::uint64_t>(w);
    for (std::uint64_t m : {W * W, 2 * W * W, 4 * W * W}) {
      const std::uint64_t seed = W * 100 + m;
      const double m_log = static_cast<double>(m) * std::log2(static_cast<double>(m * W));
      const auto sort = as_sort(w, m, random_keys(w, m, seed));
      const auto part = as_partition(w, m, random_partition(w, m, seed));
      const auto perm = as_permute(w, m, random_permutation(w, m, seed), seed);
      INFO("w = " << w << ", m = " << m << ": sort " << sort.summary.steps << " (" << sort.method << "), partition "
                  << part.summary.steps << " (" << part.method << "), permutation " << perm.summary.steps);
      CHECK(sort.method.rfind("lemma1", 0) == 0);
      CHECK(part.method.rfind("corollary1", 0) == 0);
      for (const auto* r : {&sort, &part, &perm}) {
        CHECK(r->correct);
        CHECK(r->summary.steps >= static_cast<std::int64_t>(2 * m));
      }
      CHECK(static_cast<double>(sort.summary.steps) <= 10 * m_log);
      CHECK(static_cast<double>(part.summary.steps) <= 48 * static_cast<double>(m));
      // The permutation finishes as AS Appendix B does (packing, then Lemma 2 on the packed matrix),
      // whose fixed cost weighs most at the smallest shape: w = 4, m = 16 takes 27.5 m log(mw).
      CHECK(static_cast<double>(perm.summary.steps) <= (m == W * W ? 28 : 14) * m_log);
    }
  }
}

TEST_CASE("baselines break the CAC but are correct") {
  const int w = 16;
  const std::uint64_t m = 64;
  const auto b = bitonic_flat(w, m, random_keys(w, m, 2));
  CHECK(b.correct);
  CHECK(b.summary.cac_violations > 0);
  CHECK(b.summary.time_units > b.summary.steps);
  const auto p = direct_permute(w, m, random_permutation(w, m, 2));
  CHECK(p.correct);
  CHECK(p.summary.cac_violations > 0);
  const auto q = direct_partition(w, m, random_partition(w, m, 2));
  CHECK(q.correct);
  CHECK(q.summary.cac_violations > 0);
  // Direct sends of the identity permutation: column j goes to column j, rows distinct: no conflict.
  std::vector<Word> id(static_cast<std::size_t>(w) * m);
  for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<Word>(i);
  CHECK(direct_permute(w, m, id).summary.cac_violations == 0);
}

TEST_CASE("bad shapes and inputs are InputErrors") {
  CHECK_THROWS_AS(check_shape(3, 8), InputError);
  CHECK_THROWS_AS(check_shape(8, 12), InputError);
  CHECK_THROWS_AS(check_shape(8, 0), InputError);
  CHECK_THROWS_AS(check_shape(2048, 8), InputError);
  CHECK_THROWS_AS(as_sort(8, 6, std::vector<Word>(48, 0)), InputError);
  CHECK_THROWS_AS(check_input(Task::Partition, 2, 2, {0, 0, 0, 1}, "x"), InputError);
  CHECK_THROWS_AS(check_input(Task::Permute, 2, 2, {0, 1, 2, 2}, "x"), InputError);
  CHECK_THROWS_AS(check_input(Task::Permute, 2, 2, {0, 1, 2, 4}, "x"), InputError);
  CHECK_NOTHROW(check_input(Task::Permute, 2, 2, {3, 1, 2, 0}, "x"));
}

namespace {
// Adversarial arrangements of m copies of each label in [0, w): reversed rows, each row all one
// label in a shuffled row order, labels striped by column (row i column j holds (i + j w/m) mod w
// style spreads), and 0-1-like halves (small labels all in the bottom half).
std::vector<std::vector<Word>> partition_inputs(int w, std::uint64_t m, std::uint64_t seed) {
  const auto W = static_cast<std::uint64_t>(w);
  const std::uint64_t n = W * m;
  std::vector<std::vector<Word>> out;
  out.push_back(random_partition(w, m, seed));
  out.push_back(random_partition(w, m, seed + 1));
  std::vector<Word> v(n);
  for (std::uint64_t x = 0; x < n; ++x) v[x] = static_cast<Word>(W - 1 - x / m);  // reversed rows
  out.push_back(v);
  for (std::uint64_t x = 0; x < n; ++x) v[x] = static_cast<Word>(x % W);  // column-major order of labels
  out.push_back(v);
  for (std::uint64_t x = 0; x < n; ++x) v[x] = static_cast<Word>((n - 1 - x) % W);
  out.push_back(v);
  // Row order shuffled: every row holds one label, the labels in a random order.
  Rng rng(seed);
  std::vector<Word> rowlab(W);
  for (std::uint64_t i = 0; i < W; ++i) rowlab[i] = static_cast<Word>(i);
  for (std::uint64_t i = W; i > 1; --i) std::swap(rowlab[i - 1], rowlab[rng.below(i)]);
  for (std::uint64_t x = 0; x < n; ++x) v[x] = rowlab[x / m];
  out.push_back(v);
  // Small labels packed at the bottom, each bottom row mixing two labels (a 0-1 like split).
  for (std::uint64_t x = 0; x < n; ++x) v[x] = static_cast<Word>((x + n / 2) % n / m);
  out.push_back(v);
  return out;
}
}  // namespace

TEST_CASE("partition for w > m: Lemma 2 where it applies, correct and conflict-free") {
  const std::vector<std::pair<int, std::uint64_t>> shapes{{8, 4},   {16, 8},   {32, 8},   {64, 8},  {64, 16},
                                                          {64, 32}, {128, 16}, {256, 16}, {128, 8}, {256, 32},
                                                          {512, 8}, {16, 4},   {32, 2}};
  for (auto [w, m] : shapes) {
    for (const auto& in : partition_inputs(w, m, static_cast<std::uint64_t>(w) * 7 + m)) {
      const auto r = as_partition(w, m, in);
      conflict_free(r);
      const auto s = as_partition_sort_based(w, m, in);
      conflict_free(s);
      CHECK(s.method.rfind("theorem2", 0) == 0);
    }
  }
  // Lemma 2 needs m large enough for log_m w; smaller m falls back to the sort-based path and says so.
  CHECK(as_partition(8, 4, random_partition(8, 4, 1)).method.rfind("lemma2", 0) == 0);
  CHECK(as_partition(64, 8, random_partition(64, 8, 1)).method.rfind("lemma2", 0) == 0);
  CHECK(as_partition(256, 16, random_partition(256, 16, 1)).method.rfind("lemma2", 0) == 0);
  CHECK(as_partition(16, 4, random_partition(16, 4, 1)).method.find("lemma2 does not apply") != std::string::npos);
  CHECK(as_partition(32, 2, random_partition(32, 2, 1)).method.find("lemma2 does not apply") != std::string::npos);
}

TEST_CASE("lemma 2 on 0-1 labels (the 0-1 principle the proof uses), all splits") {
  // Labels 0 and 1 only are not a partition input; the sort inside is checked through the partition
  // of inputs whose label multiset is fixed but whose 0-1 split point varies: label < t vs >= t.
  const int w = 64;
  const std::uint64_t m = 8;
  for (Word t : {1u, 5u, 31u, 32u, 63u}) {
    std::vector<Word> v(static_cast<std::size_t>(w) * m);
    Rng rng(t);
    for (std::size_t x = 0; x < v.size(); ++x) v[x] = static_cast<Word>(x / m);
    // Put the labels < t at random cells of the bottom rows, the rest on top.
    std::rotate(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(t * m), v.end());
    for (std::size_t x = v.size(); x > 1; --x) {
      const std::size_t y = rng.below(x);
      if ((v[x - 1] < t) == (v[y] < t)) std::swap(v[x - 1], v[y]);
    }
    conflict_free(as_partition(w, m, v));
  }
}
