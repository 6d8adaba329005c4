// The three ways `mmsim access` poses an instruction (teaching/posed_access.h) and the
// layout names behind --layout: the first byte picks which and w, the rest is split at the first
// newline into a layout name (or the first --warp text) and the cell expressions (or the second
// --warp text, or the --addr expression). Each either poses warps of w threads with addresses in
// range or throws InputError.
#include "teaching/posed_access.h"

#include <algorithm>

#include "fuzz_target.h"
#include "io/input_error.h"
#include "teaching/layout_view.h"

MMSIM_FUZZ_TARGET(posed_access) {
  using namespace mmsim::teaching;
  if (data.empty()) return;
  const int way = data[0] % 4;
  const int w = 1 << ((data[0] >> 2) % 4 + 1);  // 2 .. 16
  const std::uint64_t threads = static_cast<std::uint64_t>(w) * ((data[0] >> 4) % 4 + 1);
  const std::string_view rest = mmsim::fuzz::text_of(data.subspan(1));
  const std::size_t cut = std::min(rest.find('\n'), rest.size());
  const std::string first(rest.substr(0, cut));
  const std::string second(cut < rest.size() ? rest.substr(cut + 1) : std::string_view{});
  try {
    PosedAccess posed;
    if (way == 0) {
      posed = pose_warps({first, second}, w);
    } else if (way == 1) {
      posed = pose_addresses(rest, w, threads);
    } else if (way == 2) {
      posed = pose_cells(first, second, w, threads, data.size());
    } else {
      const DrawnLayout layout(first, (data[0] & 0x80) ? 4 : 2, w, data.size());
      std::uint32_t cell[4] = {0, 0, 0, 0};
      for (std::uint32_t i = 0; i < layout.w(); ++i) {
        cell[0] = cell[1] = i;
        mmsim::fuzz::require(layout.bank(cell) < layout.w(), "a layout puts a cell in a bank >= w");
      }
      (void)layout.describe();
      return;
    }
    for (const auto& warp : posed.warps) {
      mmsim::fuzz::require(warp.size() == static_cast<std::size_t>(w), "a posed warp without w threads");
      for (const auto a : warp)
        mmsim::fuzz::require(a == mmsim::kNoAddress || a <= kMaxPosedAddress, "a posed address beyond the limit");
    }
  } catch (const mmsim::InputError&) {
  }
}
