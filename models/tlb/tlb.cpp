#include "models/tlb/tlb.h"

#include <algorithm>
#include <stdexcept>

namespace mmsim {

std::optional<std::string> TlbParams::validate() const {
  if (entries < 0) return "tlb-entries: must be >= 0 (0: no TLB)";
  if (entries == 0) return std::nullopt;
  // Bounds keep the model's tables small and the slot counts far from overflow.
  if (entries > (1 << 20)) return "tlb-entries: at most 1048576";
  if (page_cells < 1) return "page-cells: must be >= 1";
  if (ways < 1 || entries % ways != 0) return "tlb-ways: must be >= 1 and divide tlb-entries";
  if (miss_penalty < 0 || miss_penalty > 100000) return "tlb-penalty: must be between 0 and 100000 slots";
  return std::nullopt;
}

Tlb::Tlb(const TlbParams& params)
    : ways_(params.ways),
      sets_(static_cast<std::uint64_t>(params.entries / params.ways)),
      lines_(static_cast<std::size_t>(sets_)) {
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  if (!params.enabled()) throw std::invalid_argument("tlb-entries: a TLB needs at least one entry");
}

bool Tlb::access(std::uint64_t page) {
  ++stats_.lookups;
  auto& set = lines_[static_cast<std::size_t>(page % sets_)];
  const auto it = std::find(set.begin(), set.end(), page);
  if (it != set.end()) {
    std::rotate(set.begin(), it, it + 1);  // most recent to the front
    ++stats_.hits;
    return true;
  }
  ++stats_.misses;
  if (set.size() == static_cast<std::size_t>(ways_)) set.pop_back();  // the least recent leaves
  set.insert(set.begin(), page);
  return false;
}

void Tlb::reset() {
  for (auto& s : lines_) s.clear();
  stats_ = {};
}

TlbMemory::TlbMemory(const MemoryModel& inner, const TlbParams& params)
    : inner_(inner), params_(params), tlb_(params) {}

WarpCost TlbMemory::cost(std::span<const Address> warp) const {
  WarpCost c = inner_.cost(warp);
  last_penalty_slots_ = 0;
  if (c.slots == 0) return c;
  // Distinct pages in the order the threads present them (a warp touches a handful at most).
  pages_.clear();
  int misses = 0;
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const std::uint64_t page = a / params_.page_cells;
    if (std::find(pages_.begin(), pages_.end(), page) != pages_.end()) continue;
    pages_.push_back(page);
    if (!tlb_.access(page)) ++misses;
  }
  last_penalty_slots_ = misses * params_.miss_penalty;
  c.slots += last_penalty_slots_;
  return c;
}

std::vector<std::vector<Address>> TlbMemory::partition(std::span<const Address> warp) const {
  auto parts = inner_.partition(warp);
  parts.resize(parts.size() + static_cast<std::size_t>(last_penalty_slots_));
  return parts;
}

namespace {
const MachineParams& checked(const MachineParams& p) {
  if (auto err = p.validate()) throw std::invalid_argument(*err);
  if (p.model != ModelKind::Hmm) throw std::invalid_argument("model: the TLB machine is an HMM");
  return p;
}
}  // namespace

TlbMachine::TlbMachine(const MachineParams& params, const TlbParams& tlb)
    : params_(checked(params)), tlb_params_(tlb), shared_(params.w, params.l), global_(params.w, params.L) {
  if (auto err = tlb.validate()) throw std::invalid_argument(*err);
  if (tlb.enabled()) tlb_.emplace(global_, tlb);
}

MachineView TlbMachine::view() const {
  MachineView v;
  v.shared = &shared_;
  v.global = tlb_ ? static_cast<const MemoryModel*>(&*tlb_) : &global_;
  v.dmms = params_.k;
  return v;
}

TlbStats TlbMachine::tlb_stats() const { return tlb_ ? tlb_->stats() : TlbStats{}; }

void TlbMachine::reset_tlb() const {
  if (tlb_) tlb_->reset();
}

}  // namespace mmsim
