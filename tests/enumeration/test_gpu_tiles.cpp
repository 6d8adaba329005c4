// The GPU kernels' block-to-tile maps and cell values (cuda/enumeration/tiles.h) on the CPU: the
// same header nvcc builds for the device, checked against the simulator's grids.
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "algorithms/enumeration/transpose.h"
#include "cuda/enumeration/tiles.h"

namespace ge = mmsim::gpu::enumeration;
using mmsim::enumeration::Cell2;
using mmsim::enumeration::Scheme;

namespace {
constexpr std::uint64_t kMaxTiles = 80;  // tile matrices up to 80 x 80, every block

template <ge::Tri S>
void same_as_simulator(Scheme s) {
  for (std::uint64_t nb = 1; nb <= kMaxTiles; ++nb)
    for (std::uint64_t band : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{8}, nb, nb + 5}) {
      const auto sim = mmsim::enumeration::triangular_grid(s, nb, band);
      const std::uint64_t w = ge::clamp_band(band, nb);
      REQUIRE(sim.size() == ge::core::tri_plus(nb));
      std::vector<char> seen(nb * nb, 0);
      std::uint64_t distinct = 0;
      for (std::uint64_t k = 0; k < sim.size(); ++k) {
        const auto t = ge::triangle_tile<S>(nb, w, k);
        if (!(Cell2{t.x, t.y} == sim[k])) FAIL(to_string(s) << " nb " << nb << " band " << band << " k " << k);
        if (t.x > t.y || t.y >= nb) FAIL("tile outside the lower triangle at k = " << k);
        distinct += seen[t.y * nb + t.x]++ == 0;
      }
      CHECK(distinct == sim.size());  // every tile pair exactly once
    }
}
}  // namespace

TEST_CASE("the GPU's triangular grids decode every block to the simulator's tile pair") {
  same_as_simulator<ge::Tri::V1>(Scheme::V1);
  same_as_simulator<ge::Tri::V1R>(Scheme::V1R);
  same_as_simulator<ge::Tri::V1B>(Scheme::V1B);
}

TEST_CASE("the GPU's banded out-of-place grid covers every tile once, as the simulator's") {
  for (std::uint64_t cb = 1; cb <= kMaxTiles / 2; ++cb)
    for (std::uint64_t rb = 1; rb <= kMaxTiles / 2; rb += 3)
      for (std::uint64_t band : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{8}, cb + 1}) {
        const auto sim = mmsim::enumeration::rectangular_grid(true, cb, rb, band);
        const std::uint64_t w = ge::clamp_band(band, cb);
        std::vector<char> seen(cb * rb, 0);
        std::uint64_t distinct = 0;
        for (std::uint64_t k = 0; k < cb * rb; ++k) {
          const auto t = ge::v1bf_tile(cb, rb, w, k);
          if (!(Cell2{t.x, t.y} == sim[k])) FAIL("cb " << cb << " rb " << rb << " band " << band << " k " << k);
          if (t.x >= cb || t.y >= rb) FAIL("tile outside the matrix at k = " << k);
          distinct += seen[t.y * cb + t.x]++ == 0;
        }
        CHECK(distinct == cb * rb);
      }
}

TEST_CASE("the band is clamped to [1, limit]") {
  CHECK(ge::clamp_band(0, 5) == 1);
  CHECK(ge::clamp_band(3, 5) == 3);
  CHECK(ge::clamp_band(9, 5) == 5);
}

TEST_CASE("cell values are finite floats, never the poison, and distinct below 2^31") {
  std::set<std::uint32_t> seen;
  for (std::uint64_t i = 0; i < 200000; ++i) {
    const std::uint32_t b = ge::cell_bits(i);
    CHECK_FALSE(b == ge::kPoison);
    CHECK(((b >> 23) & 0xFFu) != 0xFFu);  // exponent not all ones: not an infinity or NaN
    seen.insert(b);
  }
  CHECK(seen.size() == 200000);
  // Around bit 30 (the bit that moves) and the top of the injective range.
  for (std::uint64_t base : {(std::uint64_t{1} << 30) - 50, (std::uint64_t{1} << 31) - 100}) {
    std::set<std::uint32_t> s;
    for (std::uint64_t i = base; i < base + 100; ++i) s.insert(ge::cell_bits(i));
    CHECK(s.size() == 100);
    CHECK(ge::cell_bits(base) != ge::cell_bits(base - (std::uint64_t{1} << 30)));
  }
  // A cell and its transposed partner differ, also past 2^31 cells (orders beyond 46340).
  for (std::uint64_t n : {std::uint64_t{65536}, std::uint64_t{98304}, std::uint64_t{131072}})
    for (std::uint64_t y = 1; y < n; y += 997)
      for (std::uint64_t x = 0; x < y; x += 1009) CHECK(ge::cell_bits(y * n + x) != ge::cell_bits(x * n + y));
}
