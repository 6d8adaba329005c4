// Histogram of 2^22 random keys into 256 bins: each block counts its keys in shared counters with
// atomic adds (keys that collide in a warp serialise), then adds its counters to the global
// histogram with atomics. Traced and timed (example.cuh); every launch starts from a zeroed
// histogram (a cudaMemsetAsync of 1 KiB inside the timed launch).
#include <random>
#include <vector>

#include "example.cuh"

namespace {

constexpr int kBins = 256, kThreads = 256, kPerThread = 16;

template <bool Traced>
__global__ void histogram(const unsigned* keys_, unsigned* hist_, mmsim::TraceSink sink) {
  __shared__ unsigned counts_[kBins];
  mmsim::trace_array<const unsigned, Traced> keys(keys_, sink, 0);
  mmsim::trace_array<unsigned, Traced> hist(hist_, sink, 1);
  mmsim::trace_array<unsigned, Traced> counts(counts_, sink, 2);
  counts[threadIdx.x] = 0u;
  if (Traced) {
    mmsim::sync(sink);
  } else {
    __syncthreads();
  }
  const unsigned first = blockIdx.x * kThreads * kPerThread + threadIdx.x;
  for (int r = 0; r < kPerThread; ++r) {
    const unsigned key = keys[first + r * kThreads];
    mmsim::atomic_add(counts[key], 1u);
  }
  if (Traced) {
    mmsim::sync(sink);
  } else {
    __syncthreads();
  }
  mmsim::atomic_add(hist[threadIdx.x], static_cast<unsigned>(counts[threadIdx.x]));
}

}  // namespace

int main(int argc, char** argv) {
  using namespace traced_example;
  const Options o = options(argc, argv, "histogram");
  const int blocks = 1024;
  const std::size_t n = static_cast<std::size_t>(blocks) * kThreads * kPerThread;
  std::vector<unsigned> h(n);
  std::mt19937 rng(7);
  for (auto& k : h) k = rng() % kBins;
  std::vector<unsigned> expect(kBins, 0);
  for (unsigned k : h) ++expect[k];
  unsigned *keys, *hist;
  check(cudaMalloc(&keys, n * 4), "cudaMalloc");
  check(cudaMalloc(&hist, kBins * 4), "cudaMalloc");
  check(cudaMemcpy(keys, h.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  mmsim::TraceRecorder rec(std::size_t{256} << 20);
  rec.global_array("keys", n, 4);
  rec.global_array("hist", kBins, 4);
  rec.shared_array("counts", kBins, 4);
  const auto verify = [&] {
    std::vector<unsigned> r(kBins);
    check(cudaMemcpy(r.data(), hist, kBins * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return r == expect;
  };
  const bool ok = run(
      "histogram", o, rec,
      [&] {
        cudaMemsetAsync(hist, 0, kBins * 4);
        histogram<false><<<blocks, kThreads>>>(keys, hist, mmsim::TraceSink{});
      },
      [&](mmsim::TraceRecorder& r) {
        cudaMemsetAsync(hist, 0, kBins * 4);
        histogram<true><<<blocks, kThreads>>>(keys, hist, r.launch("histogram", dim3(blocks), dim3(kThreads)));
      },
      verify);
  cudaFree(keys);
  cudaFree(hist);
  return ok ? 0 : 1;
}
