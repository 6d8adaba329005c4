#include "algorithms/enumeration/schemes.h"

#include <cmath>

#include "algorithms/input_error.h"

namespace mmsim::enumeration {

std::uint64_t isqrt_floor(std::uint64_t v) {
  // A double's 53-bit mantissa rounds sqrt(8k + 1) wrongly once k passes about 2^50, so the
  // floating estimate is only a start: the two loops below make it exact with integer squares.
  constexpr std::uint64_t kMax = 0xFFFFFFFFu;  // floor(sqrt(2^64 - 1)); its square fits in 64 bits
  std::uint64_t q = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(v)));
  if (q > kMax) q = kMax;
  while (q * q > v) --q;
  while (q < kMax && (q + 1) * (q + 1) <= v) ++q;
  return q;
}

std::uint64_t isqrt_ceil(std::uint64_t v) {
  const std::uint64_t q = isqrt_floor(v);
  return q * q == v ? q : q + 1;
}

// V1. floor((sqrt(8k+1) + 1)/2) = floor((floor(sqrt(8k+1)) + 1)/2), since floor(floor(a)/2) = floor(a/2).
std::uint64_t v1_encode(Cell2 c) { return tri_minus(c.y) + c.x; }

Cell2 v1_decode(std::uint64_t k) {
  const std::uint64_t y = (isqrt_floor(8 * k + 1) + 1) / 2;  // eq. (8)
  return {k - tri_minus(y), y};                              // eq. (5)
}

// V1R. ceil((sqrt(8k+9) - 1)/2) = ceil((ceil(sqrt(8k+9)) - 1)/2) = floor(ceil(sqrt(8k+9))/2).
std::uint64_t v1r_encode(Cell2 c) { return tri_plus(c.y) - c.x - 1; }

Cell2 v1r_decode(std::uint64_t k) {
  const std::uint64_t y = isqrt_ceil(8 * k + 9) / 2;  // eq. (10)
  return {tri_plus(y) - 1 - k, y};                    // eq. (9)
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
  return i * w * m - tri_plus(i * w);  // eq. (13)
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
  // eq. (15): floor((A - sqrt(R)) / 2w) = floor((A - ceil(sqrt(R))) / 2w) for integer A.
  const std::uint64_t a = 2 * m - 1;
  const std::uint64_t i = (a - isqrt_ceil(a * a - 8 * k)) / (2 * w);
  const std::uint64_t k2 = k - v1b_band_first(m, w, i);  // eq. (24)
  if (k2 < tri_plus(w)) {
    const std::uint64_t y1 = (isqrt_floor(8 * k2 + 1) + 1) / 2;  // eq. (26) before the shift
    return {k2 - tri_minus(y1) + i * w, y1 + i * w};             // eq. (29), first case
  }
  const std::uint64_t k3 = k2 - tri_plus(w);          // eq. (25)
  return {k3 % w + i * w, (i + 1) * w + k3 / w + 1};  // eqs. (27), (29)
}

std::uint64_t v1bf_encode(std::uint64_t m, std::uint64_t n, std::uint64_t w, Cell2 c) {
  const std::uint64_t i = c.x / w;
  const std::uint64_t width = (i + 1) * w <= m ? w : m - i * w;  // the last band may be narrower
  return i * w * n + c.y * width + (c.x - i * w);
}

Cell2 v1bf_decode(std::uint64_t m, std::uint64_t n, std::uint64_t w, std::uint64_t k) {
  const std::uint64_t i = k / (w * n);
  const std::uint64_t width = (i + 1) * w <= m ? w : m - i * w;  // r = m mod w for the last band
  const std::uint64_t k2 = k - i * w * n;
  return {k2 % width + i * w, k2 / width};  // eqs. (30)-(31)
}

const char* to_string(Scheme s) {
  switch (s) {
    case Scheme::V1:
      return "V1";
    case Scheme::V1R:
      return "V1R";
    case Scheme::V1B:
      return "V1B";
  }
  return "?";
}

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
