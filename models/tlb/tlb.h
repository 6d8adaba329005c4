// An address-translation cache (TLB) in front of the HMM's global memory, and a machine view with it.
//
// GL Sect. 3.1 traces the slow-down of large transpositions to TLB misses. The memory machine
// models have no virtual memory, so this decorator adds one: cells are grouped into pages of
// `page_cells` consecutive addresses, a set-associative LRU cache of `entries` translations is
// looked up once per distinct page a warp access touches, and each miss charges `miss_penalty`
// extra pipeline slots to that access.
//
// Why slots: a miss starts a page-table walk, whose reads go to the same global memory and take its
// bandwidth; MemoryModel's only per-access output is the slots a warp occupies in the single
// pipeline, so a walk appears as slots that carry no request. Every other warp then waits behind
// it, which is the throughput loss the paper measured (a miss charged as latency alone would be
// hidden by the other warps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/machines.h"
#include "sim/memory_model.h"

namespace mmsim {

struct TlbParams {
  std::uint64_t page_cells = 16384;  ///< cells per page
  int entries = 0;                   ///< translations held; 0: no TLB (the model is off)
  int ways = 4;                      ///< associativity; entries must be a multiple of it
  int miss_penalty = 16;             ///< extra pipeline slots per miss

  bool enabled() const { return entries > 0; }
  /// Empty when valid, else one line "field: rule".
  std::optional<std::string> validate() const;
};

struct TlbStats {
  std::uint64_t lookups = 0;  ///< distinct pages looked up (one per page per warp access)
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
};

/// A set-associative LRU TLB. Set of page p = p mod (entries / ways).
class Tlb {
 public:
  explicit Tlb(const TlbParams& params);
  /// Looks `page` up; true on a hit. A miss installs the page, evicting the set's least recent.
  bool access(std::uint64_t page);
  const TlbStats& stats() const { return stats_; }
  /// Forgets every translation and zeroes the counters.
  void reset();

 private:
  int ways_;
  std::uint64_t sets_;
  // Per set, the pages it holds, most recently used first (at most `ways_`).
  std::vector<std::vector<std::uint64_t>> lines_;
  TlbStats stats_;
};

/// A MemoryModel decorator: the inner model's cost plus `miss_penalty` slots per TLB miss.
///
/// Contract: asked once per warp access at dispatch, in dispatch order (sim/engine.h), so the TLB's
/// state follows the order warps reach the memory. Addresses are the engine's cell indices; a
/// program that wants two arrays to have distinct pages places them in one global array.
class TlbMemory final : public MemoryModel {
 public:
  TlbMemory(const MemoryModel& inner, const TlbParams& params);
  std::string_view name() const override { return "umm+tlb"; }
  int width() const override { return inner_.width(); }
  int latency() const override { return inner_.latency(); }
  WarpCost cost(std::span<const Address> warp) const override;
  /// The inner model's slots, then one empty slot per penalty slot of the last costed access (the
  /// engine asks for the partition right after the cost of the same access, when it traces).
  std::vector<std::vector<Address>> partition(std::span<const Address> warp) const override;

  const TlbStats& stats() const { return tlb_.stats(); }
  void reset() const { tlb_.reset(); }
  const TlbParams& params() const { return params_; }

 private:
  const MemoryModel& inner_;
  TlbParams params_;
  mutable Tlb tlb_;
  mutable int last_penalty_slots_ = 0;
  mutable std::vector<std::uint64_t> pages_;  // scratch: distinct pages of one access
};

/// The HMM of MachineParams with, when `tlb.enabled()`, a TLB on its global memory.
class TlbMachine {
 public:
  /// Throws std::invalid_argument when either parameter set is invalid or the model is not the HMM.
  TlbMachine(const MachineParams& params, const TlbParams& tlb);
  TlbMachine(const TlbMachine&) = delete;  // the TLB refers to global_
  TlbMachine& operator=(const TlbMachine&) = delete;
  MachineView view() const;
  /// Counters of the TLB since construction or the last reset (all zero when it is off).
  TlbStats tlb_stats() const;
  void reset_tlb() const;
  const MachineParams& params() const { return params_; }
  const TlbParams& tlb_params() const { return tlb_params_; }

 private:
  MachineParams params_;
  TlbParams tlb_params_;
  DmmMemory shared_;
  UmmMemory global_;
  std::optional<TlbMemory> tlb_;
};

}  // namespace mmsim
