// Single warp instructions and histograms on the GPU (cuda/accesses/gpu_accesses.h). The measured
// instruction is written in PTX (asm volatile with a memory clobber), so that the compiler neither
// drops a repeat nor merges or splits the access: ld/st.shared and ld/st.global of .u8, .u16, .u32,
// .v2.u32 and .v4.u32 and atom.add.u32, one SASS instruction each (LDS.U8 ... LDS.128, ATOMS.ADD,
// ...). The lane offsets come in the kernel's parameters, so no other memory instruction runs in
// the loop; a load's values are folded into one register that is stored only when it equals a value
// it never holds, so the output store never runs either.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "cuda/accesses/gpu_accesses.h"
#include "cuda/harness/check.h"
#include "cuda/harness/error.h"

namespace mmsim::gpu::accesses {

namespace {

/// What a block may have of shared memory without opting in, and the global buffer's size.
constexpr std::uint32_t kSharedBytes = 48 * 1024;
constexpr std::uint64_t kGlobalBytes = std::uint64_t{64} << 20;
constexpr std::uint32_t kNever = 0x9E3779B9u;

struct Offsets {
  std::uint32_t at[kLanes];
};

// One access of B bytes at a shared-memory address (a .shared window address) or a global one.
template <int B>
__device__ __forceinline__ std::uint32_t load_shared(std::uint32_t a) {
  std::uint32_t x = 0, y = 0, z = 0, w = 0;
  if constexpr (B == 1) {
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
  } else if constexpr (B == 2) {
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
  } else if constexpr (B == 4) {
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
  } else if constexpr (B == 8) {
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
  } else {
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "r"(a)
                 : "memory");
  }
  return x ^ y ^ z ^ w;
}

template <int B>
__device__ __forceinline__ void store_shared(std::uint32_t a, std::uint32_t v) {
  if constexpr (B == 1) {
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  } else if constexpr (B == 2) {
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  } else if constexpr (B == 4) {
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  } else if constexpr (B == 8) {
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
  } else {
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v), "r"(v + 1), "r"(v + 2),
                 "r"(v + 3)
                 : "memory");
  }
}

