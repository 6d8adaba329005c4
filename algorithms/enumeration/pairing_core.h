// The exact inverses of the enumeration schemes (GL Sects. 4-6) as header-only integer
// arithmetic that both the host compiler and nvcc (for device code) build, so that the CPU tests of
// schemes.h check the very code that the GPU kernels decode their block index with.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define MMSIM_ENUM_HD __host__ __device__ __forceinline__
#else
#define MMSIM_ENUM_HD inline
#endif

namespace mmsim::enumeration::core {

/// A decoded entry: x the column, y the row.
struct XY {
  std::uint64_t x;
  std::uint64_t y;
};

/// floor(sqrt(v)), exact for every 64-bit v. A double rounds sqrt(8k + 1) wrongly once k passes
/// about 2^50 (53-bit mantissa), so the floating estimate is only a start that integer squares fix.
MMSIM_ENUM_HD std::uint64_t isqrt_floor(std::uint64_t v) {
  constexpr std::uint64_t kMax = 0xFFFFFFFFu;  // floor(sqrt(2^64 - 1)); its square fits in 64 bits
#if defined(__CUDA_ARCH__)
  std::uint64_t q = static_cast<std::uint64_t>(::sqrt(static_cast<double>(v)));
#else
  std::uint64_t q = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(v)));
#endif
  if (q > kMax) q = kMax;
  while (q * q > v) --q;
  while (q < kMax && (q + 1) * (q + 1) <= v) ++q;
  return q;
}

/// ceil(sqrt(v)), exact.
MMSIM_ENUM_HD std::uint64_t isqrt_ceil(std::uint64_t v) {
  const std::uint64_t q = isqrt_floor(v);
  return q * q == v ? q : q + 1;
}

/// S+(t) = (t^2 + t)/2 and S-(t) = (t^2 - t)/2 (Sect. 5).
MMSIM_ENUM_HD std::uint64_t tri_plus(std::uint64_t t) { return t * (t + 1) / 2; }
MMSIM_ENUM_HD std::uint64_t tri_minus(std::uint64_t t) { return t == 0 ? 0 : t * (t - 1) / 2; }

/// V1 (Sect. 4.3): y = floor((sqrt(8k + 1) + 1)/2) (eq. 8), x = k - (y^2 - y)/2 (eq. 5).
/// floor((sqrt(a) + 1)/2) = floor((floor(sqrt(a)) + 1)/2) since floor(floor(b)/2) = floor(b/2).
MMSIM_ENUM_HD XY v1_decode(std::uint64_t k) {
  const std::uint64_t y = (isqrt_floor(8 * k + 1) + 1) / 2;
  return {k - tri_minus(y), y};
}

/// V1R (Sect. 4.4): y = ceil((sqrt(8k + 9) - 1)/2) (eq. 10) = floor(ceil(sqrt(8k + 9))/2),
/// x = (y^2 + y)/2 - 1 - k (eq. 9).
MMSIM_ENUM_HD XY v1r_decode(std::uint64_t k) {
  const std::uint64_t y = isqrt_ceil(8 * k + 9) / 2;
  return {tri_plus(y) - 1 - k, y};
}

/// First number of band i of V1B, b_i (Prop. 2, eq. 13).
MMSIM_ENUM_HD std::uint64_t v1b_band_first(std::uint64_t m, std::uint64_t w, std::uint64_t i) {
  return i * w * m - tri_plus(i * w);
}

/// V1B (Sect. 5.1), order m, band width w: band i = floor((2m - 1 - sqrt((2m - 1)^2 - 8k)) / 2w)
/// (eq. 15; the floor is unchanged by taking the ceiling of the root, A being an integer), then the
/// band's triangle (eqs. 24, 26, 29) or its rectangle (eqs. 25, 27, 29).
MMSIM_ENUM_HD XY v1b_decode(std::uint64_t m, std::uint64_t w, std::uint64_t k) {
  const std::uint64_t a = 2 * m - 1;
  const std::uint64_t i = (a - isqrt_ceil(a * a - 8 * k)) / (2 * w);
  const std::uint64_t k2 = k - v1b_band_first(m, w, i);
  if (k2 < tri_plus(w)) {
    const std::uint64_t y1 = (isqrt_floor(8 * k2 + 1) + 1) / 2;
    return {k2 - tri_minus(y1) + i * w, y1 + i * w};
  }
  const std::uint64_t k3 = k2 - tri_plus(w);
  return {k3 % w + i * w, (i + 1) * w + k3 / w + 1};
}

/// Width of band i of V1BF: w, or r = m mod w for a narrower last band (Sect. 6).
MMSIM_ENUM_HD std::uint64_t v1bf_width(std::uint64_t m, std::uint64_t w, std::uint64_t i) {
  return (i + 1) * w <= m ? w : m - i * w;
}

/// V1BF (Sect. 6), m columns, n rows, band width w: i = floor(k / wn), then eqs. (30)-(31).
MMSIM_ENUM_HD XY v1bf_decode(std::uint64_t m, std::uint64_t n, std::uint64_t w, std::uint64_t k) {
  const std::uint64_t i = k / (w * n);
  const std::uint64_t width = v1bf_width(m, w, i);
  const std::uint64_t k2 = k - i * w * n;
  return {k2 % width + i * w, k2 / width};
}

}  // namespace mmsim::enumeration::core
