// The instruction microbenchmarks' kernels (predict/instruction_bench.h says what each computes).
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "cuda/harness/check.h"
#include "cuda/harness/device.h"
#include "cuda/harness/device_buffer.cuh"
#include "cuda/harness/poison.h"
#include "cuda/harness/warp_copy.cuh"
#include "cuda/instructions/gpu_instructions.h"

namespace mmsim::gpu::instructions {

namespace {

using predict::InstructionKind;
constexpr std::uint32_t kLanes = 32;

template <InstructionKind K>
__device__ std::uint32_t body(const std::uint32_t* s, std::uint32_t a, std::uint32_t lane, std::uint32_t iterations) {
  if constexpr (K == InstructionKind::AluChain) {
    std::uint32_t x = lane;
    for (std::uint32_t i = 0; i < iterations; ++i) x = predict::instruction_alu_step(x);
    return x;
  } else if constexpr (K == InstructionKind::AluParallel) {
    std::uint32_t x0 = lane, x1 = lane + 1, x2 = lane + 2, x3 = lane + 3;
    for (std::uint32_t i = 0; i < iterations; ++i) {
      x0 = predict::instruction_alu_step(x0);
      x1 = predict::instruction_alu_step(x1);
      x2 = predict::instruction_alu_step(x2);
      x3 = predict::instruction_alu_step(x3);
    }
    return x0 ^ x1 ^ x2 ^ x3;
  } else if constexpr (K == InstructionKind::SharedChase) {
    for (std::uint32_t i = 0; i < iterations; ++i) a = s[a];
    return a;
  } else if constexpr (K == InstructionKind::SharedStream) {
    const volatile std::uint32_t* vs = s;  // every load kept, none depending on another
    std::uint32_t sum = 0;
    for (std::uint32_t i = 0; i < iterations; ++i) sum += vs[a];
    return sum;
  } else {
    std::uint32_t y = lane;
    for (std::uint32_t i = 0; i < iterations; ++i) {
      a = s[a];
      y = predict::instruction_branch_step(y, a, lane);
    }
    return y ^ a;
  }
}

template <InstructionKind K>
__global__ void __launch_bounds__(kLanes) k_bench(std::uint32_t congestion, std::uint32_t iterations,
                                                  std::uint32_t* __restrict__ out, long long* __restrict__ cycles) {
  __shared__ std::uint32_t s[predict::kInstructionSharedWords];
  const std::uint32_t lane = threadIdx.x;
  for (std::uint32_t j = lane; j < predict::kInstructionSharedWords; j += kLanes) s[j] = j;
  __syncwarp();
  const std::uint32_t start = predict::instruction_start_word(lane, congestion);
  const long long t0 = clock64();
  const std::uint32_t r = body<K>(s, start, lane, iterations);
  out[blockIdx.x * kLanes + lane] = r;  // issued before the clock is read: the work is done
  __syncwarp();
  const long long t1 = clock64();
  if (lane == 0) cycles[blockIdx.x] = t1 - t0;
}

using KernelFn = void (*)(std::uint32_t, std::uint32_t, std::uint32_t*, long long*);

KernelFn kernel_of(InstructionKind k) {
  switch (k) {
    case InstructionKind::AluChain:
      return k_bench<InstructionKind::AluChain>;
    case InstructionKind::AluParallel:
      return k_bench<InstructionKind::AluParallel>;
    case InstructionKind::SharedChase:
      return k_bench<InstructionKind::SharedChase>;
    case InstructionKind::SharedStream:
      return k_bench<InstructionKind::SharedStream>;
    case InstructionKind::Branchy:
      return k_bench<InstructionKind::Branchy>;
  }
  throw GpuError("unknown instruction microbenchmark");
}

struct Launch {
  std::uint32_t blocks;
  DeviceBuffer out, cycles;
  explicit Launch(std::uint32_t b) : blocks(b), out(std::uint64_t{b} * kLanes * 4), cycles(std::uint64_t{b} * 8) {}
  void run(const predict::InstructionBench& b) {
    kernel_of(b.kind)<<<blocks, kLanes>>>(b.congestion, b.iterations, static_cast<std::uint32_t*>(out.p),
                                          static_cast<long long*>(cycles.p));
    MMSIM_LAUNCHED();
  }
  bool check(const predict::InstructionBench& b) const {
    std::vector<std::uint32_t> got(std::uint64_t{blocks} * kLanes);
    MMSIM_CK(cudaMemcpy(got.data(), out.p, got.size() * 4, cudaMemcpyDeviceToHost));
    for (std::uint64_t i = 0; i < got.size(); ++i)
      if (got[i] != predict::instruction_reference(b, static_cast<std::uint32_t>(i % kLanes))) return false;
    return true;
  }
  long long first_cycles() const {
    long long c = 0;
    MMSIM_CK(cudaMemcpy(&c, cycles.p, sizeof c, cudaMemcpyDeviceToHost));
    return c;
  }
};

void check_bench(const predict::InstructionBench& b) {
  if (b.congestion == 0 || b.congestion > 32 || (b.congestion & (b.congestion - 1)))
    throw GpuError(b.name() + ": the congestion must be a power of two, 1 to 32");
  if (b.iterations == 0) throw GpuError(b.name() + ": no iterations");
}

// A copy bench's block: its rows into shared memory and back out (what an A-S kernel does around its
// work, with the same helpers).
__global__ void __launch_bounds__(kLanes)
    k_copy(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, std::uint32_t rows) {
  extern __shared__ std::uint32_t s[];
  const std::uint64_t words = std::uint64_t{kLanes} * rows;
  warp_copy_through_shared(s, in + blockIdx.x * words, out + blockIdx.x * words, words);
}

// A tile bench's block (predict/instruction_bench.h): K independent loads a thread, into shared
// memory, a barrier, then each thread stores its neighbour's words. `out` may be `in` (in place):
// every load of the block precedes the barrier, every store follows it, and no other block touches
// the tile, so neither pointer is __restrict__. A block has kTileThreads or 1024 threads.
template <int K>
__global__ void __launch_bounds__(1024) k_tile(const std::uint32_t* in, std::uint32_t* out) {
  extern __shared__ std::uint32_t tile[];
  const std::uint32_t kThreads = blockDim.x;
  const std::uint64_t base = std::uint64_t{blockIdx.x} * K * kThreads;
  std::uint32_t v[K];
#pragma unroll
  for (int j = 0; j < K; ++j) v[j] = in[base + j * kThreads + threadIdx.x];
#pragma unroll
  for (int j = 0; j < K; ++j) tile[j * kThreads + threadIdx.x] = v[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < K; ++j) out[base + j * kThreads + threadIdx.x] = tile[j * kThreads + (threadIdx.x ^ 1u)];
}

using TileKernel = void (*)(const std::uint32_t*, std::uint32_t*);

TileKernel tile_kernel(std::uint32_t loads) {
  switch (loads) {
    case 1:
      return k_tile<1>;
    case 2:
      return k_tile<2>;
    case 4:
      return k_tile<4>;
    case 8:
      return k_tile<8>;
    default:
      return nullptr;
  }
}

// The least dynamic shared memory (at least the tile's) that leaves exactly `blocks` blocks resident
// on an SM, or 0 where none does: occupancy only falls as a block's shared memory grows.
std::uint64_t shared_for_residency(TileKernel k, std::uint32_t threads, std::uint64_t tile_bytes, std::uint32_t blocks,
                                   const DeviceInfo& d) {
  const auto resident = [&](std::uint64_t bytes) {
    int n = 0;
    MMSIM_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, static_cast<int>(threads), bytes));
    return n;
  };
  std::uint64_t lo = tile_bytes, hi = d.shared_per_block_optin;  // the least bytes with at most `blocks`
  if (resident(hi) > static_cast<int>(blocks)) return 0;
  while (lo < hi) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (resident(mid) <= static_cast<int>(blocks))
      hi = mid;
    else
      lo = mid + 1;
  }
  return resident(lo) == static_cast<int>(blocks) ? lo : 0;
}

