#include "algorithms/enumeration/schemes.h"

#include "algorithms/enumeration/pairing_core.h"
#include "io/input_error.h"
#include "sim/names.h"

namespace mmsim::enumeration {

// The arithmetic lives in pairing_core.h, shared with the GPU kernels; these wrap it in Cell2.
std::uint64_t isqrt_floor(std::uint64_t v) { return core::isqrt_floor(v); }

std::uint64_t isqrt_ceil(std::uint64_t v) { return core::isqrt_ceil(v); }

// V1, eq. (3).
std::uint64_t v1_encode(Cell2 c) { return tri_minus(c.y) + c.x; }

Cell2 v1_decode(std::uint64_t k) {
  const core::XY c = core::v1_decode(k);  // eqs. (5), (8)
  return {c.x, c.y};
}

// V1R, eq. (4).
std::uint64_t v1r_encode(Cell2 c) { return tri_plus(c.y) - c.x - 1; }

Cell2 v1r_decode(std::uint64_t k) {
  const core::XY c = core::v1r_decode(k);  // eqs. (9), (10)
  return {c.x, c.y};
}

void check_v1b(std::uint64_t m, std::uint64_t w) {
  if (m < 2 || m > kMaxOrder)
    throw InputError("order: the banded scheme needs 2 <= m <= 2^30 (m = " + std::to_string(m) + ")");
  if (w < 1 || w > m - 1)
    throw InputError("band: must be between 1 and m - 1 = " + std::to_string(m - 1) + " (got " + std::to_string(w) +
                     ")");
}

void check_v1bf(std::uint64_t m, std::uint64_t n, std::uint64_t w) {
  if (m < 1 || m > kMaxOrder || n < 1 || n > kMaxOrder)
    throw InputError("order: the rectangular banded scheme needs 1 <= m, n <= 2^30");
  if (w < 1 || w > m)
    throw InputError("band: must be between 1 and m = " + std::to_string(m) + " (got " + std::to_string(w) + ")");
}

std::uint64_t v1b_band_first(std::uint64_t m, std::uint64_t w, std::uint64_t i) {
  return core::v1b_band_first(m, w, i);  // eq. (13)
}

std::uint64_t v1b_encode(std::uint64_t m, std::uint64_t w, Cell2 c) {
  const std::uint64_t i = c.x / w;
  const std::uint64_t base = v1b_band_first(m, w, i);
  const std::uint64_t dy = c.y - i * w;  // >= 1 below the diagonal
  const std::uint64_t dx = c.x - i * w;
  if (dy <= w) return base + tri_minus(dy) + dx;      // the band's triangle: V1 shifted by iw
  return base + tri_plus(w) + (dy - w - 1) * w + dx;  // its rectangle: w entries per row
}

Cell2 v1b_decode(std::uint64_t m, std::uint64_t w, std::uint64_t k) {
  const core::XY c = core::v1b_decode(m, w, k);  // eqs. (15), (24)-(29)
  return {c.x, c.y};
}

std::uint64_t v1bf_encode(std::uint64_t m, std::uint64_t n, std::uint64_t w, Cell2 c) {
  const std::uint64_t i = c.x / w;
  const std::uint64_t width = core::v1bf_width(m, w, i);  // the last band may be narrower
  return i * w * n + c.y * width + (c.x - i * w);
}

Cell2 v1bf_decode(std::uint64_t m, std::uint64_t n, std::uint64_t w, std::uint64_t k) {
  const core::XY c = core::v1bf_decode(m, n, w, k);  // eqs. (30)-(31)
  return {c.x, c.y};
}

namespace {
constexpr NameTable<Scheme, 3> kNames{{{{Scheme::V1, "V1"}, {Scheme::V1R, "V1R"}, {Scheme::V1B, "V1B"}}}};
}  // namespace

const char* to_string(Scheme s) { return kNames.name(s); }

Cell2 decode(Scheme s, std::uint64_t m, std::uint64_t w, std::uint64_t k) {
  switch (s) {
    case Scheme::V1:
      return v1_decode(k);
    case Scheme::V1R:
      return v1r_decode(k);
    case Scheme::V1B:
      return v1b_decode(m, w, k);
  }
  return {};
}

std::uint64_t encode(Scheme s, std::uint64_t m, std::uint64_t w, Cell2 c) {
  switch (s) {
    case Scheme::V1:
      return v1_encode(c);
    case Scheme::V1R:
      return v1r_encode(c);
    case Scheme::V1B:
      return v1b_encode(m, w, c);
  }
  return 0;
}

}  // namespace mmsim::enumeration
