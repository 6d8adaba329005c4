// Address layouts of a w x w matrix in a DMM's memory: where cell (i, j) lives (NMI Sect. I, IV).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/layouts/draws.h"
#include "sim/types.h"

namespace mmsim::layouts {

/// The layouts of a w x w matrix. Bank of a cell = its address mod w (NMI Sect. II).
///  - raw: (i, j) at i w + j (NMI Sect. I);
///  - ras: (i, j) at i w + (j + r_i) mod w, r_0 .. r_{w-1} independent uniform in [0, w) (the random
///    address shift, NMI Sect. I);
///  - rap: as ras, but r is a uniformly random permutation of 0 .. w-1 (NMI Sect. IV), so that
///    a row and a column both fall into w distinct banks;
///  - pad: (i, j) at i (w + 1) + j, a row pitch of w + 1 (the usual padding against bank conflicts);
///  - xor: (i, j) at i w + x(i, j), x(i, j) = j XOR (i mod w) (the swizzle of CUTLASS / CuTe). When w is
///    not a power of two j XOR m can reach past the row; then column j swaps with j XOR m only if both
///    lie in the row and otherwise stays in place, which keeps every row a permutation of its columns
///    and is plain XOR when w is a power of two.
enum class MatrixLayoutKind { Raw, Ras, Rap, Pad, Xor };

std::span<const MatrixLayoutKind> matrix_layout_kinds();
const char* to_string(MatrixLayoutKind k);
std::optional<MatrixLayoutKind> matrix_layout_from_name(std::string_view name);

/// Column of cell (i, j) inside its row under the xor layout (see MatrixLayoutKind).
inline std::uint32_t xor_column(std::uint32_t i, std::uint32_t j, std::uint32_t w) {
  const std::uint32_t c = j ^ (i % w);
  return c < w ? c : j;
}

/// One drawn layout of a w x w matrix: its kind, width and random numbers. Any w >= 2.
class MatrixLayout {
 public:
  /// A layout of `kind` with fresh random numbers (ras, rap) from `draws`.
  MatrixLayout(MatrixLayoutKind kind, std::uint32_t w, Draws& draws);
  /// A layout of `kind` with the given shifts r_i (raw: all 0; ras: each in [0, w); rap: a
  /// permutation), e.g. NMI Fig. 6's r = (2, 0, 3, 1). Throws std::invalid_argument otherwise.
  static MatrixLayout with_shifts(MatrixLayoutKind kind, std::vector<std::uint32_t> shifts);

  /// Draws fresh random numbers in place (no allocation): one Monte Carlo trial's layout.
  void redraw(Draws& draws) {
    if (kind_ == MatrixLayoutKind::Ras) {
      for (auto& r : shift_) r = draws.below(w_);
    } else if (kind_ == MatrixLayoutKind::Rap) {
      // Fisher-Yates, inside-out: after step i, shift_[0 .. i] is a uniform permutation of 0 .. i.
      std::uint32_t* r = shift_.data();
      for (std::uint32_t i = 0; i < w_; ++i) {
        const std::uint32_t x = draws.below(i + 1);
        r[i] = r[x];
        r[x] = i;
      }
    }
  }

  MatrixLayoutKind kind() const { return kind_; }
  std::uint32_t w() const { return w_; }
  /// Cells the layout spans (w^2, or w (w + 1) for pad).
  std::uint64_t cells() const { return static_cast<std::uint64_t>(w_) * pitch(); }
  std::uint64_t pitch() const { return kind_ == MatrixLayoutKind::Pad ? w_ + 1ull : w_; }
  /// r_i of ras and rap (empty for the others).
  const std::vector<std::uint32_t>& shifts() const { return shift_; }
  /// Random numbers the layout holds: w for ras and rap, 0 otherwise (NMI Table IV's count).
  std::uint64_t random_numbers() const { return shift_.size(); }

