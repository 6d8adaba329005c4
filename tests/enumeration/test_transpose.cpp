// The transpositions of GL on the simulated HMM: every cell checked, exact slot counts, and
// the ordering effect under the TLB model.
#include <doctest/doctest.h>

#include "algorithms/enumeration/transpose.h"
#include "io/input_error.h"
#include "tests/enumeration/small_hmm.h"

using namespace mmsim;
using namespace mmsim::enumeration;

namespace {
std::vector<InPlaceConfig> in_place_variants(std::uint64_t n) {
  std::vector<InPlaceConfig> v;
  InPlaceConfig c;
  c.order = n;
  c.grid = InPlaceGrid::Naive;
  v.push_back(c);
  c.grid = InPlaceGrid::SuperGrid;
  for (std::uint64_t r : {1, 2, 3}) c.region = r, v.push_back(c);
  c.grid = InPlaceGrid::Scheme;
  c.scheme = Scheme::V1, v.push_back(c);
  c.scheme = Scheme::V1R, v.push_back(c);
  c.scheme = Scheme::V1B;
  for (std::uint64_t w : {1, 2, 3, 100}) c.band = w, v.push_back(c);
  return v;
}
}  // namespace

TEST_CASE("every in-place transposition is correct, tile multiples or not") {
#ifdef MMSIM_ENUM_SMALL_RANGES
  const std::vector<std::uint64_t> orders{1, 7, 16, 21};
#else
  const std::vector<std::uint64_t> orders{1, 5, 8, 16, 21, 40, 67};
#endif
  for (bool tlb : {false, true})
    for (const auto& eo : {kSync, kAsync})
      for (std::uint64_t n : orders)
        for (auto c : in_place_variants(n)) {
          for (std::uint32_t resident : {0u, 1u}) {
            c.resident = resident;
            TlbMachine m(small_hmm(), tlb ? small_tlb() : TlbParams{});
            const TransposeRun r = run_in_place(m, c, eo);
            INFO("n = " << n << " grid " << static_cast<int>(c.grid) << " scheme " << to_string(c.scheme) << " band "
                        << c.band << " region " << c.region << " tlb " << tlb << " resident " << resident);
            CHECK(r.correct);
            CHECK((r.tlb.misses > 0) == tlb);
          }
        }
}

TEST_CASE("in place: the grids' block counts, and every cell read and written once") {
  TlbMachine m(small_hmm(), TlbParams{});
  InPlaceConfig c;
  c.order = 64;  // 8 x 8 tiles of 8 x 8
  c.grid = InPlaceGrid::Naive;
  auto r = run_in_place(m, c, kSync);
  CHECK(r.blocks == 64);
  CHECK(r.idle_blocks == 28);
  // Aligned rows: one slot per tile row read and written, 64 x 64 / 8 rows of 8 cells, twice.
  CHECK(r.global_slots == 2 * 64 * 64 / 8);
  c.grid = InPlaceGrid::Scheme;
  c.scheme = Scheme::V1B;
  c.band = 3;
  r = run_in_place(m, c, kAsync);
  CHECK(r.blocks == 36);
  CHECK(r.idle_blocks == 0);
  CHECK(r.band_used == 3);
  CHECK(r.global_slots == 2 * 64 * 64 / 8);
  c.grid = InPlaceGrid::SuperGrid;
  c.region = 3;  // 3 x 3 regions of tiles: ceil(8/3) = 3, six launches
  r = run_in_place(m, c, kSync);
  CHECK(r.launches == 6);
  CHECK(r.blocks == 6 * 9);
  CHECK(r.idle_blocks == 6 * 9 - 36);
  c.grid = InPlaceGrid::Scheme;
  c.band = 1000;  // wider than the tile grid: clamped, and then V1B is V1
  r = run_in_place(m, c, kSync);
  CHECK(r.band_used == 8);
}

TEST_CASE("the triangular grids visit every tile on or below the diagonal once, in the scheme's order") {
  for (Scheme s : {Scheme::V1, Scheme::V1R, Scheme::V1B})
    for (std::uint64_t nb : {1, 2, 5, 13}) {
      const auto g = triangular_grid(s, nb, 2);
      std::vector<int> seen(nb * nb, 0);
      for (const auto& c : g) {
        REQUIRE(c.x <= c.y);
        REQUIRE(c.y < nb);
        ++seen[c.y * nb + c.x];
      }
      for (std::uint64_t y = 0; y < nb; ++y)
        for (std::uint64_t x = 0; x <= y; ++x) CHECK(seen[y * nb + x] == 1);
    }
  const auto v1 = triangular_grid(Scheme::V1, 3, 1);
  CHECK(v1 == std::vector<Cell2>{{0, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}});
  const auto v1r = triangular_grid(Scheme::V1R, 3, 1);
  CHECK(v1r == std::vector<Cell2>{{0, 0}, {1, 1}, {0, 1}, {2, 2}, {1, 2}, {0, 2}});
  const auto v1b = triangular_grid(Scheme::V1B, 3, 1);  // band of one column: column by column
  CHECK(v1b == std::vector<Cell2>{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}});
}

