// Layouts of a w x w matrix written the ways people write them today, read by one parser
// (parse_layout) that `mmsim access --layout`, `mmsim layout`, the Python module and the explorer
// all reach, so that a layout is refused, or drawn, the same everywhere:
//  - a name: raw, ras, rap, pad, xor (models/layouts/matrix_layout.h; NMI Sect. I, IV);
//  - an address expression of the cell, in the language of --addr (teaching/expression.h), with i
//    the row and j the column: 'i*(w+1) + j' is pad;
//  - a CuTe layout SHAPE:STRIDE with nested shapes, two modes (rows, columns) of size w each,
//    optionally composed with a swizzle: 'Swizzle<3,2,3> o (32,32):(32,1)';
//  - a linear layout over F2: 'f2:B0,B1,...', Bk the address of the cell whose index j + w i is 2^k
//    (the images of the index bits, as Triton's linear layouts list their bases), an invertible
//    matrix of algorithms/bmmc/f2.h.
// The five names are instances of the other languages (docs/tutorial.md shows each spelled out).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/bmmc/f2.h"
#include "models/layouts/matrix_layout.h"
#include "sim/types.h"

namespace mmsim::teaching {

enum class LayoutLanguage { Named, Expression, Cute, F2 };
/// "named layout", "address expression", "CuTe layout", "F2 linear layout".
const char* to_string(LayoutLanguage l);

/// CuTe's Swizzle<B,M,S>: xors bits [M + S, M + S + B) of an offset into bits [M, M + B) (S may be
/// negative: then the other way round). CuTe asks B >= 0, M >= 0 and |S| >= B.
struct Swizzle {
  int b = 0, m = 0, s = 0;
  std::int64_t apply(std::int64_t offset) const;
};

/// A CuTe layout of a w x w tile: two modes, rows (i) then columns (j), each flattened to its
/// leaves in CuTe's colexicographic order (the first leaf varies fastest), and an optional swizzle
/// applied to the offset the layout gives.
struct CuteLayout {
  std::vector<std::int64_t> shape[2], stride[2];
  std::optional<Swizzle> swizzle;
  /// The offset of cell (i, j): the swizzle of sum over the leaves of coordinate * stride.
  std::int64_t offset(std::int64_t i, std::int64_t j) const;
};

/// One layout of a w x w matrix: where cell (i, j) lives, in elements.
class MatrixTile {
 public:
  LayoutLanguage language() const { return language_; }
  /// The text as given (trimmed).
  const std::string& text() const { return text_; }
  std::uint32_t w() const { return w_; }
  Address address(std::uint32_t i, std::uint32_t j) const {
    return named_ ? named_->address(i, j) : table_[static_cast<std::size_t>(i) * w_ + j];
  }
  /// One past the largest address any cell has.
  std::uint64_t span() const { return span_; }
  /// The row pitch when row i lives in its own stretch [a0 + i p, a0 + (i + 1) p) of p >= w
  /// addresses (then the p - w unused addresses of each stretch are its padding), else 0.
  std::uint64_t pitch() const { return pitch_; }
  /// The named layout (with its random numbers), for a name.
  const std::optional<layouts::MatrixLayout>& named() const { return named_; }
  /// The matrix A of an F2 layout: address bit k = (A x)_k, x = j + w i.
  const std::optional<f2::BitMatrix>& f2_matrix() const { return f2_; }
  /// "TEXT (LANGUAGE, w x w matrix, w = N)"; a name keeps its own words ("raw (w x w matrix, w = 4)").
  std::string describe() const;

 private:
  friend MatrixTile parse_layout(std::string_view, int, std::uint64_t, const std::string&);
  LayoutLanguage language_ = LayoutLanguage::Named;
  std::string text_;
  std::uint32_t w_ = 0;
  std::uint64_t seed_ = 0;
  std::optional<layouts::MatrixLayout> named_;
  std::optional<f2::BitMatrix> f2_;
  std::vector<Address> table_;  // the other languages: address of (i, j) at i w + j
  std::uint64_t span_ = 0, pitch_ = 0;
};

/// Largest w of a layout other than a name (its table of w^2 addresses is kept).
inline constexpr int kMaxTileWidth = 1024;
/// Largest address a layout may give a cell (the simulated memory holds every cell up to it).
inline constexpr Address kMaxTileAddress = (Address{1} << 24) - 1;

/// Parses a layout of a w x w matrix (w >= 2), the one entry for every caller. A random name draws
/// from `seed` as `mmsim run --layout L --seed S` does. Throws InputError, one line starting with
/// `option`, naming the rule: an unknown name, a syntax error (with its column), a CuTe shape that
/// is not w x w, a singular F2 matrix, two cells at one address, a negative or too large address.
MatrixTile parse_layout(std::string_view text, int w, std::uint64_t seed, const std::string& option = "--layout");

/// CuTe's text alone (for tests and callers that want the layout without a width): throws InputError
/// on a syntax error, naming `option` and the column.
CuteLayout parse_cute(std::string_view text, const std::string& option = "--layout");

/// An F2 layout's conflict-freedom read off its matrix (4-byte elements, one a thread): a warp whose
/// cells span a subspace V of the index bits meets 2^(dim V - rank) requests in its worst bank, rank
/// the rank of A restricted to V and to the log2 w bank bits of the address. For a row (V = the bits
/// of j) and a column (the bits of i).
struct F2Congestion {
  int bank_bits = 0;  ///< log2 w
  int row_rank = 0, column_rank = 0;
  std::uint64_t row() const { return std::uint64_t{1} << (bank_bits - row_rank); }
  std::uint64_t column() const { return std::uint64_t{1} << (bank_bits - column_rank); }
};
F2Congestion f2_congestion(const f2::BitMatrix& a, std::uint32_t w);

}  // namespace mmsim::teaching
