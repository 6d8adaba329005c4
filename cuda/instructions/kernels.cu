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

}  // namespace

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
