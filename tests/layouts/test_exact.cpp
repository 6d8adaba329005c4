// Layouts, patterns and transposes of NMI against hand-worked cases and exact properties.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "algorithms/layouts/congestion_mc.h"
#include "algorithms/layouts/patterns.h"
#include "algorithms/layouts/transposes.h"
#include "models/bank_counter.h"
#include "models/congestion.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"

using namespace mmsim;
using namespace mmsim::layouts;

namespace {

// Congestion of one access through the engine's own rule (models/congestion) and through the fast
// counter; the two must agree.
int congestion_of(const MatrixLayout& l, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& cells) {
  std::vector<Address> addrs;
  std::vector<std::uint32_t> banks;
  for (auto [i, j] : cells) {
    addrs.push_back(l.address(i, j));
    banks.push_back(l.bank(i, j));
    REQUIRE(l.bank(i, j) == l.address(i, j) % l.w());
  }
  const int reference = congestion(addrs, static_cast<int>(l.w()));
  BankCounter counter(l.w());
  CHECK(counter.congestion(banks.data(), addrs.data(), static_cast<std::uint32_t>(cells.size()), false) == reference);
  return reference;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> row(std::uint32_t w, std::uint32_t i) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> c;
  for (std::uint32_t t = 0; t < w; ++t) c.push_back({i, t});
  return c;
}
std::vector<std::pair<std::uint32_t, std::uint32_t>> column(std::uint32_t w, std::uint32_t j) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> c;
  for (std::uint32_t t = 0; t < w; ++t) c.push_back({t, j});
  return c;
}
std::vector<std::pair<std::uint32_t, std::uint32_t>> diagonal(std::uint32_t w, std::uint32_t d) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> c;
  for (std::uint32_t t = 0; t < w; ++t) c.push_back({t, (d + t) % w});
  return c;
}

}  // namespace

TEST_CASE("raw: contiguous 1, stride w, diagonal 1 (NMI Sect. III)") {
  for (std::uint32_t w : {2u, 4u, 5u, 32u}) {
    const auto raw = MatrixLayout::with_shifts(MatrixLayoutKind::Raw, std::vector<std::uint32_t>(w, 0));
    CHECK(raw.address(1, 2) == w + 2);
    for (std::uint32_t x = 0; x < w; ++x) {
      CHECK(congestion_of(raw, row(w, x)) == 1);
      CHECK(congestion_of(raw, column(w, x)) == static_cast<int>(w));
      CHECK(congestion_of(raw, diagonal(w, x)) == 1);
    }
  }
}

TEST_CASE("rap with r = (2, 0, 3, 1): NMI Fig. 6") {
  const auto rap = MatrixLayout::with_shifts(MatrixLayoutKind::Rap, {2, 0, 3, 1});
  CHECK(rap.address(2, 2) == 9);  // a[10] = a[2][2] moves to a[9], bank 1
  CHECK(rap.bank(2, 2) == 1);
  // Row 0 is rotated by 2: (0, 0) -> 2, (0, 1) -> 3, (0, 2) -> 0, (0, 3) -> 1.
  CHECK(rap.address(0, 0) == 2);
  CHECK(rap.address(0, 2) == 0);
  CHECK(rap.address(3, 0) == 13);
  for (std::uint32_t x = 0; x < 4; ++x) {
    CHECK(congestion_of(rap, row(4, x)) == 1);
    CHECK(congestion_of(rap, column(4, x)) == 1);
  }
  // Diagonal d = 0: banks (t + r_t) mod 4 = 2, 1, 1, 0, so two requests meet in bank 1.
  CHECK(congestion_of(rap, diagonal(4, 0)) == 2);
  // Random-looking access with a repeat: (1,1) twice merges; (1,1) bank 1, (2,2) bank 1, (3,1) bank 2.
  CHECK(congestion_of(rap, {{1, 1}, {1, 1}, {2, 2}, {3, 1}}) == 2);
  CHECK(congestion_of(rap, {{1, 1}, {1, 1}, {1, 1}, {1, 1}}) == 1);
}

TEST_CASE("ras with given shifts: stride meets in a bank when two shifts are equal") {
  const auto ras = MatrixLayout::with_shifts(MatrixLayoutKind::Ras, {0, 0, 1, 1});
  CHECK(congestion_of(ras, column(4, 3)) == 2);
  CHECK(congestion_of(ras, row(4, 2)) == 1);
  CHECK_THROWS(MatrixLayout::with_shifts(MatrixLayoutKind::Rap, {0, 0, 1, 1}));
}

