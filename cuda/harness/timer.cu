// The event timer and the statistic of cuda/harness/timer.h.
#include <algorithm>

#include "cuda/harness/check.h"
#include "cuda/harness/timer.h"

namespace mmsim::gpu {

Summary summarize(std::vector<double> v) {
  if (v.empty()) throw GpuError("timer: no samples (at least one timed run)");
  std::sort(v.begin(), v.end());
  Summary s;
  s.count = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  return s;
}

EventTimer::EventTimer() {
  MMSIM_CK(cudaEventCreate(&start_));
  try {
    MMSIM_CK(cudaEventCreate(&stop_));
  } catch (...) {
    cudaEventDestroy(start_);
    throw;
  }
}

EventTimer::~EventTimer() {
  // Errors on release cannot be reported from a destructor; the runs already checked theirs.
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventTimer::synchronize() { MMSIM_CK(cudaDeviceSynchronize()); }

void EventTimer::start() { MMSIM_CK(cudaEventRecord(start_)); }

double EventTimer::stop_ms() {
  MMSIM_CK(cudaEventRecord(stop_));
  MMSIM_CK(cudaEventSynchronize(stop_));
  float ms = 0;
  MMSIM_CK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

Timing EventTimer::timing_of(std::vector<double> ms) {
  const Summary s = summarize(std::move(ms));
  return {s.median, s.min, s.max, static_cast<int>(s.count)};
}

}  // namespace mmsim::gpu
