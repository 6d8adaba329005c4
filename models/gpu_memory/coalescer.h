// The first stage of the GPU-like global memory: a warp's addresses become the sectors it asks of
// the L2, with the bytes it touches in each.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "models/gpu_memory/params.h"
#include "sim/memory_model.h"

namespace mmsim {

/// One sector of a warp access and the bytes of it the access touches (bit i: byte i).
struct SectorTouch {
  std::uint64_t sector = 0, mask = 0;
};

/// A warp access as the memory below sees it.
struct WarpRequest {
  Op op = Op::Read;
  std::uint64_t umm_groups = 0;          ///< distinct address groups of w cells (the papers' UMM slots)
  std::uint64_t l2_transactions = 0;     ///< distinct 128-byte lines (kL2LineBytes)
  std::span<const SectorTouch> sectors;  ///< distinct sectors, in the order the lanes first touch them
  std::span<const std::uint64_t> lines;  ///< distinct lines (byte / kL2LineBytes), in the same order
  /// Sector transactions: the distinct sectors, except that an atomic (context.atomic set) serves
  /// the threads on one address one by one, so a sector costs as many as the most threads on one
  /// of its addresses (docs/model.md, "Real accesses"; Nsight Compute's sectors of a global atomic).
  std::uint64_t transactions = 0;
};

/// Contract: a function of the warp's addresses and its context alone (no state is carried from
/// one access to the next; only its scratch is reused, so the request it returns lasts until the
/// next call). A cell is `context.element_bytes` bytes, or the memory's element size when the
/// array declares none; a lane moves `context.vector` cells from its address on (a float4: four),
/// every byte of them counted in the sectors and lines it falls in; array a starts at byte
/// a * 2^40, so arrays never share a sector; lanes with kNoAddress make no request. The one
/// coalescing rule of the GPU-like memory: the predictor's hierarchy and `mmsim access --sectors`
/// (teaching/access.h, add_sectors) both ask it.
class Coalescer {
 public:
  Coalescer(int w, std::uint32_t sector_bytes, std::uint32_t element_bytes);
  const WarpRequest& operator()(std::span<const Address> warp, const AccessContext& context);

 private:
  // The distinct keys of one warp access, each with the index it was given in first-touch order:
  // open addressing over 2w slots with generation stamps, so a warp costs O(w) and no clearing.
  class KeyIndex {
   public:
    explicit KeyIndex(int w);
    /// Room for `keys` distinct keys in one access (grows the table, never shrinks it).
    void reserve(std::size_t keys);
    void start();
    /// The index of `key`, or `next` (given to it) when it is new this access.
    std::uint32_t find_or_add(std::uint64_t key, std::uint32_t next);

   private:
    std::vector<std::uint64_t> keys_;
    std::vector<std::uint32_t> stamp_, index_;
    std::uint32_t gen_ = 0;
    std::size_t mask_ = 0;
  };

  int w_;
  int sector_shift_;
  std::uint32_t sector_bytes_, element_bytes_;
  std::vector<SectorTouch> touched_;
  KeyIndex groups_, lines_, sectors_;
  // An atomic's transactions over the sectors just found (WarpRequest::transactions).
  std::uint64_t atomic_transactions(std::span<const Address> warp, std::uint64_t base, std::uint64_t bytes);

  std::vector<std::uint64_t> line_list_;                    // the lines in first-touch order (WarpRequest::lines)
  std::vector<std::pair<Address, std::uint64_t>> repeats_;  // an atomic's addresses and their threads
  WarpRequest request_;
};

}  // namespace mmsim
