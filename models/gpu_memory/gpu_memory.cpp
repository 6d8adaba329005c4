#include "models/gpu_memory/gpu_memory.h"

#include <algorithm>

namespace mmsim {

WarpCost GpuGlobalMemory::cost_access(std::span<const Address> warp, const AccessContext& context) const {
  const int sectors = hierarchy_.access(warp, context);
  return {sectors, sectors, 0};
}

std::vector<std::vector<Address>> GpuGlobalMemory::partition(std::span<const Address> warp) const {
  const GpuMemoryParams& p = hierarchy_.params();
  const std::uint64_t per_sector = p.sector_bytes / p.element_bytes;
  std::vector<std::vector<Address>> slots;
  std::vector<std::uint64_t> keys;
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const std::uint64_t key = a / per_sector;
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      slots.push_back({a});
    } else {
      auto& s = slots[static_cast<std::size_t>(it - keys.begin())];
      if (std::find(s.begin(), s.end(), a) == s.end()) s.push_back(a);
    }
  }
  return slots;
}

}  // namespace mmsim
