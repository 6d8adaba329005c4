// GL's thread-wise transposition and the 3D involutions T_yxz and T_zyx on the simulated HMM:
// every cell checked after one run, the input back after two, and the slot counts that tell the
// coalesced tile kernels from the thread-wise one.
#include <doctest/doctest.h>

#include <vector>

#include "algorithms/enumeration/involutions.h"
#include "io/input_error.h"
#include "tests/enumeration/small_hmm.h"

using namespace mmsim;
using namespace mmsim::enumeration;

TEST_CASE("the involutions' cell maps are permutations and their own inverses") {
  for (Involution which : {Involution::Yxz, Involution::Zyx})
    for (std::uint64_t n : {1, 2, 5, 9})
      for (std::uint64_t d : {1, 2, 3}) {
        const std::uint64_t cells = n * n * d;
        std::vector<int> hit(cells, 0);
        for (std::uint64_t i = 0; i < cells; ++i) {
          const std::uint64_t j = involution_image(which, n, d, i);
          REQUIRE(j < cells);
          ++hit[j];
          CHECK(involution_image(which, n, d, j) == i);
        }
        for (int h : hit) CHECK(h == 1);
      }
  // Cell (x, y, z) = (1, 2, 0) of a 3 x 3 x 2 matrix is cell 7; T_yxz sends it to (2, 1, 0) = 5.
  CHECK(involution_image(Involution::Yxz, 3, 2, 7) == 5);
  // Cell (1, 0, 2) of a 3 x 2 x 3 matrix is 1 + 3 * 2 * 2 = 13; T_zyx sends it to (2, 0, 1) = 8.
  CHECK(involution_image(Involution::Zyx, 3, 2, 13) == 8);
}

TEST_CASE("every 3D involution is correct once and gives the input back twice, tile multiples or not") {
#ifdef MMSIM_ENUM_SMALL_RANGES
  const std::vector<std::uint64_t> orders{1, 13, 16};
#else
  const std::vector<std::uint64_t> orders{1, 5, 8, 13, 16, 27};
#endif
  for (bool tlb : {false, true})
    for (const auto& eo : {kSync, kAsync})
      for (Involution which : {Involution::Yxz, Involution::Zyx})
        for (std::uint64_t n : orders)
          for (std::uint64_t d : {1, 3})
            for (std::uint64_t band : {0, 1, 2, 100}) {  // 0: the full grid
              Involution3DConfig c{.which = which, .order = n, .depth = d, .banded = band > 0, .band = band};
              c.resident = 1;
              TlbMachine m(small_hmm(), tlb ? small_tlb() : TlbParams{});
              INFO(to_string(which) << " n = " << n << " depth " << d << " band " << band << " tlb " << tlb);
              const TransposeRun once = run_involution(m, c, eo);
              CHECK(once.correct);
              const TransposeRun twice = run_involution(m, c, eo, 2);
              CHECK(twice.correct);
              CHECK(twice.launches == 2);
            }
}

TEST_CASE("3D: the grids' blocks per plane, and every cell read and written once, coalesced") {
  TlbMachine m(small_hmm(), TlbParams{});
  // 64 x 64 planes of 8 x 8 tiles of 8 x 8 cells: 36 tile pairs on or below the diagonal.
  for (Involution which : {Involution::Yxz, Involution::Zyx}) {
    Involution3DConfig c{.which = which, .order = 64, .depth = 3, .banded = false};
    auto r = run_involution(m, c, kSync);
    CHECK(r.correct);
    CHECK(r.blocks == 3 * 64);
    CHECK(r.idle_blocks == 3 * 28);
    // Aligned rows: one slot per tile row read and one written, for every cell of the three planes.
    CHECK(r.global_slots == 2 * 3 * 64 * 64 / 8);
    c.banded = true;
    c.band = 3;
    r = run_involution(m, c, kSync);
    CHECK(r.blocks == 3 * 36);
    CHECK(r.idle_blocks == 0);
    CHECK(r.band_used == 3);
    CHECK(r.global_slots == 2 * 3 * 64 * 64 / 8);
  }
  // A depth of one is the 2D transposition: same kernel, same rounds, same time.
  InPlaceConfig flat;
  flat.order = 40;
  flat.grid = InPlaceGrid::Scheme;
  flat.scheme = Scheme::V1B;
  flat.band = 2;
  const auto two_d = run_in_place(m, flat, kSync);
  const auto yxz = run_involution(m, {.which = Involution::Yxz, .order = 40, .depth = 1, .band = 2}, kSync);
  CHECK(yxz.stats.time_units == two_d.stats.time_units);
  CHECK(yxz.global_slots == two_d.global_slots);
}