template <int B>
__device__ __forceinline__ std::uint32_t load_global(const unsigned char* p) {
  std::uint32_t x = 0, y = 0, z = 0, w = 0;
  if constexpr (B == 1) {
    asm volatile("ld.volatile.global.u8 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  } else if constexpr (B == 2) {
    asm volatile("ld.volatile.global.u16 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  } else if constexpr (B == 4) {
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  } else if constexpr (B == 8) {
    asm volatile("ld.volatile.global.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(p) : "memory");
  } else {
    asm volatile("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "l"(p)
                 : "memory");
  }
  return x ^ y ^ z ^ w;
}

template <int B>
__device__ __forceinline__ void store_global(unsigned char* p, std::uint32_t v) {
  if constexpr (B == 1) {
    asm volatile("st.volatile.global.u8 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (B == 2) {
    asm volatile("st.volatile.global.u16 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (B == 4) {
    asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  } else if constexpr (B == 8) {
    asm volatile("st.volatile.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v), "r"(v + 1) : "memory");
  } else {
    asm volatile("st.volatile.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v), "r"(v + 1), "r"(v + 2),
                 "r"(v + 3)
                 : "memory");
  }
}

template <int B, Instr I>
__global__ void k_shared_instruction(Offsets o, std::uint32_t repeats, std::uint32_t* out) {
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint32_t lane = threadIdx.x % kLanes, off = o.at[lane];
  std::uint32_t acc = 0;
  if (off != kIdle) {
    const auto a = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem)) + off;
    for (std::uint32_t r = 0; r < repeats; ++r) {
      if constexpr (I == Instr::Load) {
        acc += load_shared<B>(a);
      } else if constexpr (I == Instr::Store) {
        store_shared<B>(a, lane + r);
      } else if constexpr (I == Instr::AtomicAdd) {
        std::uint32_t old;
        asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(a) : "memory");
        acc += old;
      } else if constexpr (I == Instr::ReduceAddOne) {
        asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(a) : "memory");
      } else {
        asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(a), "r"(lane) : "memory");
      }
    }
  }
  if (acc == kNever) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int B, Instr I>
__global__ void k_global_instruction(Offsets o, std::uint32_t repeats, std::uint32_t warp_stride, unsigned char* g,
                                     std::uint32_t* out) {
  const std::uint32_t lane = threadIdx.x % kLanes, off = o.at[lane];
  const std::uint64_t warp = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / kLanes;
  std::uint32_t acc = 0;
  if (off != kIdle) {
    unsigned char* p = g + warp * warp_stride + off;
    for (std::uint32_t r = 0; r < repeats; ++r) {
      if constexpr (I == Instr::Load) {
        acc += load_global<B>(p);
      } else if constexpr (I == Instr::Store) {
        store_global<B>(p, lane + r);
      } else if constexpr (I == Instr::AtomicAdd) {
        std::uint32_t old;
        asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
        acc += old;
      } else if constexpr (I == Instr::ReduceAddOne) {
        asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
      } else {
        asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(lane) : "memory");
      }
    }
  }
  if (acc == kNever) out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

struct Device {
  unsigned char* global = nullptr;
  std::uint32_t* out = nullptr;
  std::uint64_t out_words = 0;
  Device() { MMSIM_CK(cudaMalloc(&global, kGlobalBytes)); }
  ~Device() {
    cudaFree(global);
    cudaFree(out);
  }
  std::uint32_t* out_for(std::uint64_t threads) {
    if (threads > out_words) {
      cudaFree(out);
      out = nullptr;
      MMSIM_CK(cudaMalloc(&out, threads * sizeof(std::uint32_t)));
      out_words = threads;
    }
    return out;
  }
};

Device& device() {
  static Device d;
  return d;
}

std::uint32_t span_bytes(const WarpInstruction& w) {
  std::uint32_t top = 0;
  for (std::uint32_t off : w.offset) {
    if (off == kIdle) continue;
    if (off % w.bytes) throw GpuError("accesses: a lane's offset is not aligned to its access");
    top = std::max(top, off + w.bytes);
  }
  return top;
}

template <int B, Instr I>
void launch_as(const WarpInstruction& w, const Launch& l, std::uint32_t span) {
  Offsets o{};
  for (std::uint32_t t = 0; t < kLanes; ++t) o.at[t] = w.offset[t];
  const std::uint32_t threads = l.warps * kLanes;
  std::uint32_t* out = device().out_for(std::uint64_t{l.blocks} * threads);
  if (w.space == Space::Shared) {
    k_shared_instruction<B, I><<<l.blocks, threads, span>>>(o, l.repeats, out);
  } else {
    k_global_instruction<B, I><<<l.blocks, threads>>>(o, l.repeats, l.warp_stride, device().global, out);
  }
  MMSIM_LAUNCHED();
}

template <Instr I>
void launch_bytes(const WarpInstruction& w, const Launch& l, std::uint32_t span) {
  switch (w.bytes) {
    case 1:
      return launch_as<1, I>(w, l, span);
    case 2:
      return launch_as<2, I>(w, l, span);
    case 4:
      return launch_as<4, I>(w, l, span);
    case 8:
      return launch_as<8, I>(w, l, span);
    case 16:
      return launch_as<16, I>(w, l, span);
    default:
      throw GpuError("accesses: an access is 1, 2, 4, 8 or 16 bytes");
  }
}

void launch(const WarpInstruction& w, const Launch& l) {
  if (l.blocks == 0 || l.warps == 0 || l.warps > 32) throw GpuError("accesses: 1 to 32 warps a block");
  const std::uint32_t span = span_bytes(w);
  if (w.space == Space::Shared && span > kSharedBytes)
    throw GpuError("accesses: a pattern past 48 KiB of shared memory");
  const std::uint64_t warps = std::uint64_t{l.blocks} * l.warps;
  if (w.space == Space::Global && (warps - 1) * l.warp_stride + span > kGlobalBytes)
    throw GpuError("accesses: a launch past the 64 MiB global buffer");
  switch (w.instr) {
    case Instr::Load:
      return launch_bytes<Instr::Load>(w, l, span);
    case Instr::Store:
      return launch_bytes<Instr::Store>(w, l, span);
    case Instr::AtomicAdd:
    case Instr::ReduceAddOne:
    case Instr::ReduceAddValue:
      if (w.bytes != 4) throw GpuError("accesses: atomic adds are of 4-byte words");
      if (w.instr == Instr::AtomicAdd) return launch_as<4, Instr::AtomicAdd>(w, l, span);
      if (w.instr == Instr::ReduceAddOne) return launch_as<4, Instr::ReduceAddOne>(w, l, span);
      return launch_as<4, Instr::ReduceAddValue>(w, l, span);
  }
}

// One key's count. `Ptx`: the atomic instruction itself (atom.add, whose old value is kept), as
// the hardware serves it; else CUDA's atomicAdd with its result unused, which the compiler is free
// to turn into whatever it likes (a reduction, or a warp-level aggregation first).
template <bool Ptx>
__device__ __forceinline__ void count_global(std::uint32_t* c, std::uint32_t& sink) {
  if constexpr (Ptx) {
    std::uint32_t old;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(c) : "memory");
    sink += old;
  } else {
    atomicAdd(c, 1u);
  }
}

template <bool Ptx>
__device__ __forceinline__ void count_shared(std::uint32_t* c, std::uint32_t& sink) {
  if constexpr (Ptx) {
    std::uint32_t old;
    const auto a = static_cast<std::uint32_t>(__cvta_generic_to_shared(c));
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(old) : "r"(a) : "memory");
    sink += old;
  } else {
    atomicAdd(c, 1u);
  }
}

