// Statistics of a run, as plain values: one record per round and one per run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/types.h"

namespace mmsim {

/// One round: a memory instruction executed by every thread of a kernel (docs/model.md "Rounds and barriers").
struct RoundStats {
  std::string kernel;
  std::string name;
  std::string array;  ///< the array the instruction reads or writes
  Space memory = Space::Global;
  Op op = Op::Read;
  std::uint64_t slots = 0;              ///< pipeline slots over all warps
  std::uint64_t requests = 0;           ///< thread requests before merging
  std::uint64_t warps = 0;              ///< warps dispatched (with at least one request)
  std::optional<TimeUnits> time_units;  ///< round-synchronous time; empty in asynchronous runs
  int max_congestion = 0;               ///< max over warps of the slots one warp took: its DMM congestion
                                        ///< (shared) or its distinct address groups (global)
  /// Shared memory only: sum over warps of (slots - phases that hold a request), the wavefronts
  /// beyond one per phase; with one phase a warp (the papers' machine), slots - 1. This is what
  /// Nsight Compute counts as l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st/atom
  /// (results/gpu-*/rap-ncu.md and accesses-ncu.md: equal on every row).
  std::uint64_t bank_conflicts = 0;
  /// Shared memory only: sum over warps and banks of (distinct addresses in the bank - 1), the
  /// requests that queue behind another one of their bank. It exceeds bank_conflicts whenever a
  /// warp has more than one congested bank.
  std::uint64_t extra_bank_requests = 0;

  bool operator==(const RoundStats&) const = default;
};

/// One kernel launch.
struct KernelStats {
  std::string name;
  TimeUnits time_units = 0;
  double host_seconds = 0;  ///< wall-clock time the engine took to simulate the launch
};

struct RunStats {
  TimeUnits time_units = 0;
  std::vector<KernelStats> kernels;
  std::vector<RoundStats> rounds;

  double host_seconds() const {
    double t = 0;
    for (const auto& k : kernels) t += k.host_seconds;
    return t;
  }

  std::uint64_t requests() const {
    std::uint64_t r = 0;
    for (const auto& x : rounds) r += x.requests;
    return r;
  }
};

/// One slot's passage through a pipeline, for traces and the `access` diagram.
struct SlotEvent {
  int round = 0;                  ///< index into RunStats::rounds
  int memory = 0;                 ///< 0: global; 1 + d: shared memory of DMM d
  std::uint64_t warp = 0;         ///< warp index over the launch
  int slot = 0;                   ///< 0-based slot of that warp's access
  TimeUnits enter = 0;            ///< time unit the slot enters the pipeline
  TimeUnits complete = 0;         ///< time unit at whose end its requests complete
  std::vector<Address> requests;  ///< merged requests carried by the slot
};

}  // namespace mmsim