// A stream bench's thread (predict/instruction_bench.h): its element's polynomial of degree `steps`.
__global__ void __launch_bounds__(predict::kStreamThreads)
    k_stream(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, std::uint32_t steps) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * predict::kStreamThreads + threadIdx.x;
  const std::uint32_t x = in[i];
  std::uint32_t y = 0;
  for (std::uint32_t c = 0; c < steps; ++c) y = predict::stream_step(y, x, c);
  out[i] = y;
}

// The same through shared memory: each thread stores its x at its own word, and after the barrier
// takes the x of word stream_shared_word(local, stride).
__global__ void __launch_bounds__(predict::kStreamThreads)
    k_stream_shared(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, std::uint32_t steps,
                    std::uint32_t stride) {
  __shared__ std::uint32_t s[predict::kStreamThreads];
  const std::uint64_t i = std::uint64_t{blockIdx.x} * predict::kStreamThreads + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  const std::uint32_t x = s[predict::stream_shared_word(threadIdx.x, stride)];
  std::uint32_t y = 0;
  for (std::uint32_t c = 0; c < steps; ++c) y = predict::stream_step(y, x, c);
  out[i] = y;
}

// A stream bench's arrays, its input written once.
struct StreamArrays {
  std::uint64_t n;
  DeviceBuffer in, out;
  explicit StreamArrays(std::uint64_t elements) : n(elements), in(elements * 4), out(elements * 4) {
    std::vector<std::uint32_t> x(n);
    for (std::uint64_t i = 0; i < n; ++i) x[i] = predict::stream_input(i);
    MMSIM_CK(cudaMemcpy(in.p, x.data(), n * 4, cudaMemcpyHostToDevice));
  }
  std::uint32_t blocks() const { return static_cast<std::uint32_t>(n / predict::kStreamThreads); }
  void run(const predict::StreamBench& b) {
    const auto* x = static_cast<const std::uint32_t*>(in.p);
    auto* y = static_cast<std::uint32_t*>(out.p);
    if (b.shared_stride == 0)
      k_stream<<<blocks(), predict::kStreamThreads>>>(x, y, b.steps);
    else
      k_stream_shared<<<blocks(), predict::kStreamThreads>>>(x, y, b.steps, b.shared_stride);
    MMSIM_LAUNCHED();
  }
  // Every element against the reference of the input it took (4096 of them).
  bool check(const predict::StreamBench& b) const {
    std::vector<std::uint32_t> want(4096), got(n);
    for (std::uint32_t x = 0; x < 4096; ++x) want[x] = predict::stream_output(x, b.steps);
    MMSIM_CK(cudaMemcpy(got.data(), out.p, n * 4, cudaMemcpyDeviceToHost));
    for (std::uint64_t i = 0; i < n; ++i)
      if (got[i] != want[predict::stream_input(predict::stream_source(b, i))]) return false;
    return true;
  }
};