TEST_CASE("rap: contiguous and stride are conflict-free for every seed and width") {
  for (std::uint32_t w : {2u, 3u, 5u, 16u, 32u, 33u}) {
    Draws draws(7);
    MatrixLayout rap(MatrixLayoutKind::Rap, w, draws);
    for (int seed = 0; seed < 200; ++seed) {
      rap.redraw(draws);
      auto sorted = rap.shifts();
      std::sort(sorted.begin(), sorted.end());
      for (std::uint32_t i = 0; i < w; ++i) REQUIRE(sorted[i] == i);  // a permutation
      for (std::uint32_t x = 0; x < w; ++x) {
        REQUIRE(congestion_of(rap, column(w, x)) == 1);
        REQUIRE(congestion_of(rap, row(w, x)) == 1);
      }
    }
  }
  for (std::uint64_t seed : {1ull, 2ull, 99ull}) {
    CongestionQuery q;
    q.layout = "rap", q.pattern = "stride", q.w = 32, q.trials = 5000, q.seed = seed;
    const auto s = simulate_congestion(q);
    CHECK(s.min == 1);
    CHECK(s.max == 1);
  }
}

TEST_CASE("pad and xor: rows and columns conflict-free; xor rows are permutations for any w") {
  for (std::uint32_t w : {2u, 4u, 8u, 32u}) {
    Draws d(1);
    const MatrixLayout pad(MatrixLayoutKind::Pad, w, d), x(MatrixLayoutKind::Xor, w, d);
    for (std::uint32_t t = 0; t < w; ++t) {
      CHECK(congestion_of(pad, column(w, t)) == 1);
      CHECK(congestion_of(pad, row(w, t)) == 1);
      CHECK(congestion_of(x, column(w, t)) == 1);
      CHECK(congestion_of(x, row(w, t)) == 1);
    }
    CHECK(pad.address(1, 0) == w + 1);
  }
  for (std::uint32_t w : {3u, 5u, 6u, 7u, 12u, 33u})
    for (std::uint32_t i = 0; i < 2 * w; ++i) {
      std::set<std::uint32_t> cols;
      for (std::uint32_t j = 0; j < w; ++j) cols.insert(xor_column(i, j, w));
      CHECK(cols.size() == w);
      CHECK(*cols.rbegin() == w - 1);
    }
  CHECK(xor_column(3, 1, 8) == 2);
  CHECK(xor_column(1, 4, 5) == 4);  // 4 XOR 1 = 5 lies past the row: column 4 stays
}

TEST_CASE("the fast counter agrees with the engine's congestion on random accesses with repeats") {
  Rng rng(3);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::uint32_t w = 2 + static_cast<std::uint32_t>(rng.below(40));
    std::vector<Address> addrs(w);
    std::vector<std::uint32_t> banks(w);
    for (std::uint32_t t = 0; t < w; ++t) {
      addrs[t] = rng.below(3 * w);
      banks[t] = static_cast<std::uint32_t>(addrs[t] % w);
    }
    BankCounter c(w);
    REQUIRE(c.congestion(banks.data(), addrs.data(), w, false) == congestion(addrs, static_cast<int>(w)));
  }
}

TEST_CASE("w^4 schemes: NMI Table IV's exact entries") {
  const auto exact = [](const char* layout, const char* pattern, std::uint32_t w, int value) {
    CongestionQuery q;
    q.dims = 4, q.layout = layout, q.pattern = pattern, q.w = w, q.trials = 300, q.seed = 5;
    const auto s = simulate_congestion(q);
    INFO(layout << " " << pattern << " w = " << w);
    CHECK(s.min == value);
    CHECK(s.max == value);
  };
  for (std::uint32_t w : {4u, 7u, 16u}) {
    const int W = static_cast<int>(w);
    for (const char* l : {"raw", "ras", "1p", "r1p", "3p", "w2p", "1pw2r"}) exact(l, "contiguous", w, 1);
    for (const char* p : {"stride1", "stride2", "stride3", "malicious"}) exact("raw", p, w, W);
    exact("1p", "stride1", w, 1);
    exact("1p", "stride2", w, W);
    exact("1p", "stride3", w, W);
    exact("1p", "malicious", w, W);
    for (const char* l : {"r1p", "3p"})
      for (const char* p : {"stride1", "stride2", "stride3"}) exact(l, p, w, 1);
    for (const char* l : {"w2p", "1pw2r"}) exact(l, "stride1", w, 1);
  }
  // r1p's malicious groups: each complete group of 6 shares one bank.
  CongestionQuery q;
  q.dims = 4, q.layout = "r1p", q.pattern = "malicious", q.w = 32, q.trials = 2000, q.seed = 2;
  CHECK(simulate_congestion(q).min >= 6);
  q.w = 2;
  CHECK(simulate_congestion(q).min == 2);
}

