// The GPU side of BDS Sect. 7's parm sorting network: a sequence of launches over 32-bit keys, each
// a BMMC pass (the kernels of gpu_bmmc.h) or a compare-exchange column, timed and fetched. The host
// decides the sequence (cuda/bmmc/parm_plan.h); no CUDA header leaks out of it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cuda/bmmc/gpu_bmmc.h"
#include "cuda/harness/timer.h"

namespace mmsim::gpu::bmmc {

/// The three device arrays a parm sort moves keys between.
enum class ParmBuffer : std::uint8_t { A, B, Mid };

/// One launch of a parm sort, from buffer `in` to buffer `out`.
struct ParmLaunch {
  enum class Kind : std::uint8_t {
    Pass,           ///< one BMMC pass (`pass`)
    Compare,        ///< the column on adjacent pairs (2i, 2i + 1): minimum to the even cell
    CompareMapped,  ///< the same column on virtual pairs held at cells `where` x (BDS Sect. 7.2's direct parm)
  };
  Kind kind = Kind::Compare;
  Pass pass{};       ///< Pass only
  PassArgs where{};  ///< CompareMapped only: the affine map from virtual position to cell
  ParmBuffer in = ParmBuffer::A, out = ParmBuffer::B;
};

/// Device arrays of up to 2^capacity_bits keys: the input, A, B and Mid, and a pinned host buffer.
class ParmRunner {
 public:
  explicit ParmRunner(std::uint32_t capacity_bits);
  ~ParmRunner();
  ParmRunner(const ParmRunner&) = delete;
  ParmRunner& operator=(const ParmRunner&) = delete;

  /// Uploads 2^bits keys (bits in [12, capacity]) as the input of every later run.
  void set_keys(std::uint32_t bits, const std::vector<std::uint32_t>& keys);
  /// Runs the launches in order with the harness's event timer. Before every run (untimed) the input
  /// is copied to A and B and Mid are poisoned. Throws GpuError.
  Timing run(const std::vector<ParmLaunch>& launches, const TimingPlan& plan);
  /// One run, untimed (for Nsight Compute: each kernel launched once).
  void run_once(const std::vector<ParmLaunch>& launches);
  /// A buffer's keys, copied to the host after the last run.
  const std::uint32_t* fetch(ParmBuffer b);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmsim::gpu::bmmc
