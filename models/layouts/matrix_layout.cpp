#include "models/layouts/matrix_layout.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "sim/names.h"

namespace mmsim::layouts {

namespace {
constexpr NameTable<MatrixLayoutKind, 5> kNames{{{{MatrixLayoutKind::Raw, "raw"},
                                                  {MatrixLayoutKind::Ras, "ras"},
                                                  {MatrixLayoutKind::Rap, "rap"},
                                                  {MatrixLayoutKind::Pad, "pad"},
                                                  {MatrixLayoutKind::Xor, "xor"}}}};
}  // namespace

std::span<const MatrixLayoutKind> matrix_layout_kinds() { return kNames.values(); }
const char* to_string(MatrixLayoutKind k) { return kNames.name(k); }
std::optional<MatrixLayoutKind> matrix_layout_from_name(std::string_view name) { return kNames.parse(name); }

MatrixLayout::MatrixLayout(MatrixLayoutKind kind, std::uint32_t w, Draws& draws) : kind_(kind), w_(w) {
  if (w < 2) throw std::invalid_argument("w: a layout needs w >= 2");
  if (kind == MatrixLayoutKind::Ras || kind == MatrixLayoutKind::Rap) shift_.resize(w);
  redraw(draws);
}

MatrixLayout MatrixLayout::with_shifts(MatrixLayoutKind kind, std::vector<std::uint32_t> shifts) {
  const auto w = static_cast<std::uint32_t>(shifts.size());
  if (w < 2) throw std::invalid_argument("w: a layout needs w >= 2");
  MatrixLayout l(kind, w);
  if (kind == MatrixLayoutKind::Ras || kind == MatrixLayoutKind::Rap) {
    for (auto r : shifts)
      if (r >= w) throw std::invalid_argument("shifts: each must be below w");
    if (kind == MatrixLayoutKind::Rap) {
      auto sorted = shifts;
      std::sort(sorted.begin(), sorted.end());
      for (std::uint32_t i = 0; i < w; ++i)
        if (sorted[i] != i) throw std::invalid_argument("shifts: rap needs a permutation of 0 .. w-1");
    }
    l.shift_ = std::move(shifts);
  } else if (std::any_of(shifts.begin(), shifts.end(), [](std::uint32_t r) { return r != 0; })) {
    throw std::invalid_argument("shifts: only ras and rap shift rows");
  }
  return l;
}

std::string describe(const MatrixLayout& layout) {
  std::string s = to_string(layout.kind());
  if (!layout.shifts().empty()) {
    s += " (r =";
    for (auto r : layout.shifts()) s += " " + std::to_string(r);
    s += ")";
  }
  return s;
}

}  // namespace mmsim::layouts