  /// Column of (i, j) inside row i's stretch of memory.
  std::uint32_t column(std::uint32_t i, std::uint32_t j) const {
    switch (kind_) {
      case MatrixLayoutKind::Ras:
        return column_as<MatrixLayoutKind::Ras>(i, j);
      case MatrixLayoutKind::Rap:
        return column_as<MatrixLayoutKind::Rap>(i, j);
      case MatrixLayoutKind::Xor:
        return column_as<MatrixLayoutKind::Xor>(i, j);
      default:
        return j;
    }
  }
  Address address(std::uint32_t i, std::uint32_t j) const { return i * pitch() + column(i, j); }
  std::uint32_t bank(std::uint32_t i, std::uint32_t j) const {
    return kind_ == MatrixLayoutKind::Pad ? bank_as<MatrixLayoutKind::Pad>(i, j) : column(i, j);
  }

  /// column(), address() and bank() for a layout known to be of kind K (no switch: the Monte Carlo's
  /// inner loop is compiled once per kind).
  template <MatrixLayoutKind K>
  std::uint32_t column_as(std::uint32_t i, std::uint32_t j) const {
    return column_of<K>(i, j, w_, row_shift<K>(i));
  }
  template <MatrixLayoutKind K>
  Address address_as(std::uint32_t i, std::uint32_t j) const {
    const Address pitch = K == MatrixLayoutKind::Pad ? w_ + 1ull : w_;
    return i * pitch + column_as<K>(i, j);
  }
  template <MatrixLayoutKind K>
  std::uint32_t bank_as(std::uint32_t i, std::uint32_t j) const {
    return bank_of<K>(i, j, w_, row_shift<K>(i));
  }

  /// The map itself for width w, given r = r_i, row i's shift (read by ras and rap only): the column
  /// and the bank of (i, j), i, j < w. The Monte Carlo calls these with the few shifts a trial draws;
  /// Pow2 promises that w is a power of two, which turns each "mod w" into a mask.
  template <MatrixLayoutKind K, bool Pow2 = false>
  static std::uint32_t column_of(std::uint32_t i, std::uint32_t j, std::uint32_t w, std::uint32_t r) {
    if constexpr (K == MatrixLayoutKind::Ras || K == MatrixLayoutKind::Rap) {
      return wrap<Pow2>(j + r, w);
    } else if constexpr (K == MatrixLayoutKind::Xor) {
      const std::uint32_t c = j ^ i;  // xor_column(i, j, w) without its division: i < w, so i mod w = i
      return Pow2 || c < w ? c : j;
    } else {
      return j;
    }
  }
  template <MatrixLayoutKind K, bool Pow2 = false>
  static std::uint32_t bank_of(std::uint32_t i, std::uint32_t j, std::uint32_t w, std::uint32_t r) {
    if constexpr (K == MatrixLayoutKind::Pad) {
      return wrap<Pow2>(i + j, w);  // (i (w + 1) + j) mod w
    } else {
      return column_of<K, Pow2>(i, j, w, r);
    }
  }
  /// c mod w for c < 2 w.
  template <bool Pow2 = false>
  static std::uint32_t wrap(std::uint32_t c, std::uint32_t w) {
    if constexpr (Pow2)
      return c & (w - 1);
    else
      return c >= w ? c - w : c;
  }

 private:
  template <MatrixLayoutKind K>
  std::uint32_t row_shift(std::uint32_t i) const {
    if constexpr (K == MatrixLayoutKind::Ras || K == MatrixLayoutKind::Rap)
      return shift_[i];
    else
      return 0;
  }
  MatrixLayout(MatrixLayoutKind kind, std::uint32_t w) : kind_(kind), w_(w) {}
  MatrixLayoutKind kind_;
  std::uint32_t w_;
  std::vector<std::uint32_t> shift_;
};

/// "raw", "ras (seed 7: r = 3 0 1 ...)" style description of a drawn layout, for run output.
std::string describe(const MatrixLayout& layout);

}  // namespace mmsim::layouts
