// The CUDA kernels of the BPC / BMMC permutations (BDS Sect. 4-5 and Appendix A), generic
// at run time: the matrix rows, the complement and the bit masks come in as kernel arguments, and
// the index bits are parities computed on the device; and their launch shapes. The timing, the
// poison, the source fill and the copy are cuda/harness's. Every CUDA call goes through MMSIM_CK;
// every launch is followed by MMSIM_LAUNCHED.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "cuda/bmmc/gpu_bmmc.h"
#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"
#include "cuda/harness/reference.h"

namespace mmsim::gpu::bmmc {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kFull = 0xFFFFFFFFu;

// Appendix A's naive kernel: thread x moves cell x to A x + c. The output index is split by
// linearity into the warp's high bits, A (x & ~31), one parity per lane gathered by a ballot, and
// the lane's part, A lane, from a 32-entry table that warp 0 builds while the loads are in flight.
__global__ void __launch_bounds__(kThreads)
    k_naive(const __grid_constant__ PassArgs a, const float* __restrict__ src, float* __restrict__ dst) {
  __shared__ std::uint32_t s_rows[32], s_lane_out[32];
  const std::uint32_t lane = threadIdx.x & (kW - 1), warp = threadIdx.x >> kLogW;
  const std::uint32_t x = blockIdx.x * kThreads + threadIdx.x;
  const float v = src[x];
  if (warp == 0) {
    s_rows[lane] = a.rows[lane];
    s_lane_out[lane] = apply_rows(a, lane);
  }
  __syncthreads();
  const std::uint32_t high = __ballot_sync(kFull, parity_bit(s_rows[lane], x & ~(kW - 1)));
  dst[high ^ s_lane_out[lane] ^ a.c] = v;
}

// Sect. 4.1-4.3's tiled pass: a block of 32 x 2^(5 - over) threads moves 2^Iters tiles. Read
// phase: warp `warp` reads 32 consecutive cells into tile row `warp` (one ballot gives the block,
// row and shift bits, bmmc_index.h). Write phase: lane L takes the tile row bits deposit(L, row),
// the warp the column-only bits, so a warp writes 32 consecutive cells; with Banks the rows are
// rotated and the column reads hit every bank once. All loads of a thread are issued before its
// first shared-memory store.
template <bool Banks, int Iters>
__global__ void __launch_bounds__(1024)
    k_tiled(const __grid_constant__ PassArgs a, const float* __restrict__ src, float* __restrict__ dst) {
  extern __shared__ float tile[];
  __shared__ std::uint32_t s_rows[32], s_lane_tile[32], s_lane_out[32];
  constexpr int kReps = 1 << Iters;
  const std::uint32_t lane = threadIdx.x & (kW - 1), warp = threadIdx.x >> kLogW;
  const std::uint32_t cells = a.warps << kLogW;

  const std::uint32_t word = __ballot_sync(kFull, read_word_bit(a, lane, warp, blockIdx.x));
  std::uint32_t e_in[3] = {};
#pragma unroll
  for (int k = 0; k < Iters; ++k) e_in[k] = nth_bit(a.iter, static_cast<std::uint32_t>(k));
  const std::uint32_t base = read_source(a, word, lane, 0);
  float v[kReps];
#pragma unroll
  for (int it = 0; it < kReps; ++it)
    v[it] = src[base | iter_combo(static_cast<std::uint32_t>(it), e_in[0], e_in[1], e_in[2])];
  if (warp == 0) {
    s_rows[lane] = a.rows[lane];
    s_lane_tile[lane] = lane_tile(a, lane, Banks);
    s_lane_out[lane] = lane_out(a, lane);
  }
  const std::uint32_t tw = read_tile_cell(word, warp, lane, Banks);
#pragma unroll
  for (int it = 0; it < kReps; ++it) tile[it * cells + tw] = v[it];
  __syncthreads();

  const std::uint32_t row = s_rows[lane];
  const std::uint32_t out = __ballot_sync(kFull, parity_bit(row, warp_out_operand(a, word))) ^ a.c ^ s_lane_out[lane];
  std::uint32_t e_out[3] = {};
#pragma unroll
  for (int k = 0; k < Iters; ++k) e_out[k] = __ballot_sync(kFull, parity_bit(row, e_in[k]));
  const std::uint32_t tr = write_tile_cell(s_lane_tile[lane], word);
#pragma unroll
  for (int it = 0; it < kReps; ++it)
    dst[out ^ iter_combo(static_cast<std::uint32_t>(it), e_out[0], e_out[1], e_out[2])] = tile[it * cells + tr];
}

}  // namespace