TEST_CASE("w^4 schemes: random numbers of NMI Table IV, worked out by hand at w = 5 and 32") {
  // The table's row 0, w^3, w, w, 3w, w^3, w^2 + w, evaluated here as numbers, not as the formula.
  const std::vector<std::pair<Array4LayoutKind, std::uint64_t>> w5{
      {Array4LayoutKind::Raw, 0},   {Array4LayoutKind::Ras, 125}, {Array4LayoutKind::P1, 5},
      {Array4LayoutKind::R1p, 5},   {Array4LayoutKind::P3, 15},   {Array4LayoutKind::W2p, 125},
      {Array4LayoutKind::P1W2r, 30}};
  const std::vector<std::pair<Array4LayoutKind, std::uint64_t>> w32{
      {Array4LayoutKind::Raw, 0},     {Array4LayoutKind::Ras, 32768}, {Array4LayoutKind::P1, 32},
      {Array4LayoutKind::R1p, 32},    {Array4LayoutKind::P3, 96},     {Array4LayoutKind::W2p, 32768},
      {Array4LayoutKind::P1W2r, 1056}};
  for (const auto& [kind, n] : w5) CHECK(random_numbers(kind, 5) == n);
  for (const auto& [kind, n] : w32) CHECK(random_numbers(kind, 32) == n);
}

TEST_CASE("w^4 schemes: permutations drawn lazily are permutations") {
  Draws d(11);
  for (std::uint32_t w : {3u, 8u, 17u}) {
    Array4Layout p3(Array4LayoutKind::P3, w), w2p(Array4LayoutKind::W2p, w);
    for (int trial = 0; trial < 20; ++trial) {
      p3.redraw();
      w2p.redraw();
      std::set<std::uint32_t> a, b;
      for (std::uint32_t x = 0; x < w; ++x) {
        a.insert(p3.shift(x, 1, 2, d));   // r_x + s_1 + t_2: distinct over x
        b.insert(w2p.shift(1, 2, x, d));  // one permutation r^(w + 2)
      }
      CHECK(a.size() == w);
      CHECK(b.size() == w);
      CHECK(p3.shift(0, 1, 2, d) == p3.shift(0, 1, 2, d));  // remembered until redraw
    }
  }
}

TEST_CASE("transposes: correct under every layout, engine time as NMI Sect. III") {
  for (std::uint32_t w : {2u, 4u, 5u, 32u})
    for (auto t : transposes())
      for (auto k : matrix_layout_kinds())
        for (std::uint64_t seed : {1ull, 2ull}) {
          Draws d(seed);
          const MatrixLayout l(k, w, d);
          for (auto ex : {Execution::RoundSynchronous, Execution::Asynchronous}) {
            const auto r = run_transpose(t, l, 3, {ex, false});
            INFO(to_string(t) << " " << to_string(k) << " w = " << w);
            CHECK(r.correct);
          }
        }
  // Raw CRSW on the DMM, w = 4, l = 5: contiguous read w + l - 1, stride write w^2 + l - 1.
  const auto raw = MatrixLayout::with_shifts(MatrixLayoutKind::Raw, {0, 0, 0, 0});
  const auto crsw = run_transpose(Transpose::Crsw, raw, 5, {});
  CHECK(crsw.stats.time_units == (4 + 5 - 1) + (16 + 5 - 1));
  CHECK(crsw.read_max_congestion == 1);
  CHECK(crsw.write_max_congestion == 4);
  const auto srcw = run_transpose(Transpose::Srcw, raw, 5, {});
  CHECK(srcw.read_max_congestion == 4);
  CHECK(srcw.write_max_congestion == 1);
  const auto drdw = run_transpose(Transpose::Drdw, raw, 5, {});
  CHECK(drdw.stats.time_units == 2 * (4 + 5 - 1));
  // RAP: CRSW and SRCW conflict-free (NMI Table III).
  const auto rap = MatrixLayout::with_shifts(MatrixLayoutKind::Rap, {2, 0, 3, 1});
  for (auto t : {Transpose::Crsw, Transpose::Srcw}) {
    const auto r = run_transpose(t, rap, 5, {});
    CHECK(r.read_max_congestion == 1);
    CHECK(r.write_max_congestion == 1);
    CHECK(r.stats.time_units == 2 * (4 + 5 - 1));
  }
}
