#include "models/congestion.h"

#include <algorithm>
#include <array>
#include <bit>

#include "models/bank_counter.h"

namespace mmsim {

namespace {

// Splits an address into (bank, group) for width w, with shifts when w is a power of two.
struct Width {
  explicit Width(int width)
      : w(static_cast<std::uint64_t>(width)),
        pow2(std::has_single_bit(w)),
        shift(static_cast<unsigned>(std::countr_zero(w))) {}
  std::uint64_t bank(Address a) const { return pow2 ? (a & (w - 1)) : a % w; }
  std::uint64_t group(Address a) const { return pow2 ? (a >> shift) : a / w; }
  std::uint64_t w;
  bool pow2;
  unsigned shift;
};

// A set of at most w keys with O(1) clearing (generation stamps), reused across warps.
class SmallSet {
 public:
  void reset(std::size_t max_keys) {
    const std::size_t want = std::bit_ceil(std::max<std::size_t>(2 * max_keys, 8));
    if (keys_.size() != want) {
      keys_.assign(want, 0);
      stamp_.assign(want, 0);
      gen_ = 0;
    }
    mask_ = want - 1;
    if (++gen_ == 0) {  // stamps wrapped: clear them once
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
  }
  /// Inserts `key`; true if it was not there yet.
  bool insert(std::uint64_t key) {
    std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
    while (stamp_[h] == gen_) {
      if (keys_[h] == key) return false;
      h = (h + 1) & mask_;
    }
    stamp_[h] = gen_;
    keys_[h] = key;
    return true;
  }

 private:
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t gen_ = 0;
  std::size_t mask_ = 0;
};

// A set of at most kMaxKeys keys on the stack, its slots marked used in a bit mask: a warp of the
// usual widths counts its groups with no clearing and no thread_local scratch.
class StackSet {
 public:
  static constexpr std::size_t kMaxKeys = 64;
  /// Inserts `key`; true if it was not there yet.
  bool insert(std::uint64_t key) {
    std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & kMask;
    while (used_[h / 64] >> (h % 64) & 1) {
      if (keys_[h] == key) return false;
      h = (h + 1) & kMask;
    }
    used_[h / 64] |= std::uint64_t{1} << (h % 64);
    keys_[h] = key;
    return true;
  }

 private:
  static constexpr std::size_t kSlots = 2 * kMaxKeys, kMask = kSlots - 1;
  std::array<std::uint64_t, kSlots> keys_;  // read only where used_ says
  std::array<std::uint64_t, kSlots / 64> used_{};
};

struct Scratch {
  SmallSet addresses;
  SmallSet groups;
  BankCounter banks;
};
thread_local Scratch scratch;

// Congestion and bank conflicts over the distinct addresses of a warp.
// Requests inside one address group (a coalesced access) are among w consecutive cells, so their
// distinct addresses lie in distinct banks: one slot in either model, no conflict. Returns that
// cost, zero for a warp with no request, or slots = 2 when the warp spans several groups.
WarpCost banked_fast_path(std::span<const Address> warp, const Width& wd) {
  std::size_t i = 0;
  while (i < warp.size() && warp[i] == kNoAddress) ++i;
  if (i == warp.size()) return {};  // no request: not dispatched
  const std::uint64_t g0 = wd.group(warp[i]);
  for (; i < warp.size(); ++i)
    if (warp[i] != kNoAddress && wd.group(warp[i]) != g0) return {2, 0, 0};
  return {1, 1, 0};
}

WarpCost banked(std::span<const Address> warp, const Width& wd, bool count_groups) {
  WarpCost c;
  {
    const WarpCost fast = banked_fast_path(warp, wd);
    if (fast.slots <= 1) return fast;
  }
  scratch.addresses.reset(warp.size());
  scratch.banks.resize(static_cast<std::uint32_t>(wd.w));
  scratch.banks.start();
  if (count_groups) scratch.groups.reset(warp.size());
  int distinct = 0, groups = 0, banks_used = 0;
  for (Address a : warp) {
    if (a == kNoAddress || !scratch.addresses.insert(a)) continue;
    ++distinct;
    const int in_bank = static_cast<int>(scratch.banks.add(static_cast<std::uint32_t>(wd.bank(a))));
    banks_used += (in_bank == 1);
    c.congestion = std::max(c.congestion, in_bank);
    if (count_groups) groups += scratch.groups.insert(wd.group(a));
  }
  c.extra_bank_requests = distinct - banks_used;
  c.slots = count_groups ? groups : c.congestion;
  return c;
}

}  // namespace

// UMM: one hash insertion per request (equal addresses share a group, so they need no merging of
// their own). The congestion reported for a global access is its slot count, the UMM's analogue.
template <class Set>
WarpCost grouped(std::span<const Address> warp, const Width& wd, Set& set) {
  WarpCost c;
  for (Address a : warp)
    if (a != kNoAddress) c.slots += set.insert(wd.group(a));
  c.congestion = c.slots;
  return c;
}

WarpCost grouped(std::span<const Address> warp, const Width& wd) {
  if (warp.size() <= StackSet::kMaxKeys) {
    StackSet set;
    return grouped(warp, wd, set);
  }
  scratch.groups.reset(warp.size());
  return grouped(warp, wd, scratch.groups);
}

WarpCost bank_cost(std::span<const Address> warp, int w) { return banked(warp, Width(w), false); }
WarpCost group_cost(std::span<const Address> warp, int w) {
  const Width wd(w);
  const WarpCost fast = banked_fast_path(warp, wd);
  return fast.slots <= 1 ? fast : grouped(warp, wd);
}
int congestion(std::span<const Address> warp, int w) { return banked(warp, Width(w), false).congestion; }

std::vector<std::vector<Address>> bank_slots(std::span<const Address> warp, int w) {
  const Width wd(w);
  std::vector<Address> distinct;
  for (Address a : warp)
    if (a != kNoAddress && std::find(distinct.begin(), distinct.end(), a) == distinct.end()) distinct.push_back(a);
  std::vector<std::vector<Address>> per_bank(wd.w);
  for (Address a : distinct) per_bank[wd.bank(a)].push_back(a);
  std::vector<std::vector<Address>> slots;
  for (std::size_t s = 0;; ++s) {
    std::vector<Address> slot;
    for (const auto& b : per_bank)
      if (s < b.size()) slot.push_back(b[s]);
    if (slot.empty()) break;
    slots.push_back(std::move(slot));
  }
  return slots;
}

std::vector<std::vector<Address>> group_slots(std::span<const Address> warp, int w) {
  const Width wd(w);
  std::vector<std::uint64_t> order;
  std::vector<std::vector<Address>> slots;
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const auto g = wd.group(a);
    auto it = std::find(order.begin(), order.end(), g);
    std::size_t i = static_cast<std::size_t>(it - order.begin());
    if (it == order.end()) {
      order.push_back(g);
      slots.emplace_back();
    }
    auto& slot = slots[i];
    if (std::find(slot.begin(), slot.end(), a) == slot.end()) slot.push_back(a);
  }
  return slots;
}

}  // namespace mmsim
