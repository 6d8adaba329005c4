// What a warp's instructions cost besides its memory accesses, fitted on the instruction
// microbenchmarks (predict/instruction_bench.h) alone: the term that the memory-only cost models
// lack for kernels that compute between their accesses (AS's one-warp algorithms).
//
// Each setting prices a warp by three counts: its warp instructions (what Nsight Compute counts,
// smsp__inst_executed), its shared-memory accesses and their extra slots (the DMM's slots beyond one
// per access: the sum of congestion - 1), the last two from the simulator. Two forms are fitted:
//     additive   cycles = W * (a * instructions + b * accesses + c * extra slots)
//     bound      cycles = W * max(a * instructions, b * accesses + c * extra slots)
// (W = 1 for a warp alone, kInstructionWarpsPerSm for an SM of warps): a latency-bound warp adds
// its parts up, an SM of warps is bound by its busier pipe, its issue or its shared-memory banks.
// Each is fitted by non-negative least squares on relative errors (predict/fit.h; the bound form by
// assigning each sample to the part that binds it and fitting again until no sample moves), and
// made once per kind left out, predicting the kind it did not see; per setting the form with the
// smaller median held-out error is kept. An SM of W warps then takes the larger of one warp's
// cycles alone and its own fitted cycles (sm_cycles).
//
// A warp alone is fitted on the kinds whose accesses wait for each other (every kind but
// shared-stream): the DMM's rounds make a warp wait for its access before its next step
// (docs/model.md), so a warp that keeps independent loads in flight is outside what it prices;
// shared-stream's lone error is still reported (InstructionCosts::lone_outside).
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

/// Whether a kind's warp waits for each shared access before the next (all but shared-stream).
bool accesses_wait(const std::string& kind);

enum class CostForm : std::uint8_t { Additive, Bound };
const char* to_string(CostForm form);

/// One setting's fitted costs: cycles per warp instruction, per shared access, per extra slot.
struct SettingCosts {
  CostForm form = CostForm::Additive;
  double instruction = 0, access = 0, extra_slot = 0;
  /// Median |predicted / measured - 1| of the samples it was fitted on, and of each sample
  /// predicted by the fit that left its kind out (the form chosen on this one).
  double fitted = 0, held_out = 0, held_out_other_form = 0;
  double worst_held_out = 1;  ///< the largest factor between a held-out prediction and its time
  /// The factor that covers kIntervalCoverage of the held-out predictions (predict/fit.h): the
  /// interval of what this setting prices.
  double interval_factor = 1;
  int samples = 0;
  /// Cycles of `warps` such warps (1: a warp alone) at these costs.
  double cycles(double warp_instructions, double steps, double extra_slots, double warps) const;
};

struct InstructionCosts {
  SettingCosts lone, many;
  /// The lone samples outside the fit (kinds whose accesses do not wait): their median error.
  double lone_outside = 0;
  int lone_outside_samples = 0;
};

/// Fits both settings. Throws std::invalid_argument when a setting has fewer than three samples to
/// fit on or a sample's cycles are not positive.
InstructionCosts fit_instruction_costs(const std::vector<InstructionSample>& samples);

/// One line for people: each setting's form and costs, how many microbenchmarks it was fitted on and
/// its median errors fitted and held out, and its worst held-out factor.
std::string describe(const InstructionCosts& c);

/// Cycles of one warp alone.
double lone_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots);
/// Cycles of an SM running `warps` such warps at once (all resident): the larger of one warp's
/// cycles alone and the many setting's cycles for `warps`.
double sm_cycles(const InstructionCosts& c, double warp_instructions, double steps, double extra_slots, double warps);

}  // namespace mmsim::predict