TEST_CASE("every out-of-place transposition is correct, rectangles included") {
#ifdef MMSIM_ENUM_SMALL_RANGES
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes{{8, 8}, {13, 29}, {1, 20}};
#else
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes{{8, 8},  {13, 29}, {40, 17},
                                                                    {1, 50}, {50, 1},  {64, 24}};
#endif
  for (bool tlb : {false, true})
    for (const auto& eo : {kSync, kAsync})
      for (auto [rows, cols] : shapes)
        for (bool banded : {false, true})
          for (std::uint64_t band : {1, 2, 3, 50}) {
            if (!banded && band > 1) continue;
            OutOfPlaceConfig c;
            c.rows = rows;
            c.cols = cols;
            c.banded = banded;
            c.band = band;
            c.resident = 1;
            TlbMachine m(small_hmm(), tlb ? small_tlb() : TlbParams{});
            const TransposeRun r = run_out_of_place(m, c, eo);
            INFO(rows << " x " << cols << " banded " << banded << " band " << band << " tlb " << tlb);
            CHECK(r.correct);
            CHECK(r.blocks == ((rows + 7) / 8) * ((cols + 7) / 8));
          }
}

TEST_CASE("with a TLB and blocks issued in order, the banded schemes miss less and finish sooner") {
  // 256 x 256 cells, pages of 2048 cells = 8 rows = one tile row; 8 TLB entries reach a quarter of
  // the matrix. V1 sweeps the upper tiles of a whole tile column per tile row (thrashing once the
  // row passes 8 tiles); V1B with bands of 4 tiles keeps 4 + 1 tile rows in use.
  const MachineParams mp = small_hmm();
  TlbParams tp = small_tlb();
  tp.page_cells = 2048;
  TlbMachine m(mp, tp);
  InPlaceConfig c;
  c.order = 256;
  c.resident = 1;
  c.grid = InPlaceGrid::Scheme;
  c.scheme = Scheme::V1;
  const auto v1 = run_in_place(m, c, kAsync);
  c.scheme = Scheme::V1B;
  c.band = 4;
  const auto v1b = run_in_place(m, c, kAsync);
  c.grid = InPlaceGrid::Naive;
  const auto naive = run_in_place(m, c, kAsync);
  REQUIRE(v1.correct);
  REQUIRE(v1b.correct);
  CHECK(v1b.tlb.misses * 2 < v1.tlb.misses);
  CHECK(v1b.stats.time_units < v1.stats.time_units);
  CHECK(naive.tlb.misses > v1b.tlb.misses);
  // Without the TLB the order does not matter to the global memory.
  TlbMachine off(mp, TlbParams{});
  c.grid = InPlaceGrid::Scheme;
  c.scheme = Scheme::V1;
  const auto v1_off = run_in_place(off, c, kAsync);
  c.scheme = Scheme::V1B;
  const auto v1b_off = run_in_place(off, c, kAsync);
  CHECK(v1_off.global_slots == v1b_off.global_slots);
  CHECK(v1_off.global_slots + v1.tlb.misses * 8 == v1.global_slots);

  OutOfPlaceConfig o;
  o.rows = o.cols = 256;
  o.resident = 1;
  const auto nvi = run_out_of_place(m, o, kAsync);
  o.banded = true;
  o.band = 4;
  const auto oopb = run_out_of_place(m, o, kAsync);
  CHECK(oopb.tlb.misses * 2 < nvi.tlb.misses);
  CHECK(oopb.stats.time_units < nvi.stats.time_units);
}

TEST_CASE("bad parameters are InputErrors") {
  TlbMachine m(small_hmm(), TlbParams{});
  InPlaceConfig c;
  c.order = 0;
  CHECK_THROWS_AS(run_in_place(m, c, kSync), InputError);
  c.order = kMaxInPlaceOrder + 1;
  CHECK_THROWS_AS(check_in_place(small_hmm(), c), InputError);
  c.order = 16;
  c.band = 0;
  CHECK_THROWS_AS(check_in_place(small_hmm(), c), InputError);
  c.band = 1;
  CHECK_THROWS_AS(check_in_place(small_hmm(128), c), InputError);
  OutOfPlaceConfig o;
  o.rows = 0;
  o.cols = 4;
  CHECK_THROWS_AS(check_out_of_place(small_hmm(), o), InputError);
  o.rows = std::uint64_t{1} << 13;
  o.cols = std::uint64_t{1} << 12;
  CHECK_THROWS_AS(check_out_of_place(small_hmm(), o), InputError);
}

TEST_CASE("time units worked out by hand: one diagonal tile in place, two tiles out of place") {
  // HMM w = 4, l = 1, L = 20, k = 2, round-synchronous, no TLB. Tiles are 4 x 4: a block of 16
  // threads, 4 warps, each warp one tile row (one address group: one global slot) and, through the
  // padded shared rows (pitch 5: banks (5 r + c) mod 4), one conflict-free shared slot.
  MachineParams p = small_hmm(4);
  // In place, n = 4: one diagonal tile, so the "upper" rounds request nothing and cost nothing.
  // Read: 4 slots + L - 1 = 23; stage and unstage: 4 slots + l - 1 = 4 each; write: 23. Total 54.
  {
    InPlaceConfig c;
    c.order = 4;
    c.grid = InPlaceGrid::Scheme;
    c.scheme = Scheme::V1;
    TlbMachine m(p, TlbParams{});
    const TransposeRun r = run_in_place(m, c, kSync);
    CHECK(r.correct);
    CHECK(r.stats.time_units == 23 + 4 + 4 + 23);
  }
  // Out of place, 8 rows x 4 columns: two tiles, two blocks, one on each DMM. Global rounds carry the
  // 8 warps' slots: 8 + 20 - 1 = 27 each; shared rounds 4 slots on each DMM in parallel: 4 each.
  {
    OutOfPlaceConfig c;
    c.rows = 8;
    c.cols = 4;
    TlbMachine m(p, TlbParams{});
    const TransposeRun r = run_out_of_place(m, c, kSync);
    CHECK(r.correct);
    CHECK(r.blocks == 2);
    CHECK(r.stats.time_units == 27 + 4 + 4 + 27);
  }
}
