// What a warp's instructions cost besides its memory accesses, fitted on the instruction
// microbenchmarks (predict/instruction_bench.h) alone: the term that the memory-only cost models
// lack for kernels that compute between their accesses (AS's one-warp algorithms).
//
// A warp alone is latency-bound: its cycles are
//     lone = a * warp instructions + b * shared accesses + c * extra slots
// (extra slots: the DMM's slots beyond one per access, the sum of congestion - 1). An SM with W
// such warps is bound by whichever is slower, one warp's own pace or the SM's throughput:
//     sm = max(lone, W * (p * warp instructions + q * shared accesses + r * extra slots)).
// a..c are fitted on the lone microbenchmarks, p..r on the `many` ones (32 warps on every SM), each
// by non-negative least squares on relative errors (predict/fit.h). The warp instructions are what
// Nsight Compute counts (smsp__inst_executed); the accesses and slots come from the simulator.
// Each fit is also made once per kind left out, predicting the kind it did not see: the held-out
// error says how far the costs carry to work they were not fitted on.
#pragma once

#include <string>
#include <vector>

namespace mmsim::predict {

/// One instruction microbenchmark as timed and counted.
struct InstructionSample {
  std::string bench;  ///< instruction_bench's name, e.g. shared-chase-c8
  std::string kind;   ///< its kind: what a cross-validation leaves out together
  bool many = false;
  double cycles = 0;  ///< lone: the warp's cycles; many: one SM's cycles for its kInstructionWarpsPerSm warps
  double warp_instructions = 0, steps = 0, extra_slots = 0;  ///< of one warp
};

struct InstructionCosts {
  double lone_instruction = 0, lone_step = 0, lone_extra_slot = 0;  ///< a, b, c: cycles of a warp alone
  double many_instruction = 0, many_step = 0, many_extra_slot = 0;  ///< p, q, r: an SM's cycles per warp's unit
  /// Median |predicted / measured - 1| of each setting's samples, each predicted by the fit that left
  /// its kind out; and over the samples it was fitted on.
  double lone_held_out = 0, many_held_out = 0, lone_fitted = 0, many_fitted = 0;
  int lone_samples = 0, many_samples = 0;
};

/// Fits both settings. Throws std::invalid_argument when a setting has fewer than three samples or
/// a sample's cycles are not positive.
InstructionCosts fit_instruction_costs(const std::vector<InstructionSample>& samples);

/// Cycles of one warp alone.
double lone_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots);
/// Cycles of an SM running `warps` such warps at once (all resident).
double sm_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots, double warps);

}  // namespace mmsim::predict
