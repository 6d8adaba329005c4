#include "models/layouts/array4_layout.h"

#include <stdexcept>

#include "sim/names.h"

namespace mmsim::layouts {

namespace {
constexpr NameTable<Array4LayoutKind, 7> kNames{{{{Array4LayoutKind::Raw, "raw"},
                                                  {Array4LayoutKind::Ras, "ras"},
                                                  {Array4LayoutKind::P1, "1p"},
                                                  {Array4LayoutKind::R1p, "r1p"},
                                                  {Array4LayoutKind::P3, "3p"},
                                                  {Array4LayoutKind::W2p, "w2p"},
                                                  {Array4LayoutKind::P1W2r, "1pw2r"}}}};
}  // namespace

std::span<const Array4LayoutKind> array4_layout_kinds() { return kNames.values(); }
const char* to_string(Array4LayoutKind k) { return kNames.name(k); }
std::optional<Array4LayoutKind> array4_layout_from_name(std::string_view name) { return kNames.parse(name); }

std::uint64_t random_numbers(Array4LayoutKind k, std::uint64_t w) {
  switch (k) {
    case Array4LayoutKind::Raw:
      return 0;
    case Array4LayoutKind::Ras:
      return w * w * w;
    case Array4LayoutKind::P1:
      return w;
    case Array4LayoutKind::R1p:
      return w;
    case Array4LayoutKind::P3:
      return 3 * w;
    case Array4LayoutKind::W2p:
      return w * w * w;
    case Array4LayoutKind::P1W2r:
      return w * w + w;
  }
  return 0;
}

SparseMemo::SparseMemo() {
  bits_ = 8;
  keys_.assign(std::size_t{1} << bits_, 0);
  values_.assign(keys_.size(), 0);
  stamps_.assign(keys_.size(), 0);
}

void SparseMemo::clear() {
  size_ = 0;
  if (++gen_ == 0) {  // stamps wrapped around: wipe them once
    std::fill(stamps_.begin(), stamps_.end(), 0);
    gen_ = 1;
  }
}

std::size_t SparseMemo::slot(std::uint64_t key) const {
  std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - bits_));
  const std::size_t mask = keys_.size() - 1;
  while (stamps_[h] == gen_ && keys_[h] != key) h = (h + 1) & mask;
  return h;
}

const std::uint32_t* SparseMemo::find(std::uint64_t key) const {
  const std::size_t h = slot(key);
  return stamps_[h] == gen_ ? &values_[h] : nullptr;
}

void SparseMemo::set(std::uint64_t key, std::uint32_t value) {
  if (2 * (size_ + 1) > keys_.size()) grow();
  const std::size_t h = slot(key);
  if (stamps_[h] != gen_) {
    stamps_[h] = gen_;
    keys_[h] = key;
    ++size_;
  }
  values_[h] = value;
}

void SparseMemo::grow() {
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> values;
  for (std::size_t h = 0; h < keys_.size(); ++h)
    if (stamps_[h] == gen_) {
      keys.push_back(keys_[h]);
      values.push_back(values_[h]);
    }
  ++bits_;
  keys_.assign(std::size_t{1} << bits_, 0);
  values_.assign(keys_.size(), 0);
  stamps_.assign(keys_.size(), 0);
  gen_ = 1;
  size_ = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) set(keys[i], values[i]);
}

namespace {
// Memo keys: two tag bits over a payload below 2^62 (w^3 < 2^48 for every w the CLI accepts).
constexpr std::uint64_t kAssigned = 0, kPool = 1ull << 62, kCount = 2ull << 62, kIndependent = 3ull << 62;
}  // namespace

Array4Layout::Array4Layout(Array4LayoutKind kind, std::uint32_t w) : kind_(kind), w_(w) {
  if (w < 2 || w > 65535) throw std::invalid_argument("w: a w^4 layout needs 2 <= w <= 65535");
}

std::uint32_t Array4Layout::permutation(std::uint64_t perm, std::uint32_t pos, Draws& draws) {
  const std::uint64_t at = perm * w_ + pos;
  if (const auto* v = memo_.find(kAssigned | at)) return *v;
  // Lazy Fisher-Yates: the m-th position asked for takes a uniform value among the w - m not yet used;
  // pool(x) is the value parked at index x of the permutation's (virtual) array, x by default.
  const auto* c = memo_.find(kCount | perm);
  const std::uint32_t m = c ? *c : 0;
  memo_.set(kCount | perm, m + 1);
  const std::uint32_t x = m + draws.below(w_ - m);
  const auto pool = [&](std::uint32_t idx) {
    const auto* p = memo_.find(kPool | (perm * w_ + idx));
    return p ? *p : idx;
  };
  const std::uint32_t value = pool(x);
  memo_.set(kPool | (perm * w_ + x), pool(m));
  memo_.set(kAssigned | at, value);
  return value;
}

std::uint32_t Array4Layout::independent(std::uint64_t key, Draws& draws) {
  if (const auto* v = memo_.find(kIndependent | key)) return *v;
  const std::uint32_t value = draws.below(w_);
  memo_.set(kIndependent | key, value);
  return value;
}

std::uint32_t Array4Layout::shift(std::uint32_t i, std::uint32_t j, std::uint32_t k, Draws& draws) {
  const std::uint64_t ij = static_cast<std::uint64_t>(i) * w_ + j;
  switch (kind_) {
    case Array4LayoutKind::Raw:
      return 0;
    case Array4LayoutKind::Ras:
      return independent(ij * w_ + k, draws);
    case Array4LayoutKind::P1:
      return permutation(0, k, draws);
    case Array4LayoutKind::R1p:
      return add(add(permutation(0, i, draws), permutation(0, j, draws)), permutation(0, k, draws));
    case Array4LayoutKind::P3:
      return add(add(permutation(0, i, draws), permutation(1, j, draws)), permutation(2, k, draws));
    case Array4LayoutKind::W2p:
      return permutation(ij, k, draws);
    case Array4LayoutKind::P1W2r:
      return add(independent(ij, draws), permutation(0, k, draws));
  }
  return 0;
}

}  // namespace mmsim::layouts
