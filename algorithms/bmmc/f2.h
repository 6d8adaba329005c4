// Linear algebra over F2 for array indices of up to 64 bits: bit matrices, BMMC maps y = A x + c and
// their factorisations (BDS Sect. 3 and 5.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/random.h"

namespace mmsim::f2 {

/// A vector of F2^n: bit i is coordinate i (bit 0 is the least significant bit of an index).
using BitVector = std::uint64_t;

/// Largest number of index bits the algebra handles.
inline constexpr int kMaxBits = 64;

/// Largest number of index bits of a BMMC the simulator runs: 2^24 cells keep a run within a few
/// hundred MB of host memory and a few seconds (the bound of `mmsim run bmmc -n` and of parm-sort).
/// The algebra goes to 64 bits; everything that allocates 2^bits cells stops here.
inline constexpr int kMaxSimulatedBits = 24;

/// Mask of the n low bits, n in [0, 64]: 1 << 64 is undefined, so 64 (and above) is all ones and 0
/// (and below) is none.
constexpr BitVector low_bits(int n) {
  return n >= 64 ? ~BitVector{0} : n <= 0 ? BitVector{0} : (BitVector{1} << n) - 1;
}

/// Dot product over F2 of two bit vectors.
inline int dot(BitVector a, BitVector b) { return __builtin_parityll(a & b); }

/// Scatters the low bits of `value`, in order, to the set bits of `mask` (software pdep).
BitVector deposit(BitVector value, BitVector mask);
/// Gathers the bits of `x` at the set bits of `mask` into the low bits, in order (software pext).
BitVector extract(BitVector x, BitVector mask);

/// A square n x n matrix over F2, 1 <= n <= 64. Row i is a bit vector: bit j of row i is a_ij, so
/// (A x)_i = sum_j a_ij x_j is the parity of row_i & x (BDS Sect. 3).
class BitMatrix {
 public:
  BitMatrix() = default;
  /// The zero matrix; throws std::invalid_argument unless 1 <= n <= 64.
  explicit BitMatrix(int n);
  static BitMatrix identity(int n);
  /// Throws std::invalid_argument when a row has bits at or above rows.size().
  static BitMatrix from_rows(std::vector<BitVector> rows);

  int size() const { return n_; }
  bool get(int i, int j) const { return (rows_[static_cast<std::size_t>(i)] >> j) & 1u; }
  void set(int i, int j, bool v);
  BitVector row(int i) const { return rows_[static_cast<std::size_t>(i)]; }
  void set_row(int i, BitVector r) { rows_[static_cast<std::size_t>(i)] = r & low_bits(n_); }
  /// Column j as a bit vector (bit i = a_ij).
  BitVector column(int j) const;

  /// A x.
  BitVector apply(BitVector x) const;
  BitMatrix transposed() const;

  friend BitMatrix operator*(const BitMatrix& a, const BitMatrix& b);
  friend bool operator==(const BitMatrix& a, const BitMatrix& b) = default;

 private:
  int n_ = 0;
  std::vector<BitVector> rows_;
};

int rank(const BitMatrix& a);
inline bool invertible(const BitMatrix& a) { return rank(a) == a.size(); }
/// A^-1 by Gauss-Jordan elimination; nullopt when A is singular.
std::optional<BitMatrix> inverse(const BitMatrix& a);

/// Upper (lower) triangular with ones on the diagonal: the only triangular invertible matrices of F2.
bool is_upper_unit_triangular(const BitMatrix& a);
bool is_lower_unit_triangular(const BitMatrix& a);

/// The bit permutation of a permutation matrix: p[j] = the row of column j's single one, so that
/// output bit p[j] is input bit j. nullopt when A is not a permutation matrix (BPC detection).
std::optional<std::vector<int>> bit_permutation(const BitMatrix& a);
/// The permutation matrix moving input bit j to output bit p[j]; throws std::invalid_argument when p
/// is not a permutation of 0..n-1 (1 <= n <= 64).
BitMatrix permutation_matrix(const std::vector<int>& p);

/// A = U L P with U upper unit triangular, L lower unit triangular, P a permutation matrix
/// (BDS Sect. 5.2). Throws std::invalid_argument when A is singular.
struct Ulp {
  BitMatrix u, l, p;
};
Ulp ulp(const BitMatrix& a);

/// A = L U P (the same elimination run from the top row). Throws std::invalid_argument when A is
/// singular.
struct Lup {
  BitMatrix l, u, p;
};
Lup lup(const BitMatrix& a);

/// A BMMC map x -> A x + c over n-bit indices (BDS Sect. 3); a permutation of 0..2^n - 1 when A
/// is invertible.
struct Bmmc {
  BitMatrix a;
  BitVector c = 0;