void check_stream(const predict::StreamBench& b) {
  if (b.log2_n < 8 || b.log2_n > 28) throw GpuError(b.name() + ": n must be 2^8 to 2^28");
  if (b.shared_stride != 0 && predict::kStreamThreads % b.shared_stride != 0)
    throw GpuError(b.name() + ": the shared stride must divide the block's threads");
}

}  // namespace

StreamRun run_stream(const predict::StreamBench& b, const TimingPlan& plan) {
  check_stream(b);
  StreamArrays a(b.n());
  StreamRun r;
  r.blocks = a.blocks();
  EventTimer timer;
  r.timing = timer.time(
      plan, [&] { poison(a.out.p, a.n * 4); }, [&] { a.run(b); });
  MMSIM_CK(cudaDeviceSynchronize());
  r.correct = a.check(b);
  return r;
}

bool launch_stream_once(const predict::StreamBench& b) {
  check_stream(b);
  StreamArrays a(b.n());
  a.run(b);
  MMSIM_CK(cudaDeviceSynchronize());
  return a.check(b);
}

TileRun run_tile(const predict::TileBench& b, const TimingPlan& plan) {
  const DeviceInfo d = device_info();
  const TileKernel k = tile_kernel(b.loads);
  if (k == nullptr) throw GpuError(b.name() + ": loads must be 1, 2, 4 or 8");
  if (b.blocks_per_sm == 0 || b.threads == 0 || b.threads % 32 != 0 || b.threads > 1024 ||
      b.words() % b.tile_words() != 0)
    throw GpuError(b.name() + ": no blocks, threads not whole warps up to 1024, or the array not whole tiles");
  MMSIM_CK(
      cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(d.shared_per_block_optin)));
  TileRun r;
  r.shared_bytes = shared_for_residency(k, b.threads, b.tile_words() * 4, b.blocks_per_sm, d);
  if (r.shared_bytes == 0)
    throw GpuError(b.name() + ": no shared memory size leaves exactly " + std::to_string(b.blocks_per_sm) +
                   " blocks on an SM");
  r.blocks = b.blocks();
  const std::uint64_t words = b.words(), bytes = words * 4;
  std::vector<std::uint32_t> in(words);
  for (std::uint64_t i = 0; i < words; ++i) in[i] = predict::copy_input_word(i);
  // The input is restored from `pristine` before every launch (in place, the launch overwrites it),
  // and a second output is poisoned, alike in both settings: the same L2 state before each launch.
  DeviceBuffer pristine(bytes), a(bytes), second(bytes);
  MMSIM_CK(cudaMemcpy(pristine.p, in.data(), bytes, cudaMemcpyHostToDevice));
  auto* src = static_cast<std::uint32_t*>(a.p);
  auto* dst = b.in_place ? src : static_cast<std::uint32_t*>(second.p);
  EventTimer timer;
  r.timing = timer.time(
      plan,
      [&] {
        MMSIM_CK(cudaMemcpy(a.p, pristine.p, bytes, cudaMemcpyDeviceToDevice));
        if (!b.in_place) poison(second.p, bytes);
      },
      [&] {
        k<<<static_cast<unsigned>(r.blocks), b.threads, r.shared_bytes>>>(src, dst);
        MMSIM_LAUNCHED();
      });
  MMSIM_CK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> out(words);
  MMSIM_CK(cudaMemcpy(out.data(), dst, bytes, cudaMemcpyDeviceToHost));
  r.correct = true;
  for (std::uint64_t i = 0; i < words && r.correct; ++i) r.correct = out[i] == predict::tile_output_word(i);
  return r;
}

