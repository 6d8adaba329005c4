// The pairing functions of GL and their inverses: exact over the whole tested range.
#include <doctest/doctest.h>

#include <random>

#include "algorithms/enumeration/schemes.h"
#include "io/input_error.h"

using namespace mmsim::enumeration;

namespace {
#ifdef MMSIM_ENUM_SMALL_RANGES
constexpr std::uint64_t kTriangleOrder = 1024;  // V1, V1R: every k of this triangle
constexpr std::uint64_t kBandOrders = 512;      // V1B: every (m, w) up to here, band by band
constexpr std::uint64_t kFullBandOrders = 32;   // V1B: every k of every (m, w) up to here
constexpr std::uint64_t kRectSide = 16;         // V1BF: every k of every (m, n, w) up to here
#else
constexpr std::uint64_t kTriangleOrder = 4096;
constexpr std::uint64_t kBandOrders = 2048;
constexpr std::uint64_t kFullBandOrders = 64;
constexpr std::uint64_t kRectSide = 32;
#endif
}  // namespace

TEST_CASE("integer square roots are exact, including at the top of the 64-bit range") {
  for (std::uint64_t v = 0; v < 100000; ++v) {
    const std::uint64_t q = isqrt_floor(v);
    CHECK((q * q <= v && (q + 1) * (q + 1) > v));
    const std::uint64_t c = isqrt_ceil(v);
    CHECK((c * c >= v && (c == 0 || (c - 1) * (c - 1) < v)));
  }
  for (std::uint64_t r : {std::uint64_t{1} << 26, (std::uint64_t{1} << 32) - 1, std::uint64_t{3037000499}}) {
    CHECK(isqrt_floor(r * r) == r);
    CHECK(isqrt_floor(r * r - 1) == r - 1);
    CHECK(isqrt_floor(r * r + 1) == r);
    CHECK(isqrt_ceil(r * r) == r);
    CHECK(isqrt_ceil(r * r + 1) == r + 1);
  }
  CHECK(isqrt_floor(~std::uint64_t{0}) == 4294967295u);
}

TEST_CASE("V1 and V1R number the triangle row by row, and their inverses are exact") {
  // The triangle of order m is a prefix of every larger one, so one pass covers every order.
  std::uint64_t k = 0;
  for (std::uint64_t y = 1; y < kTriangleOrder; ++y) {
    for (std::uint64_t x = 0; x < y; ++x, ++k) {
      const Cell2 c{x, y};
      if (v1_encode(c) != k || !(v1_decode(k) == c)) FAIL("V1 at k = " << k);
      const Cell2 r{y - 1 - x, y};  // V1R walks each row right to left
      if (v1r_encode(r) != k || !(v1r_decode(k) == r)) FAIL("V1R at k = " << k);
    }
  }
  CHECK(k == tri_minus(kTriangleOrder));
}

TEST_CASE("V1 and V1R stay exact at large k where a double square root would not") {
  std::mt19937_64 rng(7);
  for (std::uint64_t y : {kMaxOrder - 1, kMaxOrder - 2, std::uint64_t{94906267}, std::uint64_t{1} << 29}) {
    for (std::uint64_t x : {std::uint64_t{0}, y / 2, y - 1}) {
      CHECK(v1_decode(v1_encode({x, y})) == Cell2{x, y});
      CHECK(v1r_decode(v1r_encode({x, y})) == Cell2{x, y});
    }
  }
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t y = 1 + rng() % (kMaxOrder - 1), x = rng() % y;
    CHECK(v1_decode(v1_encode({x, y})) == Cell2{x, y});
    CHECK(v1r_decode(v1r_encode({x, y})) == Cell2{x, y});
  }
}

namespace {
// V1B's numbering, generated directly from its definition (Sect. 5.1, Fig. 7): bands of w columns
// from the left; inside a band the rows from the top, each row left to right.
template <class F>
void v1b_walk(std::uint64_t m, std::uint64_t w, F&& f) {
  for (std::uint64_t x0 = 0; x0 < m - 1; x0 += w)
    for (std::uint64_t y = x0 + 1; y < m; ++y)
      for (std::uint64_t x = x0; x < std::min(x0 + w, y); ++x) f(Cell2{x, y});
}
}  // namespace

TEST_CASE("V1B: every k of every (order, band) for small orders") {
  for (std::uint64_t m = 2; m <= kFullBandOrders; ++m)
    for (std::uint64_t w = 1; w < m; ++w) {
      std::uint64_t k = 0;
      bool ok = true;
      v1b_walk(m, w, [&](Cell2 c) {
        ok = ok && v1b_encode(m, w, c) == k && v1b_decode(m, w, k) == c;
        ++k;
      });
      if (!ok || k != tri_minus(m)) FAIL("V1B m = " << m << " w = " << w);
    }
}

