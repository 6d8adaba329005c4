// The one interface between the engine and a memory model: what one warp access costs.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/types.h"

namespace mmsim {

/// Cost of one warp's memory instruction, as a memory model sees it.
struct WarpCost {
  int slots = 0;                ///< pipeline slots the warp occupies (0: not dispatched)
  int congestion = 0;           ///< max over banks of distinct addresses (NMI Sect. II)
  int extra_bank_requests = 0;  ///< sum over banks of (distinct addresses - 1)
  /// Passes of the access that hold a request: 1 in the papers' model; with element widths, the
  /// half- or quarter-warp phases of a 64- or 128-bit access (bank conflicts = slots - phases).
  int phases = 1;
};

/// Which instruction a warp access belongs to, for a model that prices bytes rather than cells
/// (models/gpu_memory): reads and writes, and arrays of different element sizes, cost differently.
struct AccessContext {
  Op op = Op::Read;
  int array = 0;                     ///< the engine's array id: arrays never share a byte
  std::uint32_t element_bytes = 0;   ///< ArrayDecl::element_bytes (0: the model's data element)
  std::uint32_t vector = 1;          ///< elements per thread (Access::vector)
  AtomicOp atomic = AtomicOp::None;  ///< the update of an atomic instruction
  /// The instruction's round: its index in RunStats::rounds (-1: none, as for refuses()). A model
  /// that keeps counts of its own may keep them per round with it (models/gpu_memory); no cost
  /// depends on it.
  int round = -1;
  /// The warp's index in its launch. Within a round-synchronous round the warps are costed in this
  /// order (several threads may cost disjoint ranges of them at once, for an order-free model), so
  /// a model that records its accesses can put them back in dispatch order (predict/sampled.cpp).
  std::uint64_t warp = 0;
};

/// A memory of width w behind one pipeline of `latency()` stages.
///
/// Contract (docs/model.md "One warp access and its slots", KNI Sect. 2):
///  - `cost` is asked once per warp instruction with the w addresses its threads present, kNoAddress
///    for a thread that makes no request; equal addresses merge into one request;
///  - `slots` is 0 exactly when no thread makes a request;
///  - `partition` splits the merged requests into the slots, in the order they enter the pipeline
///    (used only for traces and diagrams, never for time);
///  - `order_free` is true when `cost` and `partition` depend on the addresses alone (no state
///    carried from one access to the next) and may be asked from several threads at once: the
///    engine then costs a round's warps in parallel (sim/engine.h). A model with state (a TLB)
///    keeps the default, false, and sees every access in dispatch order. A model whose costs
///    are order-free but which also records its accesses may say true if its record is safe to
///    add to from several threads and puts the accesses back in dispatch order by
///    AccessContext::round and warp (the sampled prediction's record does).
class MemoryModel {
 public:
  virtual ~MemoryModel() = default;
  virtual std::string_view name() const = 0;
  virtual int width() const = 0;
  virtual int latency() const = 0;
  virtual WarpCost cost(std::span<const Address> warp) const = 0;
  /// The cost of the access with what it is: the engine asks this one. The papers' models price
  /// cells alone and keep the default.
  virtual WarpCost cost_access(std::span<const Address> warp, const AccessContext& /*context*/) const {
    return cost(warp);
  }
  virtual std::vector<std::vector<Address>> partition(std::span<const Address> warp) const = 0;
  /// The slots of the access with what it is; the papers' models keep the default.
  virtual std::vector<std::vector<Address>> partition_access(std::span<const Address> warp,
                                                             const AccessContext& /*context*/) const {
    return partition(warp);
  }
  virtual bool order_free() const { return false; }
  /// Why this memory cannot serve such an access (asked once per instruction before a launch), or
  /// nothing. The papers' models move one word per thread: a vector access needs a model with
  /// element widths (models/machines.h, MachineParams::widths).
  virtual std::optional<std::string> refuses(const AccessContext& context) const {
    if (context.vector > 1)
      return std::string(
          "a vector access moves several cells per thread, which the papers' model does not; "
          "it needs the widths extension");
    return std::nullopt;
  }
};

}  // namespace mmsim