BenchRun run_bench(const predict::InstructionBench& b, const TimingPlan& plan) {
  check_bench(b);
  BenchRun r;
  r.blocks = b.many ? static_cast<std::uint32_t>(device_info().sm_count) * predict::kInstructionWarpsPerSm : 1;
  Launch l(r.blocks);
  const auto before = [&] { poison(l.out.p, std::uint64_t{r.blocks} * kLanes * 4); };
  if (b.many) {
    EventTimer timer;
    r.timing = timer.time(plan, before, [&] { l.run(b); });
  } else {
    for (int i = 0; i < plan.warmups; ++i) l.run(b);
    std::vector<double> cycles;
    for (int i = 0; i < plan.runs; ++i) {
      before();
      l.run(b);
      MMSIM_CK(cudaDeviceSynchronize());
      cycles.push_back(static_cast<double>(l.first_cycles()));
    }
    r.cycles = summarize(std::move(cycles));
  }
  MMSIM_CK(cudaDeviceSynchronize());
  r.correct = l.check(b);
  return r;
}

bool launch_once(const predict::InstructionBench& b) {
  check_bench(b);
  Launch l(1);
  l.run(b);
  MMSIM_CK(cudaDeviceSynchronize());
  return l.check(b);
}

CopyRun run_copy(const predict::CopyBench& b, const TimingPlan& plan) {
  const DeviceInfo d = device_info();
  if (b.rows == 0 || b.warps_per_sm == 0) throw GpuError(b.name() + ": no rows or no warps");
  if (b.shared_bytes() > d.shared_per_block_optin)
    throw GpuError(b.name() + ": the rows do not fit one block's shared memory");
  const int bytes = static_cast<int>(b.shared_bytes());
  MMSIM_CK(cudaFuncSetAttribute(k_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  int resident = 0;
  MMSIM_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k_copy, kLanes, b.shared_bytes()));
  if (resident < static_cast<int>(b.warps_per_sm))
    throw GpuError(b.name() + ": only " + std::to_string(resident) + " such blocks fit an SM at once");
  CopyRun r;
  r.blocks = static_cast<std::uint32_t>(d.sm_count) * b.warps_per_sm;
  const std::uint64_t words = std::uint64_t{r.blocks} * kLanes * b.rows;
  std::vector<std::uint32_t> in(words);
  for (std::uint64_t i = 0; i < words; ++i) in[i] = predict::copy_input_word(i);
  DeviceBuffer d_in(words * 4), d_out(words * 4);
  MMSIM_CK(cudaMemcpy(d_in.p, in.data(), words * 4, cudaMemcpyHostToDevice));
  EventTimer timer;
  r.timing = timer.time(
      plan, [&] { poison(d_out.p, words * 4); },
      [&] {
        k_copy<<<r.blocks, kLanes, b.shared_bytes()>>>(static_cast<const std::uint32_t*>(d_in.p),
                                                       static_cast<std::uint32_t*>(d_out.p), b.rows);
        MMSIM_LAUNCHED();
      });
  MMSIM_CK(cudaDeviceSynchronize());
  std::vector<std::uint32_t> out(words);
  MMSIM_CK(cudaMemcpy(out.data(), d_out.p, words * 4, cudaMemcpyDeviceToHost));
  r.correct = out == in;
  return r;
}

}  // namespace mmsim::gpu::instructions
