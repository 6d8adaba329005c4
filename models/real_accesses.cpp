#include "models/real_accesses.h"

#include <algorithm>
#include <map>
#include <set>

namespace mmsim {

AccessShape shape_of(const AccessContext& context) {
  return {.element_bytes = context.element_bytes == 0 ? 4u : context.element_bytes,
          .vector = std::max(1u, context.vector),
          .atomic = context.atomic};
}

std::uint32_t phase_threads(int w, std::uint32_t bytes) {
  const auto all = static_cast<std::uint32_t>(w);
  if (bytes <= 4) return all;
  return std::max(1u, all * 4 / bytes);
}

namespace {

// The first byte of a thread's request, and the 4-byte words it covers.
std::uint64_t first_byte(Address a, const AccessShape& s) { return a * s.element_bytes; }
std::uint64_t first_word(Address a, const AccessShape& s) { return first_byte(a, s) / 4; }
std::uint64_t last_word(Address a, const AccessShape& s) { return (first_byte(a, s) + s.bytes() - 1) / 4; }

}  // namespace

WarpService serve_in_banks(std::span<const Address> warp, int w, const AccessShape& s) {
  WarpService out;
  out.threads.resize(warp.size());
  std::uint32_t per = phase_threads(w, s.bytes());
  if (per < static_cast<std::uint32_t>(w)) {
    bool fused = true;
    for (std::size_t t = 0; t + 1 < warp.size() && fused; t += 2)
      fused = warp[t] == kNoAddress || warp[t + 1] == kNoAddress || warp[t] == warp[t + 1];
    if (fused) {
      out.fused_pairs = true;
      per = std::min<std::uint32_t>(2 * per, static_cast<std::uint32_t>(w));
    }
  }
  out.phase_threads = per;
  int slot = 0;
  // Each bank's requests of the current phase: the words in order of first request (every
  // thread's word again when the access serialises).
  std::vector<std::vector<std::uint64_t>> bank(static_cast<std::size_t>(w));
  for (std::size_t start = 0; start < warp.size(); start += per) {
    for (auto& b : bank) b.clear();
    int congestion = 0;
    const std::size_t end = std::min<std::size_t>(warp.size(), start + per);
    for (std::size_t t = start; t < end; ++t) {
      if (warp[t] == kNoAddress) continue;
      ThreadService& ts = out.threads[t];
      ts.phase = static_cast<int>(out.phase_slots.size());
      for (std::uint64_t word = first_word(warp[t], s); word <= last_word(warp[t], s); ++word) {
        auto& b = bank[word % static_cast<std::uint64_t>(w)];
        auto at = std::find(b.begin(), b.end(), word);
        if (at == b.end() || s.serialises_in_banks()) {
          b.push_back(word);
          at = b.end() - 1;
        }
        ts.words.push_back(word);
        ts.slots.push_back(slot + static_cast<int>(at - b.begin()));
        congestion = std::max(congestion, static_cast<int>(b.size()));
      }
    }
    out.first_slot.push_back(slot);
    out.phase_slots.push_back(congestion);
    slot += congestion;
  }
  return out;
}

WarpCost shaped_bank_cost(std::span<const Address> warp, int w, const AccessShape& shape) {
  const WarpService sv = serve_in_banks(warp, w, shape);
  WarpCost c;
  c.phases = 0;
  for (int s : sv.phase_slots) {
    c.slots += s;
    c.congestion = std::max(c.congestion, s);
    c.phases += s > 0;
  }
  // The requests beyond the first of their bank, phase by phase.
  std::vector<std::vector<std::uint64_t>> seen(sv.phase_slots.size());
  int requests = 0;
  std::vector<std::vector<int>> per_bank(sv.phase_slots.size(), std::vector<int>(static_cast<std::size_t>(w), 0));
  for (const ThreadService& ts : sv.threads)
    for (std::size_t k = 0; k < ts.words.size(); ++k) {
      auto& words = seen[static_cast<std::size_t>(ts.phase)];
      if (std::find(words.begin(), words.end(), ts.words[k]) != words.end() && !shape.serialises_in_banks()) continue;
      words.push_back(ts.words[k]);
      ++per_bank[static_cast<std::size_t>(ts.phase)][ts.words[k] % static_cast<std::uint64_t>(w)];
      ++requests;
    }
  int banks_used = 0;
  for (const auto& p : per_bank)
    for (int n : p) banks_used += n > 0;
  c.extra_bank_requests = requests - banks_used;
  return c;
}

std::vector<std::vector<Address>> shaped_bank_slots(std::span<const Address> warp, int w, const AccessShape& shape) {
  const WarpService sv = serve_in_banks(warp, w, shape);
  int total = 0;
  for (int s : sv.phase_slots) total += s;
  std::vector<std::vector<Address>> slots(static_cast<std::size_t>(total));
  for (std::size_t t = 0; t < sv.threads.size(); ++t)
    for (int s : sv.threads[t].slots) {
      auto& slot = slots[static_cast<std::size_t>(s)];
      if (std::find(slot.begin(), slot.end(), warp[t]) == slot.end() || shape.serialises_in_banks())
        slot.push_back(warp[t]);
    }
  return slots;
}

std::uint64_t segment_transactions(std::span<const Address> warp, std::uint32_t segment_bytes,
                                   const AccessShape& shape) {
  if (!shape.serialises_in_segments()) {
    std::set<std::uint64_t> segments;
    for (Address a : warp) {
      if (a == kNoAddress) continue;
      const std::uint64_t first = first_byte(a, shape);
      for (std::uint64_t seg = first / segment_bytes; seg <= (first + shape.bytes() - 1) / segment_bytes; ++seg)
        segments.insert(seg);
    }
    return segments.size();
  }
  // Atomics: per segment, the most threads on one address of it.
  std::map<std::uint64_t, std::map<Address, std::uint64_t>> threads;
  for (Address a : warp)
    if (a != kNoAddress) ++threads[first_byte(a, shape) / segment_bytes][a];
  std::uint64_t n = 0;
  for (const auto& [segment, per_address] : threads) {
    std::uint64_t most = 0;
    for (const auto& [address, count] : per_address) most = std::max(most, count);
    n += most;
  }
  return n;
}

WarpCost shaped_group_cost(std::span<const Address> warp, int w, const AccessShape& shape) {
  const auto slots = static_cast<int>(segment_transactions(warp, 4 * static_cast<std::uint32_t>(w), shape));
  return {.slots = slots, .congestion = slots, .extra_bank_requests = 0, .phases = slots > 0 ? 1 : 0};
}

std::vector<std::vector<Address>> shaped_group_slots(std::span<const Address> warp, int w, const AccessShape& shape) {
  // Each address group's requests in order of first appearance; an atomic adds one slot per repeat
  // of its most requested address.
  const std::uint64_t group_bytes = 4 * static_cast<std::uint64_t>(w);
  std::vector<std::uint64_t> order;
  std::map<std::uint64_t, std::vector<Address>> members;
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const std::uint64_t first = first_byte(a, shape);
    for (std::uint64_t g = first / group_bytes; g <= (first + shape.bytes() - 1) / group_bytes; ++g) {
      if (!members.count(g)) order.push_back(g);
      members[g].push_back(a);
    }
  }
  std::vector<std::vector<Address>> slots;
  for (std::uint64_t g : order) {
    std::vector<Address> all = members[g];
    while (!all.empty()) {
      std::vector<Address> slot;
      for (auto it = all.begin(); it != all.end();) {
        if (std::find(slot.begin(), slot.end(), *it) == slot.end()) {
          slot.push_back(*it);
          if (shape.serialises_in_segments()) {
            it = all.erase(it);
            continue;
          }
        }
        ++it;
      }
      if (!shape.serialises_in_segments()) all.clear();
      slots.push_back(std::move(slot));
    }
  }
  return slots;
}

}  // namespace mmsim