TEST_CASE("V1B: band index and band edges exact for every (order, band) up to a few thousand") {
  // The band index of eq. (15) is monotone in k (a larger k gives a smaller square root), so it is
  // right for every k once it is right at the first and the last k of every band; inside a band the
  // decode is V1's (checked above for every k) or an exact division.
  for (std::uint64_t m = 2; m <= kBandOrders; ++m)
    for (std::uint64_t w = 1; w < m; ++w) {
      const std::uint64_t bands = (m - 1 + w - 1) / w;
      bool ok = true;
      for (std::uint64_t i = 0; i < bands && ok; ++i) {
        const std::uint64_t first = v1b_band_first(m, w, i);
        const std::uint64_t last = i + 1 < bands ? v1b_band_first(m, w, i + 1) - 1 : tri_minus(m) - 1;
        const std::uint64_t x0 = i * w, width = std::min(w, m - 1 - x0);
        // First entry: the band's top-left (x0, x0 + 1); last: the bottom row's right end.
        ok = v1b_decode(m, w, first) == Cell2{x0, x0 + 1} && v1b_decode(m, w, last) == Cell2{x0 + width - 1, m - 1} &&
             v1b_encode(m, w, {x0, x0 + 1}) == first && v1b_encode(m, w, {x0 + width - 1, m - 1}) == last;
        // Where the triangle ends and the rectangle starts (full-width bands that reach below it).
        if (ok && width == w && x0 + w + 1 < m) {
          const std::uint64_t t = first + tri_plus(w);
          ok = v1b_decode(m, w, t - 1) == Cell2{x0 + w - 1, x0 + w} && v1b_decode(m, w, t) == Cell2{x0, x0 + w + 1};
        }
        // B_i of Prop. 2 for the full bands.
        if (ok && i + 1 < bands) ok = last + 1 - first == w * m - i * w * w - tri_plus(w);
      }
      if (!ok) FAIL("V1B m = " << m << " w = " << w);
    }
}

TEST_CASE("V1B: every k for a few large orders, and round trips at m = 2^30") {
  for (std::uint64_t m : {std::uint64_t{3001}}) {
    for (std::uint64_t w : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{8}, std::uint64_t{1000}, m - 1}) {
      std::uint64_t k = 0;
      bool ok = true;
      v1b_walk(m, w, [&](Cell2 c) {
        ok = ok && v1b_decode(m, w, k) == c && v1b_encode(m, w, c) == k;
        ++k;
      });
      if (!ok) FAIL("V1B m = " << m << " w = " << w);
    }
  }
  std::mt19937_64 rng(11);
  const std::uint64_t m = kMaxOrder;
  for (std::uint64_t w : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{8}, std::uint64_t{4096}, m - 1}) {
    for (int t = 0; t < 5000; ++t) {
      const std::uint64_t y = 1 + rng() % (m - 1), x = rng() % y;
      const std::uint64_t k = v1b_encode(m, w, {x, y});
      CHECK(k < tri_minus(m));
      CHECK(v1b_decode(m, w, k) == Cell2{x, y});
    }
    CHECK(v1b_decode(m, w, tri_minus(m) - 1).y == m - 1);
    CHECK(v1b_decode(m, w, 0) == Cell2{0, 1});
  }
}

TEST_CASE("V1B with w = m - 1 is V1, and with w = 1 numbers column by column (Sect. 5.1)") {
  const std::uint64_t m = 300;
  for (std::uint64_t k = 0; k < tri_minus(m); ++k) CHECK(v1b_decode(m, m - 1, k) == v1_decode(k));
  std::uint64_t k = 0;
  for (std::uint64_t x = 0; x + 1 < m; ++x)
    for (std::uint64_t y = x + 1; y < m; ++y) CHECK(v1b_decode(m, 1, k++) == Cell2{x, y});
}

TEST_CASE("V1BF: every k of every (columns, rows, band) of small rectangles") {
  for (std::uint64_t m = 1; m <= kRectSide; ++m)
    for (std::uint64_t n = 1; n <= kRectSide; ++n)
      for (std::uint64_t w = 1; w <= m; ++w) {
        std::uint64_t k = 0;
        bool ok = true;
        for (std::uint64_t x0 = 0; x0 < m; x0 += w)
          for (std::uint64_t y = 0; y < n; ++y)
            for (std::uint64_t x = x0; x < std::min(x0 + w, m); ++x, ++k)
              ok = ok && v1bf_decode(m, n, w, k) == Cell2{x, y} && v1bf_encode(m, n, w, {x, y}) == k;
        if (!ok || k != m * n) FAIL("V1BF m = " << m << " n = " << n << " w = " << w);
      }
}

TEST_CASE("V1BF round trips on large rectangles") {
  std::mt19937_64 rng(5);
  for (auto [m, n] : {std::pair<std::uint64_t, std::uint64_t>{kMaxOrder, 3}, {12345, 678}, {kMaxOrder, kMaxOrder}})
    for (std::uint64_t w : {std::uint64_t{1}, std::uint64_t{8}, std::uint64_t{1000}, m}) {
      for (int t = 0; t < 3000; ++t) {
        const Cell2 c{rng() % m, rng() % n};
        const std::uint64_t k = v1bf_encode(m, n, w, c);
        CHECK(k < m * n);
        CHECK(v1bf_decode(m, n, w, k) == c);
      }
    }
}

TEST_CASE("scheme domains are checked") {
  CHECK_THROWS_AS(check_v1b(1, 1), mmsim::InputError);
  CHECK_THROWS_AS(check_v1b(10, 0), mmsim::InputError);
  CHECK_THROWS_AS(check_v1b(10, 10), mmsim::InputError);
  CHECK_NOTHROW(check_v1b(10, 9));
  CHECK_THROWS_AS(check_v1bf(10, 4, 11), mmsim::InputError);
  CHECK_THROWS_AS(check_v1bf(0, 4, 1), mmsim::InputError);
  CHECK_NOTHROW(check_v1bf(10, 4, 10));
}
