// The real-access extensions of the machine (docs/model.md, "Real accesses"): the slot rules of a
// warp access whose elements are 1 to 16 bytes, read or written one element or a vector of 2 or 4
// per thread, or updated by an atomic read-modify-write. Measured on an H100 and an H200 with Nsight
// Compute (`mmsim accesses --ncu`, results/gpu-*/ncu-accesses.csv):
//  - shared memory has w banks of 4-byte words; byte address = element index x element size, bank =
//    floor(byte address / 4) mod w. A thread's request covers its bytes' words, and requests to the
//    same word merge (packed bytes of one word cost one request);
//  - an access of b bytes per thread is served in phases of 4w / b threads (b <= 4: the whole warp;
//    8: half-warps; 16: quarter-warps), each phase costing its own congestion, so a warp's slots
//    are the sum over its phases (Nsight Compute's wavefronts). When every pair of threads
//    (2k, 2k + 1) with both threads active asks for one address, a pair counts as one request and a
//    phase holds twice the threads;
//  - an atomic (any op whose old value is used, or an add of a per-thread value) does not merge: a
//    word asked by m threads costs m requests in its bank; only an increment whose result is unused
//    (a histogram's count, which the GPU's shared memory combines over the warp) merges like a read;
//  - in global memory a warp's access costs one transaction per distinct segment (address group
//    of w words in the UMM, 32-byte sector in the GPU-like memory) its bytes touch; an atomic,
//    increments included, costs per segment as many as the most threads on one of its addresses.
// With the extensions off (the papers' model) every cell is one word, a thread moves one cell, and
// equal addresses merge whatever the op: these functions are then not called.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/memory_model.h"
#include "sim/types.h"

namespace mmsim {

/// What one warp instruction moves per thread, as the slot rules need it.
struct AccessShape {
  std::uint32_t element_bytes = 4;  ///< 1, 2, 4, 8 or 16
  std::uint32_t vector = 1;         ///< elements per thread: 1, 2 or 4
  AtomicOp atomic = AtomicOp::None;

  std::uint32_t bytes() const { return element_bytes * vector; }
  /// Threads on one word of a bank serialise: any atomic but an unused increment, which the GPU's
  /// shared memory combines over the warp (ATOMS.POPC.INC).
  bool serialises_in_banks() const { return atomic != AtomicOp::None && atomic != AtomicOp::Increment; }
  /// Threads on one address of a segment serialise: every atomic, increments too (global memory
  /// serves a reduction per thread).
  bool serialises_in_segments() const { return atomic != AtomicOp::None; }
};

/// The shape of an access as the engine describes it (element size 0: a 4-byte word).
AccessShape shape_of(const AccessContext& context);

/// Threads per phase for `bytes` per thread on w banks of 4 bytes (at least 1).
std::uint32_t phase_threads(int w, std::uint32_t bytes);

/// How the shared memory serves one warp access, thread by thread: what `mmsim access` shows and
/// what the slot count is made of.
struct ThreadService {
  int phase = -1;                    ///< -1: the thread requests nothing
  std::vector<std::uint64_t> words;  ///< the 4-byte words its bytes cover, in order
  std::vector<int> slots;            ///< for each word, the warp's slot that carries it
};
struct WarpService {
  std::vector<ThreadService> threads;
  std::uint32_t phase_threads = 0;  ///< threads per phase (doubled when pairs fuse)
  bool fused_pairs = false;         ///< every pair (2k, 2k + 1) asked for one address
  std::vector<int> phase_slots;     ///< slots of each phase (0 for a phase without a request)
  std::vector<int> first_slot;      ///< the warp's slot each phase starts at
};
WarpService serve_in_banks(std::span<const Address> warp, int w, const AccessShape& shape);

/// Shared memory (DMM) with the extensions: slots = sum over phases of the phase's congestion;
/// `phases` = phases that hold a request; congestion = the largest phase congestion.
WarpCost shaped_bank_cost(std::span<const Address> warp, int w, const AccessShape& shape);
/// The same split into slots for traces: slot s holds the element addresses it serves.
std::vector<std::vector<Address>> shaped_bank_slots(std::span<const Address> warp, int w, const AccessShape& shape);

/// Global memory in segments of `segment_bytes` (4w for the UMM's address groups, 32 for sectors):
/// the transactions of one warp access.
std::uint64_t segment_transactions(std::span<const Address> warp, std::uint32_t segment_bytes,
                                   const AccessShape& shape);
/// The UMM with the extensions: slots = transactions on address groups of w words.
WarpCost shaped_group_cost(std::span<const Address> warp, int w, const AccessShape& shape);
std::vector<std::vector<Address>> shaped_group_slots(std::span<const Address> warp, int w, const AccessShape& shape);

}  // namespace mmsim
