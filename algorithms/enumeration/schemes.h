// Enumeration schemes of GL Sect. 4-6: pairing functions that number the entries of a
// triangle (or of a whole rectangle) and their exact inverses, in integer arithmetic only.
//
// Coordinates are (x, y) = (column, row). The triangular schemes number the n(n-1)/2 entries
// strictly below the main diagonal (x < y) of an order-m matrix; the rectangular one numbers every
// entry of an m-column, n-row matrix.
#pragma once

#include <cstdint>
#include <string>

namespace mmsim::enumeration {

struct Cell2 {
  std::uint64_t x = 0;  ///< column
  std::uint64_t y = 0;  ///< row
  bool operator==(const Cell2&) const = default;
};

/// floor(sqrt(v)), exact for every 64-bit v (no floating point).
std::uint64_t isqrt_floor(std::uint64_t v);
/// ceil(sqrt(v)), exact.
std::uint64_t isqrt_ceil(std::uint64_t v);

/// S+(t) = (t^2 + t)/2 and S-(t) = (t^2 - t)/2 (GL Sect. 5).
constexpr std::uint64_t tri_plus(std::uint64_t t) { return t * (t + 1) / 2; }
constexpr std::uint64_t tri_minus(std::uint64_t t) { return t == 0 ? 0 : t * (t - 1) / 2; }

/// Largest triangle order the schemes accept: keeps 8k + 9 and (2m - 1)^2 inside 64 bits.
inline constexpr std::uint64_t kMaxOrder = std::uint64_t{1} << 30;

// --- V1 (Sect. 4.3): row by row from the top, left to right. Pi(x, y) = (y^2 - y)/2 + x, eq. (3).
std::uint64_t v1_encode(Cell2 c);
/// y = floor((sqrt(8k + 1) + 1)/2) (eq. 8), x = k - (y^2 - y)/2 (eq. 5).
Cell2 v1_decode(std::uint64_t k);

// --- V1R (Sect. 4.4): row by row from the top, right to left. Pi(x, y) = (y^2 + y)/2 - x - 1, eq. (4).
std::uint64_t v1r_encode(Cell2 c);
/// y = ceil((sqrt(8k + 9) - 1)/2) (eq. 10), x = (y^2 + y)/2 - 1 - k (eq. 9).
Cell2 v1r_decode(std::uint64_t k);

// --- V1B (Sect. 5.1): vertical bands of w columns, left to right; inside a band, row by row, left
// to right. Order m >= 2, 1 <= w <= m - 1.
std::uint64_t v1b_encode(std::uint64_t m, std::uint64_t w, Cell2 c);
/// Band i = floor((2m - 1 - sqrt((2m - 1)^2 - 8k)) / 2w) (eq. 15), then eqs. (24)-(29).
Cell2 v1b_decode(std::uint64_t m, std::uint64_t w, std::uint64_t k);
/// Number of entries of band i, B_i, and the first number of band i, b_i (Prop. 2, eq. 13).
std::uint64_t v1b_band_first(std::uint64_t m, std::uint64_t w, std::uint64_t i);

// --- V1BF (Sect. 6): a rectangle of m columns and n rows cut into vertical bands of w columns
// (the last one r = m mod w wide when w does not divide m), each numbered row by row. 1 <= w <= m.
std::uint64_t v1bf_encode(std::uint64_t m, std::uint64_t n, std::uint64_t w, Cell2 c);
/// i = floor(k / wn), then eqs. (30)-(31).
Cell2 v1bf_decode(std::uint64_t m, std::uint64_t n, std::uint64_t w, std::uint64_t k);

/// Throws InputError unless 2 <= m <= kMaxOrder and 1 <= w <= m - 1 (the V1B domain).
void check_v1b(std::uint64_t m, std::uint64_t w);
/// Throws InputError unless 1 <= m, n <= kMaxOrder and 1 <= w <= m.
void check_v1bf(std::uint64_t m, std::uint64_t n, std::uint64_t w);

/// The triangular schemes by name, for kernels that take any of them.
enum class Scheme { V1, V1R, V1B };
const char* to_string(Scheme s);

/// Decodes k for an order-m triangle (x < y); `w` is read by V1B only.
Cell2 decode(Scheme s, std::uint64_t m, std::uint64_t w, std::uint64_t k);
std::uint64_t encode(Scheme s, std::uint64_t m, std::uint64_t w, Cell2 c);

}  // namespace mmsim::enumeration