  int bits() const { return a.size(); }
  BitVector apply(BitVector x) const { return a.apply(x) ^ c; }
  /// BPC: A is a permutation matrix (c arbitrary).
  bool is_bpc() const { return bit_permutation(a).has_value(); }
  friend bool operator==(const Bmmc&, const Bmmc&) = default;
};

/// f o g: first g, then f. (A, c) o (B, d) = (AB, Ad + c) (BDS Sect. 3).
Bmmc compose(const Bmmc& f, const Bmmc& g);
/// The inverse map (A^-1, A^-1 c); throws std::invalid_argument when A is singular.
Bmmc inverse(const Bmmc& f);

// Named BMMCs; each throws std::invalid_argument on parameters out of range.
Bmmc identity(int n);
/// Output bit n-1-i is input bit i.
Bmmc bit_reversal(int n);
/// Transpose of a row-major 2^rows x 2^cols matrix: element (i, j) at i 2^cols + j moves to
/// j 2^rows + i.
Bmmc transpose(int rows, int cols);
/// Output bit (i + r) mod n is input bit i: index rotated r places towards the most significant bit.
Bmmc rotate_left(int n, int r);
/// KNI Sect. 4's shuffle: the most significant bit becomes the least significant one.
Bmmc shuffle(int n);
/// The inverse of shuffle.
Bmmc unshuffle(int n);
/// x -> x + c (all bits of c set: array reversal).
Bmmc complement(int n, BitVector c);
/// Bit permutation p (output bit p[j] is input bit j) with complement c.
Bmmc bpc(const std::vector<int>& p, BitVector c);
/// The matrix A of BDS Sect. 7.2 for `parm mask`: y_i = x_i below lsb(mask), x_{i+1} from
/// lsb(mask) to n-2, and y_{n-1} = x . mask, so that (A, 0) moves the mask's first sub-array to the
/// first half and its second sub-array to the second half, each in order. mask in [1, 2^n).
Bmmc parm_matrix(int n, BitVector mask);

/// Uniform random BPC (bit permutation and complement) and BMMC (invertible A by rejection, c).
Bmmc random_bpc(int n, Rng& rng);
Bmmc random_bmmc(int n, Rng& rng);
/// A uniform random invertible n x n matrix.
BitMatrix random_invertible(int n, Rng& rng);

/// Text format: n lines of n characters '0'/'1' (row i, character j = a_ij, so the leftmost
/// character multiplies the least significant index bit), then one line of n characters for c
/// (character i = c_i). Blank lines and lines starting with '#' are ignored.
std::string to_text(const Bmmc& f);
/// Parses the text format; throws InputError("`what`: ...", one line) on any malformed or singular
/// input, and on a matrix of more than kMaxSimulatedBits rows: the format exists to run a matrix,
/// and a larger one could not run (a 64-row one would even make 2^64 overflow).
Bmmc parse_bmmc(const std::string& text, const std::string& what);
/// Largest matrix file read_bmmc_file reads: a 24-bit matrix is 625 characters, so 1 MiB leaves
/// room for any comments while a device or a huge file is refused rather than read whole.
inline constexpr std::size_t kMaxBmmcFileBytes = std::size_t{1} << 20;
/// Reads a file in the text format; throws InputError naming `path` on any problem.
Bmmc read_bmmc_file(const std::string& path);

}  // namespace mmsim::f2
