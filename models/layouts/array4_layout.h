// Address layouts of a w x w x w x w array in a DMM's memory (NMI Sect. VII).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "models/layouts/draws.h"
#include "sim/types.h"

namespace mmsim::layouts {

/// NMI Sect. VII: a[i][j][k][l] lives at ((i w + j) w + k) w + (l + f(i, j, k)) mod w, in bank
/// (l + f(i, j, k)) mod w, with f per scheme (r, s, t random permutations of 0 .. w-1):
///  - raw:   f = 0;
///  - ras:   f = an independent uniform number per (i, j, k)            (w^3 random numbers);
///  - 1p:    f = r_k                                                     (w);
///  - r1p:   f = r_i + r_j + r_k                                         (w);
///  - 3p:    f = r_i + s_j + t_k                                         (3 w);
///  - w2p:   f = r^{i w + j}_k, one permutation per (i, j)               (w^3);
///  - 1pw2r: f = s_{i w + j} + r_k, s independent uniform per (i, j)     (w^2 + w).
enum class Array4LayoutKind { Raw, Ras, P1, R1p, P3, W2p, P1W2r };

std::span<const Array4LayoutKind> array4_layout_kinds();
const char* to_string(Array4LayoutKind k);
std::optional<Array4LayoutKind> array4_layout_from_name(std::string_view name);
/// Random numbers the scheme draws for width w (NMI Table IV's last row).
std::uint64_t random_numbers(Array4LayoutKind k, std::uint64_t w);

/// A map from 64-bit keys to 32-bit values that forgets everything in O(1) (generation stamps).
class SparseMemo {
 public:
  SparseMemo();
  void clear();
  /// Pointer to the value of `key`, or nullptr.
  const std::uint32_t* find(std::uint64_t key) const;
  void set(std::uint64_t key, std::uint32_t value);

 private:
  std::size_t slot(std::uint64_t key) const;
  void grow();
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> values_;
  std::vector<std::uint32_t> stamps_;
  std::uint32_t gen_ = 1;
  std::size_t size_ = 0;
  unsigned bits_ = 0;
};

/// One random layout of a w^4 array. A scheme like w2p holds w^3 random numbers, far more than one
/// warp access looks at, so the numbers are drawn the first time an access needs them and
/// remembered until redraw(): the layout a trial sees is distributed exactly as if all had been
/// drawn up front (permutations by Fisher-Yates, position by position in order of first use).
class Array4Layout {
 public:
  Array4Layout(Array4LayoutKind kind, std::uint32_t w);

  /// Forgets every drawn number: the next accesses see a fresh random layout.
  void redraw() { memo_.clear(); }

  Array4LayoutKind kind() const { return kind_; }
  std::uint32_t w() const { return w_; }
  std::uint64_t cells() const { return static_cast<std::uint64_t>(w_) * w_ * w_ * w_; }

  /// f(i, j, k) mod w.
  std::uint32_t shift(std::uint32_t i, std::uint32_t j, std::uint32_t k, Draws& draws);
  std::uint32_t bank(std::uint32_t i, std::uint32_t j, std::uint32_t k, std::uint32_t l, Draws& draws) {
    const std::uint32_t b = l + shift(i, j, k, draws);
    return b >= w_ ? b - w_ : b;
  }
  Address address(std::uint32_t i, std::uint32_t j, std::uint32_t k, std::uint32_t l, Draws& draws) {
    return ((static_cast<Address>(i) * w_ + j) * w_ + k) * w_ + bank(i, j, k, l, draws);
  }

 private:
  // Entry `pos` of random permutation number `perm`.
  std::uint32_t permutation(std::uint64_t perm, std::uint32_t pos, Draws& draws);
  // An independent uniform number in [0, w) named by `key`.
  std::uint32_t independent(std::uint64_t key, Draws& draws);
  std::uint32_t add(std::uint32_t a, std::uint32_t b) const { return a + b >= w_ ? a + b - w_ : a + b; }

  Array4LayoutKind kind_;
  std::uint32_t w_;
  SparseMemo memo_;
};

}  // namespace mmsim::layouts