void launch_pass(const Pass& p, std::uint32_t bits, const float* in, float* out) {
  const PassArgs& a = p.args;
  if (a.bits != bits)
    throw GpuError("pass: built for 2^" + std::to_string(a.bits) + " cells, not 2^" + std::to_string(bits));
  const std::uint64_t n = std::uint64_t{1} << bits;
  if (p.naive) {
    k_naive<<<static_cast<unsigned>(n / kThreads), kThreads>>>(a, in, out);
    MMSIM_LAUNCHED();
    return;
  }
  if (p.iters < 0 || p.iters > 3 || (!p.banks && p.iters != 0))
    throw GpuError("pass: iterations need the bank shift and are at most 3");
  const std::uint64_t threads = std::uint64_t{a.warps} * kW;
  if (a.warps == 0 || a.warps > kW || (a.warps & (a.warps - 1)) != 0 ||
      std::uint64_t{a.blocks} * (threads << p.iters) != n)
    throw GpuError("pass: the tile layout does not cover the array");
  const std::size_t shared = static_cast<std::size_t>((threads << p.iters) * sizeof(float));
  const auto t = static_cast<unsigned>(threads);
  if (!p.banks) {
    k_tiled<false, 0><<<a.blocks, t, shared>>>(a, in, out);
  } else {
    switch (p.iters) {
      case 0:
        k_tiled<true, 0><<<a.blocks, t, shared>>>(a, in, out);
        break;
      case 1:
        k_tiled<true, 1><<<a.blocks, t, shared>>>(a, in, out);
        break;
      case 2:
        k_tiled<true, 2><<<a.blocks, t, shared>>>(a, in, out);
        break;
      default:
        k_tiled<true, 3><<<a.blocks, t, shared>>>(a, in, out);
        break;
    }
  }
  MMSIM_LAUNCHED();
}

struct Runner::Impl {
  std::uint32_t capacity = 0, bits = 0;
  std::uint64_t n = 0;
  float *src = nullptr, *dst = nullptr, *mid = nullptr;
  std::uint32_t* host = nullptr;
  EventTimer timer;

  explicit Impl(std::uint32_t cap) : capacity(cap) {
    if (cap < 12 || cap > kMaxBits) throw GpuError("size: 2^12 to 2^30 cells on the GPU");
    const std::uint64_t bytes = (std::uint64_t{1} << cap) * sizeof(float);
    MMSIM_CK(cudaMalloc(&src, bytes));
    MMSIM_CK(cudaMalloc(&dst, bytes));
    MMSIM_CK(cudaMalloc(&mid, bytes));
    MMSIM_CK(cudaMallocHost(&host, bytes));
  }
  ~Impl() {
    // Errors on release cannot be reported from a destructor; the runs already checked theirs.
    cudaFreeHost(host);
    cudaFree(mid);
    cudaFree(dst);
    cudaFree(src);
  }

  void set_size(std::uint32_t b) {
    if (b < 12 || b > capacity) throw GpuError("size: 2^" + std::to_string(b) + " cells is outside [2^12, capacity]");
    bits = b;
    n = std::uint64_t{1} << b;
    fill_source(src, n, sizeof(float));
  }

  void launch(const Pass& p, const float* in, float* out) const { launch_pass(p, bits, in, out); }

  template <typename Launch>
  Timing measure(Launch launch_all, const TimingPlan& plan) {
    if (plan.runs < 20) throw GpuError("runs: at least 20 timed runs");
    return timer.time(
        plan, [&] { poison(dst, n * sizeof(float)); }, launch_all);
  }
};

Runner::Runner(std::uint32_t capacity_bits) : impl_(std::make_unique<Impl>(capacity_bits)) {}
Runner::~Runner() = default;
void Runner::set_size(std::uint32_t bits) { impl_->set_size(bits); }
std::uint64_t Runner::n() const { return impl_->n; }

Timing Runner::copy(const TimingPlan& plan) {
  Impl& I = *impl_;
  if (I.n == 0) throw GpuError("copy: no size set");
  return I.measure([&] { launch_copy16(I.src, I.dst, I.n * sizeof(float)); }, plan);
}

Timing Runner::run(const std::vector<Pass>& passes, const TimingPlan& plan) {
  Impl& I = *impl_;
  if (I.n == 0) throw GpuError("run: no size set");
  if (passes.empty() || passes.size() > 2) throw GpuError("run: one or two passes");
  // The intermediate array starts poisoned, so a first pass that skips a cell is caught too.
  if (passes.size() == 2) poison(I.mid, I.n * sizeof(float));
  return I.measure(
      [&] {
        if (passes.size() == 1) {
          I.launch(passes[0], I.src, I.dst);
        } else {
          I.launch(passes[0], I.src, I.mid);
          I.launch(passes[1], I.mid, I.dst);
        }
      },
      plan);
}

const std::uint32_t* Runner::fetch() {
  Impl& I = *impl_;
  MMSIM_CK(cudaMemcpy(I.host, I.dst, I.n * sizeof(float), cudaMemcpyDeviceToHost));
  return I.host;
}

}  // namespace mmsim::gpu::bmmc