template <bool Ptx>
__global__ void k_histogram_global(const std::uint32_t* keys, std::uint64_t n, std::uint32_t* counts,
                                   std::uint32_t* out) {
  std::uint32_t sink = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    count_global<Ptx>(&counts[keys[i]], sink);
  if (sink == kNever) out[0] = sink;
}

template <bool Ptx>
__global__ void k_histogram_privatized(const std::uint32_t* keys, std::uint64_t n, std::uint32_t bins,
                                       std::uint32_t* counts, std::uint32_t* out) {
  extern __shared__ std::uint32_t local[];
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  std::uint32_t sink = 0;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    count_shared<Ptx>(&local[keys[i]], sink);
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x)
    if (local[b]) atomicAdd(&counts[b], local[b]);
  if (sink == kNever) out[0] = sink;
}

}  // namespace

void launch_once(const WarpInstruction& w, const Launch& l) {
  launch(w, l);
  MMSIM_CK(cudaDeviceSynchronize());
}

Timing time_launch(const WarpInstruction& w, const Launch& l, const TimingPlan& plan) {
  EventTimer timer;
  return timer.time(plan, [&] { launch(w, l); });
}

HistogramRun histogram(const std::vector<std::uint32_t>& keys, std::uint32_t bins, HistogramKind kind,
                       const TimingPlan& plan) {
  if (bins == 0 || bins > kSharedBytes / 4) throw GpuError("histogram: 1 to 12288 bins");
  std::vector<std::uint64_t> want(bins, 0);
  for (std::uint32_t k : keys) {
    if (k >= bins) throw GpuError("histogram: a key past the bins");
    ++want[k];
  }
  const std::uint64_t n = keys.size();
  std::uint32_t* d_keys = nullptr;
  std::uint32_t* d_counts = nullptr;
  MMSIM_CK(cudaMalloc(&d_keys, n * sizeof(std::uint32_t)));
  MMSIM_CK(cudaMalloc(&d_counts, bins * sizeof(std::uint32_t)));
  HistogramRun run;
  try {
    MMSIM_CK(cudaMemcpy(d_keys, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
    int sms = 0;
    MMSIM_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const std::uint32_t threads = 256, blocks = static_cast<std::uint32_t>(sms) * 8;
    EventTimer timer;
    run.timing = timer.time(
        plan, [&] { MMSIM_CK(cudaMemset(d_counts, 0, bins * sizeof(std::uint32_t))); },
        [&] {
          std::uint32_t* out = device().out_for(1);
          const std::size_t shared = bins * sizeof(std::uint32_t);
          switch (kind) {
            case HistogramKind::Global:
              k_histogram_global<false><<<blocks, threads>>>(d_keys, n, d_counts, out);
              break;
            case HistogramKind::GlobalAtom:
              k_histogram_global<true><<<blocks, threads>>>(d_keys, n, d_counts, out);
              break;
            case HistogramKind::Shared:
              k_histogram_privatized<false><<<blocks, threads, shared>>>(d_keys, n, bins, d_counts, out);
              break;
            case HistogramKind::SharedAtom:
              k_histogram_privatized<true><<<blocks, threads, shared>>>(d_keys, n, bins, d_counts, out);
              break;
          }
          MMSIM_LAUNCHED();
        });
    std::vector<std::uint32_t> got(bins);
    MMSIM_CK(cudaMemcpy(got.data(), d_counts, bins * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    for (std::uint32_t b = 0; b < bins; ++b) run.mismatches += got[b] != static_cast<std::uint32_t>(want[b]);
    run.correct = run.mismatches == 0;
  } catch (...) {
    cudaFree(d_keys);
    cudaFree(d_counts);
    throw;
  }
  cudaFree(d_keys);
  cudaFree(d_counts);
  return run;
}

}  // namespace mmsim::gpu::accesses
