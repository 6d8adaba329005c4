// The CUDA kernels of the calibration microbenchmarks and their launch shapes: one thread per
// output element, 256 threads per block, as predict/microbench.h specifies and as the simulator's
// programs (predict/microbench_programs.cpp) do. The elements are unsigned integers of the bench's
// size: the bytes moved are those of float or double, and every value is exact to check.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda/calibrate/gpu_calibrate.h"
#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"
#include "predict/microbench.h"
#include "predict/microbench_values.h"

namespace mmsim::gpu::calibrate {

namespace {

using predict::MicrobenchKind;
using predict::scatter_hash;

constexpr unsigned kThreads = 256;

__device__ std::uint64_t thread_index() { return std::uint64_t{blockIdx.x} * kThreads + threadIdx.x; }

template <typename T>
__global__ void __launch_bounds__(kThreads) k_fill(T* __restrict__ a, std::uint64_t count) {
  const std::uint64_t i = thread_index();
  if (i < count) a[i] = static_cast<T>(predict::microbench_source(i));
}

__global__ void k_empty() {}

// Copy (stride 1, read) and ReadStride: b[i] = a[i * stride].
template <typename T>
__global__ void __launch_bounds__(kThreads)
    k_read_stride(const T* __restrict__ a, T* __restrict__ b, std::uint64_t count, std::uint32_t stride) {
  const std::uint64_t i = thread_index();
  if (i < count) b[i] = a[i * stride];
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    k_write_stride(const T* __restrict__ a, T* __restrict__ b, std::uint64_t count, std::uint32_t stride) {
  const std::uint64_t i = thread_index();
  if (i < count) b[i * stride] = a[i];
}

template <typename T>
__global__ void __launch_bounds__(kThreads) k_read_random(const T* __restrict__ a, T* __restrict__ b, std::uint32_t n) {
  const std::uint64_t i = thread_index();
  if (i < n) b[i] = a[scatter_hash(static_cast<std::uint32_t>(i)) % n];
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    k_write_random(const T* __restrict__ a, T* __restrict__ b, std::uint32_t n) {
  const std::uint64_t i = thread_index();
  if (i < n) b[scatter_hash(static_cast<std::uint32_t>(i)) % n] = a[i];
}

// ReadTranspose and WriteTranspose: predict::transposed by shifts (the stride and n / stride are
// powers of two: microbench_error).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    k_read_transpose(const T* __restrict__ a, T* __restrict__ b, std::uint64_t n, unsigned stride_log2,
                     unsigned cols_log2) {
  const std::uint64_t i = thread_index();
  if (i < n) b[i] = a[predict::transposed_by_shifts(i, stride_log2, cols_log2)];
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    k_write_transpose(const T* __restrict__ a, T* __restrict__ b, std::uint64_t n, unsigned stride_log2,
                      unsigned cols_log2) {
  const std::uint64_t i = thread_index();
  if (i < n) b[predict::transposed_by_shifts(i, stride_log2, cols_log2)] = a[i];
}

unsigned log2_of(std::uint64_t power_of_two) {
  unsigned k = 0;
  while ((std::uint64_t{1} << k) < power_of_two) ++k;
  return k;
}

// Shared: the block fills its words, then each thread reads `repeats` words at
// (lane * stride + r) mod (32 * stride), every warp access of congestion `stride`. The reads go
// through a volatile pointer, so that the compiler keeps every one of them (two reads of one word,
// r and r + 32 at stride 1, would otherwise merge).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    k_shared(T* __restrict__ b, std::uint64_t count, std::uint32_t stride, std::uint32_t repeats) {
  __shared__ std::uint32_t s[predict::kSharedWords];
  for (std::uint32_t w = threadIdx.x; w < predict::kSharedWords; w += kThreads)
    s[w] = predict::shared_fill(blockIdx.x, w);
  __syncthreads();
  const volatile std::uint32_t* vs = s;
  const std::uint32_t lane = threadIdx.x & 31u, mask = 32u * stride - 1u;  // stride: a power of two
  T sum = 0;
  for (std::uint32_t r = 0; r < repeats; ++r) sum += vs[(lane * stride + r) & mask];
  const std::uint64_t i = thread_index();
  if (i < count) b[i] = sum;
}

// A cold bench's flush: every thread sums a stride of the scratch buffer (twice the L2's size), so
// that the L2 then holds scratch lines, clean, and nothing of a or b; the sum lands in one word.
__global__ void __launch_bounds__(kThreads)
    k_flush(const std::uint32_t* __restrict__ scratch, std::uint64_t words, std::uint32_t* __restrict__ sink) {
  std::uint32_t sum = 0;
  for (std::uint64_t w = thread_index(); w < words; w += std::uint64_t{gridDim.x} * kThreads) sum += scratch[w];
  if (sum == 0x9E3779B9u) *sink = sum;  // never in practice: keeps the reads
}

unsigned blocks_for(std::uint64_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

}  // namespace

struct Runner::Impl {
  std::uint64_t capacity = 0;
  void* a = nullptr;
  void* b = nullptr;
  std::uint32_t* scratch = nullptr;  // cold benches' flush: twice the L2, zeroed once
  std::uint64_t scratch_words = 0;
  EventTimer timer;

  explicit Impl(std::uint64_t bytes) : capacity(bytes) {
    MMSIM_CK(cudaMalloc(&a, bytes));
    MMSIM_CK(cudaMalloc(&b, bytes));
    int device = 0, l2 = 0;
    MMSIM_CK(cudaGetDevice(&device));
    MMSIM_CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    scratch_words = std::uint64_t{2} * static_cast<std::uint64_t>(std::max(l2, 1 << 20)) / sizeof(std::uint32_t);
    MMSIM_CK(cudaMalloc(&scratch, (scratch_words + 1) * sizeof(std::uint32_t)));
    MMSIM_CK(cudaMemset(scratch, 0, (scratch_words + 1) * sizeof(std::uint32_t)));
  }
  ~Impl() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(scratch);
  }

  template <typename T>
  Timing run(const predict::Microbench& m, const TimingPlan& plan) {
    const std::uint64_t threads = predict::microbench_threads(m), in = predict::microbench_input_size(m);
    const std::uint64_t out_bytes = predict::microbench_output_size(m) * sizeof(T);
    if (in * sizeof(T) > capacity || out_bytes > capacity) throw GpuError(m.name() + ": does not fit the arrays");
    const T* src = static_cast<const T*>(a);
    T* dst = static_cast<T*>(b);
    if (in) {
      k_fill<T><<<blocks_for(in), kThreads>>>(static_cast<T*>(a), in);
      MMSIM_LAUNCHED();
    }
    const unsigned blocks = blocks_for(threads);
    const auto n32 = static_cast<std::uint32_t>(m.n);
    const unsigned stride_log2 = log2_of(m.stride), cols_log2 = log2_of(m.n / m.stride);
    const auto launch = [&] {
      switch (m.kind) {
        case MicrobenchKind::Empty:
          for (std::uint32_t i = 0; i < predict::empty_launches(m); ++i) k_empty<<<1, 32>>>();
          break;
        case MicrobenchKind::Copy:
          k_read_stride<T><<<blocks, kThreads>>>(src, dst, threads, 1);
          break;
        case MicrobenchKind::ReadStride:
          k_read_stride<T><<<blocks, kThreads>>>(src, dst, threads, m.stride);
          break;
        case MicrobenchKind::WriteStride:
          k_write_stride<T><<<blocks, kThreads>>>(src, dst, threads, m.stride);
          break;
        case MicrobenchKind::ReadRandom:
          k_read_random<T><<<blocks, kThreads>>>(src, dst, n32);
          break;
        case MicrobenchKind::WriteRandom:
          k_write_random<T><<<blocks, kThreads>>>(src, dst, n32);
          break;
        case MicrobenchKind::Shared:
          k_shared<T><<<blocks, kThreads>>>(dst, threads, m.stride, m.repeats);
          break;
        case MicrobenchKind::ReadTranspose:
          k_read_transpose<T><<<blocks, kThreads>>>(src, dst, m.n, stride_log2, cols_log2);
          break;
        case MicrobenchKind::WriteTranspose:
          k_write_transpose<T><<<blocks, kThreads>>>(src, dst, m.n, stride_log2, cols_log2);
          break;
      }
      MMSIM_LAUNCHED();
    };
    return timer.time(
        plan,
        [&] {
          if (out_bytes) poison(b, out_bytes);
          if (m.cold) {
            k_flush<<<blocks_for(scratch_words / 64), kThreads>>>(scratch, scratch_words, scratch + scratch_words);
            MMSIM_LAUNCHED();
          }
        },
        launch);
  }
};

Runner::Runner(std::uint64_t capacity_bytes) : impl_(std::make_unique<Impl>(capacity_bytes)) {}
Runner::~Runner() = default;

Timing Runner::run(const predict::Microbench& m, const TimingPlan& plan) {
  if (const char* err = predict::microbench_error(m)) throw GpuError(m.name() + ": " + err);
  return m.element_bytes == 8 ? impl_->run<std::uint64_t>(m, plan) : impl_->run<std::uint32_t>(m, plan);
}

void Runner::fetch(void* host, std::uint64_t bytes) {
  if (bytes > impl_->capacity) throw GpuError("fetch: more bytes than b holds");
  MMSIM_CK(cudaMemcpy(host, impl_->b, bytes, cudaMemcpyDeviceToHost));
}

}  // namespace mmsim::gpu::calibrate