TEST_CASE("3D with a TLB: the banded grid misses less than the full grid") {
  // Planes of 128 x 128 cells, pages of 1024 cells (8 rows, one tile row); 8 entries.
  TlbParams tp = small_tlb();
  tp.page_cells = 1024;
  TlbMachine m(small_hmm(), tp);
  for (Involution which : {Involution::Yxz, Involution::Zyx}) {
    INFO(to_string(which));
    Involution3DConfig c{.which = which, .order = 128, .depth = 2, .banded = false, .band = 2, .resident = 1};
    const auto naive = run_involution(m, c, kAsync);
    c.banded = true;
    const auto banded = run_involution(m, c, kAsync);
    REQUIRE(naive.correct);
    REQUIRE(banded.correct);
    CHECK(banded.tlb.misses < naive.tlb.misses);
    CHECK(banded.stats.time_units < naive.stats.time_units);
  }
}

TEST_CASE("TW is correct at every order, one thread per entry below the diagonal") {
  TlbMachine m(small_hmm(), TlbParams{});
  for (const auto& eo : {kSync, kAsync})
    for (std::uint64_t n : {1, 2, 7, 8, 9, 30, 64}) {
      INFO("n = " << n);
      const TransposeRun r = run_thread_wise(m, {.order = n, .resident = 1}, eo);
      CHECK(r.correct);
      CHECK(r.blocks == (n * (n - 1) / 2 + 63) / 64);
    }
}

TEST_CASE("TW's upper cells are a row apart: more than four times the tile kernel's global slots") {
  TlbMachine m(small_hmm(), TlbParams{});
  // Order 64, w = 8: a warp's 8 entries lie in one or two rows, so its lower cells are one to three
  // address groups but its upper cells (x n + y, x varying) eight; it reads and writes both.
  const TransposeRun tw = run_thread_wise(m, {.order = 64}, kSync);
  InPlaceConfig c;
  c.order = 64;
  c.grid = InPlaceGrid::Scheme;
  c.scheme = Scheme::V1;
  const TransposeRun tiles = run_in_place(m, c, kSync);
  REQUIRE(tw.correct);
  CHECK(tiles.global_slots == 2 * 64 * 64 / 8);
  CHECK(tw.global_slots > 4 * tiles.global_slots);
  std::uint64_t shared = 0;
  for (const auto& round : tw.stats.rounds) shared += round.memory == Space::Shared ? 1 : 0;
  CHECK(shared == 0);
}

TEST_CASE("3D and TW: bad parameters are InputErrors") {
  TlbMachine m(small_hmm(), TlbParams{});
  CHECK_THROWS_AS(run_thread_wise(m, {.order = 0}, kSync), InputError);
  CHECK_THROWS_AS(run_thread_wise(m, {.order = kMaxInPlaceOrder + 1}, kSync), InputError);
  CHECK_THROWS_AS(run_involution(m, {.order = 0}, kSync), InputError);
  CHECK_THROWS_AS(run_involution(m, {.order = 16, .depth = 0}, kSync), InputError);
  CHECK_THROWS_AS(run_involution(m, {.order = 4096, .depth = 2}, kSync), InputError);  // 2^25 cells
  CHECK_THROWS_AS(run_involution(m, {.order = 16, .banded = true, .band = 0}, kSync), InputError);
  MachineParams wide = small_hmm();
  wide.w = 128;
  CHECK_THROWS_AS(check_involution(wide, {.order = 16}), InputError);
}
