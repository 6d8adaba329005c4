// The compare-exchange columns of the GPU parm sort (BDS Sect. 7) and the runner that chains them with
// the BMMC passes of kernels.cu. Every CUDA call goes through MMSIM_CK; every launch is followed by
// MMSIM_LAUNCHED.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "cuda/bmmc/gpu_parm.h"
#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"

namespace mmsim::gpu::bmmc {

namespace {

constexpr unsigned kThreads = 256;

// One thread per pair (2i, 2i + 1), read and written as one 8-byte vector: a warp moves 256
// consecutive bytes each way (coalesced).
__global__ void __launch_bounds__(kThreads) k_compare(const uint2* __restrict__ src, uint2* __restrict__ dst) {
  const std::uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  const uint2 v = src[i];
  dst[i] = make_uint2(min(v.x, v.y), max(v.x, v.y));
}

// The direct column: virtual pair (2i, 2i + 1) lives at cells p = A (2i) + c and q = p ^ A e_0,
// wherever the permutations the direct program skips left them (casual accesses).
__global__ void __launch_bounds__(kThreads)
    k_compare_mapped(const __grid_constant__ PassArgs where, const std::uint32_t* __restrict__ src,
                     std::uint32_t* __restrict__ dst) {
  const std::uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  const std::uint32_t p = apply_rows(where, 2 * i) ^ where.c;
  const std::uint32_t q = p ^ apply_rows(where, 1);
  const std::uint32_t a = src[p], b = src[q];
  dst[p] = min(a, b);
  dst[q] = max(a, b);
}

}  // namespace

struct ParmRunner::Impl {
  std::uint32_t capacity = 0, bits = 0;
  std::uint64_t n = 0;
  std::uint32_t *input = nullptr, *buf[3] = {nullptr, nullptr, nullptr}, *host = nullptr;
  EventTimer timer;

  explicit Impl(std::uint32_t cap) : capacity(cap) {
    if (cap < 12 || cap > kMaxBits) throw GpuError("parm: 2^12 to 2^30 keys on the GPU");
    const std::uint64_t bytes = (std::uint64_t{1} << cap) * sizeof(std::uint32_t);
    MMSIM_CK(cudaMalloc(&input, bytes));
    for (auto*& b : buf) MMSIM_CK(cudaMalloc(&b, bytes));
    MMSIM_CK(cudaMallocHost(&host, bytes));
  }
  ~Impl() {
    // Errors on release cannot be reported from a destructor; the runs already checked theirs.
    cudaFreeHost(host);
    for (auto* b : buf) cudaFree(b);
    cudaFree(input);
  }

  std::uint32_t* at(ParmBuffer b) const { return buf[static_cast<int>(b)]; }

  void launch(const ParmLaunch& l) const {
    const std::uint32_t* in = at(l.in);
    std::uint32_t* out = at(l.out);
    if (in == out) throw GpuError("parm: a launch must not write its own input");
    const auto blocks = static_cast<unsigned>(n / 2 / kThreads);
    switch (l.kind) {
      case ParmLaunch::Kind::Pass:
        launch_pass(l.pass, bits, reinterpret_cast<const float*>(in), reinterpret_cast<float*>(out));
        return;
      case ParmLaunch::Kind::Compare:
        k_compare<<<blocks, kThreads>>>(reinterpret_cast<const uint2*>(in), reinterpret_cast<uint2*>(out));
        break;
      case ParmLaunch::Kind::CompareMapped:
        if (l.where.bits != bits) throw GpuError("parm: a column's map is for another size");
        k_compare_mapped<<<blocks, kThreads>>>(l.where, in, out);
        break;
    }
    MMSIM_LAUNCHED();
  }

  void prepare() {
    const std::uint64_t bytes = n * sizeof(std::uint32_t);
    MMSIM_CK(cudaMemcpyAsync(at(ParmBuffer::A), input, bytes, cudaMemcpyDeviceToDevice));
    poison(at(ParmBuffer::B), bytes);
    poison(at(ParmBuffer::Mid), bytes);
  }

  void launch_all(const std::vector<ParmLaunch>& launches) const {
    for (const auto& l : launches) launch(l);
  }
};

ParmRunner::ParmRunner(std::uint32_t capacity_bits) : impl_(std::make_unique<Impl>(capacity_bits)) {}
ParmRunner::~ParmRunner() = default;

void ParmRunner::set_keys(std::uint32_t bits, const std::vector<std::uint32_t>& keys) {
  Impl& I = *impl_;
  if (bits < 12 || bits > I.capacity)
    throw GpuError("parm: 2^" + std::to_string(bits) + " keys is outside [2^12, capacity]");
  if (keys.size() != (std::uint64_t{1} << bits)) throw GpuError("parm: keys and size disagree");
  I.bits = bits;
  I.n = keys.size();
  MMSIM_CK(cudaMemcpy(I.input, keys.data(), I.n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
}

Timing ParmRunner::run(const std::vector<ParmLaunch>& launches, const TimingPlan& plan) {
  Impl& I = *impl_;
  if (I.n == 0) throw GpuError("parm: no keys set");
  return I.timer.time(
      plan, [&] { I.prepare(); }, [&] { I.launch_all(launches); });
}

void ParmRunner::run_once(const std::vector<ParmLaunch>& launches) {
  Impl& I = *impl_;
  if (I.n == 0) throw GpuError("parm: no keys set");
  I.prepare();
  I.launch_all(launches);
  MMSIM_CK(cudaDeviceSynchronize());
}

const std::uint32_t* ParmRunner::fetch(ParmBuffer b) {
  Impl& I = *impl_;
  MMSIM_CK(cudaMemcpy(I.host, I.at(b), I.n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  return I.host;
}

}  // namespace mmsim::gpu::bmmc
