// The GPU side of the calibration microbenchmarks (predict/microbench.h): one kernel per kind,
// timed with the harness's event timer, b poisoned before every run. No CUDA header leaks out.
#pragma once

#include <cstdint>
#include <memory>

#include "cuda/harness/timer.h"
#include "predict/microbench.h"

namespace mmsim::gpu::calibrate {

/// Device arrays a and b of `capacity_bytes` each.
class Runner {
 public:
  explicit Runner(std::uint64_t capacity_bytes);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  /// Fills a with microbench_source (predict/microbench_reference.h), then times the bench's
  /// kernel: `plan` runs, each after b was poisoned. Throws GpuError (also for a bench that does not
  /// fit or that predict::microbench_error refuses).
  Timing run(const predict::Microbench& m, const TimingPlan& plan);

  /// Copies the first `bytes` of b to `host`.
  void fetch(void* host, std::uint64_t bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmsim::gpu::calibrate
