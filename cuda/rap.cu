// The shared-memory 32 x 32 transposes of NMI Sect. VI (CRSW, SRCW, DRDW) under the raw,
// ras, rap, pad and xor layouts: one block of 1024 threads per matrix, thread T(i w + j) moving one
// cell, as in the paper. The time is taken inside the kernel (clock64 and the global timer of one
// thread), not by the harness's events; the error check, the poison, the cell-by-cell comparison
// and the median are cuda/harness's.
#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>

#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"
#include "cuda/harness/timer.h"
#include "cuda/rap.h"

namespace mmsim::gpu {

namespace {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// U: the element's bits (uint32 for float, uint64 for double): the kernel only moves bits, and the
// bank behaviour depends on the size alone. Block b holds matrix b of `in` (row-major, 1024 cells)
// and layout b mod `layouts` of `shifts`. The layout's addresses are loop-invariant, so each thread
// computes its two once: the timed loop is the shared-memory read, the write and the barrier.
template <typename U, SmemTranspose TR, SmemLayout K>
__global__ void __launch_bounds__(1024)
    k_rap_transpose(const U* __restrict__ in, U* __restrict__ out_b, U* __restrict__ out_a,
                    const std::uint8_t* __restrict__ shifts, std::uint32_t layouts, std::uint32_t warm,
                    std::uint32_t reps, unsigned long long* __restrict__ cycles,
                    unsigned long long* __restrict__ nanos) {
  extern __shared__ __align__(16) unsigned char smem[];
  U* a = reinterpret_cast<U*>(smem);
  U* b = a + smem_cells(K);
  const std::uint32_t t = threadIdx.x, blk = blockIdx.x;
  const std::uint8_t* r = shifts + std::uint64_t{blk % layouts} * kW;
  // Poison both matrices, pad's unused cells included: stale values left in the SM's shared memory
  // by an earlier block must not pass the check.
  for (std::uint32_t x = t; x < 2 * smem_cells(K); x += blockDim.x) a[x] = ~U{0};
  __syncthreads();
  const std::uint64_t base = std::uint64_t{blk} * kTile;
  const std::uint32_t i = t >> kLogW, j = t & (kW - 1);
  a[smem_address(K, i, j, r[i])] = in[base + t];
  const SmemCell rc = smem_read_cell(TR, t), wc = smem_write_cell(TR, t);
  const std::uint32_t ra = smem_address(K, rc.row, rc.col, r[rc.row]);
  const std::uint32_t wa = smem_address(K, wc.row, wc.col, r[wc.row]);
  __syncthreads();
  U* src = a;
  U* dst = b;
  const auto transpose = [&] {
    dst[wa] = src[ra];
    __syncthreads();
    U* x = src;
    src = dst;
    dst = x;
  };
  for (std::uint32_t rep = 0; rep < warm; ++rep) transpose();
  unsigned long long c0 = 0, g0 = 0;
  if (t == 0) {
    c0 = clock64();
    g0 = global_ns();
  }
  for (std::uint32_t rep = 0; rep < reps; ++rep) transpose();
  if (t == 0) {
    cycles[blk] = clock64() - c0;
    nanos[blk] = global_ns() - g0;
  }
  // warm + reps is even: b holds the transpose of the original, a the original.
  out_b[base + t] = b[smem_address(K, i, j, r[i])];
  out_a[base + t] = a[smem_address(K, i, j, r[i])];
}

using Launcher = void (*)(unsigned blocks, std::size_t shared, const void* in, void* ob, void* oa,
                          const std::uint8_t* shifts, std::uint32_t layouts, std::uint32_t warm, std::uint32_t reps,
                          unsigned long long* cycles, unsigned long long* nanos);

template <typename U, SmemTranspose TR, SmemLayout K>
void launch(unsigned blocks, std::size_t shared, const void* in, void* ob, void* oa, const std::uint8_t* shifts,
            std::uint32_t layouts, std::uint32_t warm, std::uint32_t reps, unsigned long long* cycles,
            unsigned long long* nanos) {
  if (shared > 48 * 1024)
    MMSIM_CK(cudaFuncSetAttribute(k_rap_transpose<U, TR, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(shared)));
  k_rap_transpose<U, TR, K><<<blocks, kTile, shared>>>(static_cast<const U*>(in), static_cast<U*>(ob),
                                                       static_cast<U*>(oa), shifts, layouts, warm, reps, cycles, nanos);
  MMSIM_LAUNCHED();
}

template <typename U, SmemTranspose TR>
Launcher pick_layout(SmemLayout k) {
  switch (k) {
    case SmemLayout::Raw:
      return launch<U, TR, SmemLayout::Raw>;
    case SmemLayout::Ras:
      return launch<U, TR, SmemLayout::Ras>;
    case SmemLayout::Rap:
      return launch<U, TR, SmemLayout::Rap>;
    case SmemLayout::Pad:
      return launch<U, TR, SmemLayout::Pad>;
    case SmemLayout::Xor:
      return launch<U, TR, SmemLayout::Xor>;
  }
  throw GpuError("rap: unknown layout");
}

template <typename U>
Launcher pick(SmemTranspose t, SmemLayout k) {
  switch (t) {
    case SmemTranspose::Crsw:
      return pick_layout<U, SmemTranspose::Crsw>(k);
    case SmemTranspose::Srcw:
      return pick_layout<U, SmemTranspose::Srcw>(k);
    case SmemTranspose::Drdw:
      return pick_layout<U, SmemTranspose::Drdw>(k);
  }
  throw GpuError("rap: unknown transpose");
}

// Device buffers of one run: input, both outputs, the shifts and the per-block timers.
struct Buffers {
  void *in = nullptr, *ob = nullptr, *oa = nullptr;
  std::uint8_t* shifts = nullptr;
  unsigned long long *cycles = nullptr, *nanos = nullptr;
  ~Buffers() {
    // Errors on release cannot be reported from a destructor; the runs checked theirs.
    cudaFree(nanos);
    cudaFree(cycles);
    cudaFree(shifts);
    cudaFree(oa);
    cudaFree(ob);
    cudaFree(in);
  }
};

template <typename U>
U source_bits(std::uint64_t i) {
  if constexpr (sizeof(U) == 4)
    return source_bits32(i);
  else
    return source_bits64(i);
}

// Checks both outputs of `blocks` matrices: b(x, y) = a(y, x) and a unchanged.
template <typename U>
void compare(const std::vector<U>& ob, const std::vector<U>& oa, std::uint32_t blocks, RapMeasure& m,
             const char* what) {
  // Cell blk * kTile + x * kW + y is (x, y) of matrix blk.
  const auto transposed = [&](std::uint64_t cell) {
    const std::uint64_t blk = cell / kTile, x = cell % kTile / kW, y = cell % kW;
    return ob[cell] == source_bits<U>(blk * kTile + y * kW + x);
  };
  const Mismatches bad = compare_cells(std::uint64_t{blocks} * kTile, 1, [&](std::uint64_t cell) {
    return transposed(cell) && oa[cell] == source_bits<U>(cell);
  });
  if (bad.count && m.mismatches == 0) {
    const std::uint64_t cell = bad.first;
    m.detail = std::string(what) + ": block " + std::to_string(cell / kTile) + ", cell (" +
               std::to_string(cell % kTile / kW) + ", " + std::to_string(cell % kW) + ") of " +
               (transposed(cell) ? "the original" : "the transpose");
  }
  m.mismatches += bad.count;
}

template <typename U>
RapMeasure run_typed(SmemTranspose t, SmemLayout k, const std::vector<std::uint8_t>& shifts, const RapOptions& o,
                     bool profile) {
  if (shifts.empty() || shifts.size() % kW != 0) throw GpuError("rap: shifts must hold 32 per layout");
  if ((o.reps + o.warmup_reps) % 2 != 0 || o.reps == 0)
    throw GpuError("rap: reps + warm-up reps must be even and reps > 0");
  const auto layouts = static_cast<std::uint32_t>(shifts.size() / kW);
  const DeviceInfo d = device_info();
  const std::uint32_t min_blocks = o.min_blocks ? o.min_blocks : static_cast<std::uint32_t>(d.sm_count);
  const std::uint32_t blocks = profile ? 1 : std::max(layouts, min_blocks);
  // One block per SM: ask for more than half of an SM's shared memory (the timed loop then sees
  // no other block's accesses, like the paper's single streaming multiprocessor).
  const std::size_t need = 2ull * smem_cells(k) * sizeof(U);
  const std::size_t shared =
      profile
          ? need
          : std::max<std::size_t>(need, std::min<std::uint64_t>(d.shared_per_block_optin, d.shared_per_sm / 2 + 4096));
  const std::uint64_t cells = std::uint64_t{blocks} * kTile;
  std::vector<U> host_in(cells), ob(cells), oa(cells);
  for (std::uint64_t x = 0; x < cells; ++x) host_in[x] = source_bits<U>(x);
  Buffers B;
  MMSIM_CK(cudaMalloc(&B.in, cells * sizeof(U)));
  MMSIM_CK(cudaMalloc(&B.ob, cells * sizeof(U)));
  MMSIM_CK(cudaMalloc(&B.oa, cells * sizeof(U)));
  MMSIM_CK(cudaMalloc(reinterpret_cast<void**>(&B.shifts), shifts.size()));
  MMSIM_CK(cudaMalloc(reinterpret_cast<void**>(&B.cycles), blocks * sizeof(unsigned long long)));
  MMSIM_CK(cudaMalloc(reinterpret_cast<void**>(&B.nanos), blocks * sizeof(unsigned long long)));
  MMSIM_CK(cudaMemcpy(B.in, host_in.data(), cells * sizeof(U), cudaMemcpyHostToDevice));
  MMSIM_CK(cudaMemcpy(B.shifts, shifts.data(), shifts.size(), cudaMemcpyHostToDevice));
  const Launcher go = pick<U>(t, k);
  const std::uint32_t warm = profile ? 0 : o.warmup_reps, reps = profile ? 1 : o.reps;
  RapMeasure m;
  m.blocks = blocks;
  m.layouts = layouts;
  std::vector<unsigned long long> cyc(blocks), ns(blocks);
  const int launches = profile ? 1 : o.launches + 1;  // the first is a warm-up, not recorded
  for (int l = 0; l < launches; ++l) {
    poison(B.ob, cells * sizeof(U));
    poison(B.oa, cells * sizeof(U));
    go(blocks, shared, B.in, B.ob, B.oa, B.shifts, layouts, warm, reps, B.cycles, B.nanos);
    MMSIM_CK(cudaDeviceSynchronize());
    MMSIM_CK(cudaMemcpy(ob.data(), B.ob, cells * sizeof(U), cudaMemcpyDeviceToHost));
    MMSIM_CK(cudaMemcpy(oa.data(), B.oa, cells * sizeof(U), cudaMemcpyDeviceToHost));
    compare(ob, oa, blocks, m, l == 0 && !profile ? "warm-up launch" : "timed launch");
    if (l == 0 && !profile) continue;
    MMSIM_CK(cudaMemcpy(cyc.data(), B.cycles, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    MMSIM_CK(cudaMemcpy(ns.data(), B.nanos, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    for (std::uint32_t b = 0; b < blocks; ++b) {
      m.cycles.push_back(static_cast<double>(cyc[b]) / reps);
      m.ns.push_back(static_cast<double>(ns[b]) / reps);
    }
    ++m.launches;
  }
  m.correct = m.mismatches == 0;
  m.median_ns = summarize(m.ns).median;
  m.median_cycles = summarize(m.cycles).median;
  m.mean_ns = std::accumulate(m.ns.begin(), m.ns.end(), 0.0) / static_cast<double>(m.ns.size());
  const double sum_ns = std::accumulate(m.ns.begin(), m.ns.end(), 0.0);
  m.clock_mhz = sum_ns > 0 ? std::accumulate(m.cycles.begin(), m.cycles.end(), 0.0) / sum_ns * 1e3 : 0;
  return m;
}

}  // namespace

RapMeasure rap_transpose(SmemTranspose t, SmemLayout k, Elem e, const std::vector<std::uint8_t>& shifts,
                         const RapOptions& o) {
  if (o.launches < 1) throw GpuError("rap: at least one timed launch");
  return e == Elem::F32 ? run_typed<std::uint32_t>(t, k, shifts, o, false)
                        : run_typed<std::uint64_t>(t, k, shifts, o, false);
}

int rap_profile_launches(Elem e, const std::vector<std::uint8_t>& shifts) {
  if (shifts.size() != std::size_t{kSmemLayouts} * kW)
    throw GpuError("rap: profiling takes one row of shifts per layout");
  int wrong = 0;
  for (int t = 0; t < kSmemTransposes; ++t)
    for (int k = 0; k < kSmemLayouts; ++k) {
      const std::vector<std::uint8_t> row(shifts.begin() + k * kW, shifts.begin() + (k + 1) * kW);
      const auto tt = static_cast<SmemTranspose>(t);
      const auto kk = static_cast<SmemLayout>(k);
      const RapMeasure m = e == Elem::F32 ? run_typed<std::uint32_t>(tt, kk, row, {}, true)
                                          : run_typed<std::uint64_t>(tt, kk, row, {}, true);
      wrong += !m.correct;
    }
  return wrong;
}

}  // namespace mmsim::gpu
