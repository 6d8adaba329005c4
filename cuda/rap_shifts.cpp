#include "cuda/rap_shifts.h"

#include <stdexcept>

namespace mmsim::gpu {

layouts::MatrixLayoutKind kind_of(SmemLayout k) {
  return layouts::matrix_layout_kinds()[static_cast<std::size_t>(k)];  // SmemLayout follows the list
}

layouts::Transpose transpose_of(SmemTranspose t) { return layouts::transposes()[static_cast<std::size_t>(t)]; }

std::vector<std::uint8_t> rap_shifts(SmemLayout k, std::uint64_t seed, std::uint64_t count) {
  if (!random_layout(k)) return std::vector<std::uint8_t>(kW, 0);
  if (count == 0) throw std::invalid_argument("layouts: at least one");
  std::vector<std::uint8_t> out;
  out.reserve(count * kW);
  for (std::uint64_t s = 0; s < count; ++s) {
    layouts::Draws draws(seed + s);
    const layouts::MatrixLayout layout(kind_of(k), kW, draws);
    for (auto r : layout.shifts()) out.push_back(static_cast<std::uint8_t>(r));
  }
  return out;
}

}  // namespace mmsim::gpu
