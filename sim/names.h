// One table of names for an enumeration: the spelling a person types and reads, the enumerators in
// the order `mmsim list` shows them, and the lookup both ways, written once per enum instead of a
// switch, a search loop and a list kept in step by hand.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mmsim {

template <typename E, std::size_t N>
class NameTable {
 public:
  constexpr explicit NameTable(std::array<std::pair<E, const char*>, N> rows) : rows_(rows) {
    for (std::size_t k = 0; k < N; ++k) values_[k] = rows_[k].first;
  }

  /// The name of `e`, "?" for a value outside the table.
  constexpr const char* name(E e) const {
    for (const auto& [v, n] : rows_)
      if (v == e) return n;
    return "?";
  }
  constexpr std::optional<E> parse(std::string_view text) const {
    for (const auto& [v, n] : rows_)
      if (text == n) return v;
    return std::nullopt;
  }
  /// Every enumerator, in the table's order.
  constexpr std::span<const E> values() const { return values_; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& row : rows_) out.emplace_back(row.second);
    return out;
  }

 private:
  std::array<std::pair<E, const char*>, N> rows_;
  std::array<E, N> values_{};
};

}  // namespace mmsim
