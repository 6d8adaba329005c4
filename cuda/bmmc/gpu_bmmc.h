// The GPU side of the BPC / BMMC permutations (BDS Sect. 4-6): timed, checked runs of the
// naive and tiled kernels on float arrays of 2^n cells. No CUDA header leaks out of it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/bmmc/bmmc_index.h"
#include "cuda/harness/timer.h"

namespace mmsim::gpu::bmmc {

/// One launch: dst[A x + c] <- src[x]. naive: thread x moves cell x (BDS Appendix A);
/// otherwise a tiled pass (Sect. 4.1), rows shifted when `banks` (Sect. 4.2), 2^iters tiles per
/// block (Sect. 4.3, iters <= 3).
struct Pass {
  PassArgs args{};
  bool naive = false;
  bool banks = false;
  int iters = 0;
};

/// Launches one pass on 2^bits cells, in -> out (device pointers; the cells are moved as 32-bit
/// patterns, never computed on, so unsigned keys pass through unchanged). Throws GpuError.
void launch_pass(const Pass& p, std::uint32_t bits, const float* in, float* out);

/// Device arrays src, dst and mid of up to 2^capacity_bits floats, and a pinned host copy of dst.
/// src holds source_bits32(x) in cell x; the poison (all ones, a NaN) is none of those values.
class Runner {
 public:
  explicit Runner(std::uint32_t capacity_bits);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  /// Works on 2^bits cells from now on (refills src); bits in [12, capacity].
  void set_size(std::uint32_t bits);
  std::uint64_t n() const;

  /// The 100 % line: src copied to dst in 16-byte vectors (cuda/harness/reference.h).
  Timing copy(const TimingPlan& plan);
  /// The passes in order, src -> (mid ->) dst; at most two. The harness's event timer; dst poisoned
  /// before every run, mid once before the first.
  Timing run(const std::vector<Pass>& passes, const TimingPlan& plan);
  /// dst, copied to the host after the last run.
  const std::uint32_t* fetch();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmsim::gpu::bmmc
