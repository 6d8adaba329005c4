// The CUDA kernels of the permutation algorithms of KNI and their launch shapes; the timing,
// the poison and the check are cuda/harness's. Every CUDA call goes through MMSIM_CK; every launch
// is followed by MMSIM_LAUNCHED.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cuda/gpu.h"
#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"
#include "cuda/harness/reference.h"

namespace mmsim::gpu {

namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::uint64_t items, unsigned threads) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

// ---------------------------------------------------------------------------------------------
// Kernels.

// KNI Sect. 4, D-designated: coalesced reads of a and p, a casual write of b.
template <typename T>
__global__ void k_d_designated(const T* __restrict__ a, T* __restrict__ b, const std::uint32_t* __restrict__ p,
                               std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[p[i]] = a[i];
}

// KNI Sect. 4, S-designated: a coalesced read of q, a casual read of a, a coalesced write.
template <typename T>
__global__ void k_s_designated(const T* __restrict__ a, T* __restrict__ b, const std::uint32_t* __restrict__ q,
                               std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[q[i]];
}

// KNI Sect. 5: one 32 x 32 tile per block in the diagonal arrangement, so that both the
// row-order writes and the gathered reads of the tile hit 32 distinct banks per warp. 256 threads,
// four tile elements each. The kind is a template argument so the map's switch folds away.
template <typename T, TileKind K>
__global__ void k_tiled(const T* __restrict__ a, T* __restrict__ b, TileMap map) {
  __shared__ T tile[kTile];
  map.kind = K;
  const std::uint32_t blk = blockIdx.x;
#pragma unroll
  for (std::uint32_t r = 0; r < kTile / kThreads; ++r) {
    const std::uint32_t e = threadIdx.x + r * kThreads;
    tile[diagonal(e)] = a[map.source(blk, e)];
  }
  __syncthreads();
#pragma unroll
  for (std::uint32_t r = 0; r < kTile / kThreads; ++r) {
    const std::uint32_t o = threadIdx.x + r * kThreads;
    b[map.destination(blk, o)] = tile[diagonal(map.gather(o))];
  }
}

// KNI Sect. 6, the paper's row-wise kernel: one block per row; alpha <- row (coalesced, no
// conflict), beta[d] <- alpha[s] (conflict-free by the bank colouring), row <- beta.
template <typename T>
__global__ void k_row_wise(const T* __restrict__ a, T* __restrict__ b, const std::uint16_t* __restrict__ s,
                           const std::uint16_t* __restrict__ d, std::uint32_t side) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* alpha = reinterpret_cast<T*>(smem);
  T* beta = alpha + side;
  const std::uint32_t base = blockIdx.x * side;
  for (std::uint32_t j = threadIdx.x; j < side; j += blockDim.x) alpha[j] = a[base + j];
  __syncthreads();
  for (std::uint32_t j = threadIdx.x; j < side; j += blockDim.x) beta[d[base + j]] = alpha[s[base + j]];
  __syncthreads();
  for (std::uint32_t j = threadIdx.x; j < side; j += blockDim.x) b[base + j] = beta[j];
}

// The same row-wise permutation with its loads pipelined (the kernel of scheduled-pipelined): each
// thread owns K = side / blockDim cells and issues all its global loads (the row and both 16-bit
// index arrays) before its first shared-memory store, so 3K independent loads are in flight instead
// of one at a time; the index loads no longer wait behind the first barrier. Slot j of a thread is
// threadIdx.x + k * blockDim.x, so each warp still holds one colour class: conflict-free as above.
template <typename T, int K>
__global__ void k_row_wise_pipelined(const T* __restrict__ a, T* __restrict__ b, const std::uint16_t* __restrict__ s,
                                     const std::uint16_t* __restrict__ d, std::uint32_t side) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* alpha = reinterpret_cast<T*>(smem);
  T* beta = alpha + side;
  const std::uint32_t base = blockIdx.x * side;
  T v[K];
  std::uint16_t si[K], di[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::uint32_t j = threadIdx.x + k * blockDim.x;
    v[k] = a[base + j];
    si[k] = s[base + j];
    di[k] = d[base + j];
  }
#pragma unroll
  for (int k = 0; k < K; ++k) alpha[threadIdx.x + k * blockDim.x] = v[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) beta[di[k]] = alpha[si[k]];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::uint32_t j = threadIdx.x + k * blockDim.x;
    b[base + j] = beta[j];
  }
}

// The fused row-wise kernel of scheduled-fused: a block loads `rows` consecutive rows (one
// contiguous, coalesced chunk), then writes each output cell from alpha[row][q], the gather form of
// the row's permutation. With Transposed the output goes to the transposed matrix, column by
// column, so a warp writes 32 / rows runs of `rows` consecutive cells: the transpose that the
// paper's version does in a kernel of its own costs no extra pass over the global memory. The
// gathers from alpha may meet bank conflicts; on a GPU shared memory has bandwidth to spare.
template <typename T, bool Transposed>
__global__ void k_row_gather(const T* __restrict__ a, T* __restrict__ b, const std::uint16_t* __restrict__ q,
                             std::uint32_t side, std::uint32_t log_rows) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* alpha = reinterpret_cast<T*>(smem);
  const std::uint32_t rows = 1u << log_rows, cells = rows * side, r0 = blockIdx.x * rows;
  const T* chunk = a + std::uint64_t{r0} * side;
  for (std::uint32_t t = threadIdx.x; t < cells; t += blockDim.x) alpha[t] = chunk[t];
  __syncthreads();
  const std::uint16_t* qb = q + std::uint64_t{r0} * side;
  if (Transposed) {
    for (std::uint32_t t = threadIdx.x; t < cells; t += blockDim.x) {
      const std::uint32_t c = t >> log_rows, rr = t & (rows - 1);
      b[std::uint64_t{c} * side + r0 + rr] = alpha[rr * side + qb[t]];
    }
  } else {
    T* out = b + std::uint64_t{r0} * side;
    for (std::uint32_t t = threadIdx.x; t < cells; t += blockDim.x) out[t] = alpha[(t / side) * side + qb[t]];
  }
}

// ---------------------------------------------------------------------------------------------

template <typename Kernel>
void allow_shared(Kernel kernel, std::uint64_t bytes) {
  if (bytes > 48 * 1024)
    MMSIM_CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace

std::uint32_t fused_rows_per_block(std::uint32_t side, Elem e, std::uint64_t shared_cap) {
  return fused_rows_for(side, static_cast<std::uint32_t>(elem_bytes(e)), shared_cap);
}

GpuSchedule build_schedule(const OfflineSchedule& s, Elem e, bool want_paper) {
  GpuSchedule g;
  g.side = s.side;
  g.seconds_colouring = s.seconds_colouring;
  g.seconds_tables = s.seconds_tables;
  if (want_paper)
    for (int k = 0; k < 3; ++k) g.paper[k] = s.bank[k];
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint32_t rows = fused_rows_per_block(s.side, e, 128 * 1024);
  g.fused_rows[0] = g.fused_rows[1] = g.fused_rows[2] = rows;
  g.gather[0] = gather_schedule(s.step[0], s.side, rows);
  g.gather[1] = gather_schedule(s.step[1], s.side, rows);
  g.gather[2] = gather_schedule(s.step[2], s.side, 1);  // row-major: the last kernel writes rows
  g.seconds_arrays = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return g;
}

GpuSchedule build_schedule(const std::vector<std::uint32_t>& p, std::uint32_t side, Elem e, bool want_paper) {
  return build_schedule(make_offline_schedule(p, side), e, want_paper);
}

// ---------------------------------------------------------------------------------------------

struct Bench::Impl {
  std::uint64_t n = 0;
  Elem elem = Elem::F32;
  BenchConfig cfg;
  std::uint64_t bytes = 0;
  void *a = nullptr, *b = nullptr, *t1 = nullptr, *t2 = nullptr;
  std::uint32_t* idx = nullptr;
  std::uint16_t* idx16[6] = {};
  void* host = nullptr;             // pinned, for the check
  std::optional<EventTimer> timer;  // made after the checks below, so that they come first
  std::uint64_t shared_optin = 0;

  Impl(std::uint64_t n_, Elem e, BenchConfig c) : n(n_), elem(e), cfg(c), bytes(n_ * elem_bytes(e)) {
    if (n == 0 || n > (std::uint64_t{1} << 28)) throw GpuError("n: between 1 and 2^28 on the GPU");
    if (bytes % 16 != 0) throw GpuError("n: n * element size must be a multiple of 16 bytes");
    if (cfg.runs < 20) throw GpuError("runs: at least 20 timed runs");
    const DeviceInfo d = device_info();
    shared_optin = d.shared_per_block_optin;
    MMSIM_CK(cudaMalloc(&a, bytes));
    MMSIM_CK(cudaMalloc(&b, bytes));
    MMSIM_CK(cudaMalloc(&t1, bytes));
    MMSIM_CK(cudaMalloc(&t2, bytes));
    MMSIM_CK(cudaMalloc(reinterpret_cast<void**>(&idx), n * 4));
    for (auto& p : idx16) MMSIM_CK(cudaMalloc(reinterpret_cast<void**>(&p), n * 2));
    MMSIM_CK(cudaMallocHost(&host, bytes));
    timer.emplace();
    fill_source(a, n, elem_bytes(elem));
  }

  ~Impl() {
    // Errors on release cannot be reported from a destructor; the runs already checked theirs.
    cudaFreeHost(host);
    for (auto* p : idx16) cudaFree(p);
    cudaFree(idx);
    cudaFree(t2);
    cudaFree(t1);
    cudaFree(b);
    cudaFree(a);
  }

  void upload32(const std::vector<std::uint32_t>& v) {
    MMSIM_CK(cudaMemcpy(idx, v.data(), n * 4, cudaMemcpyHostToDevice));
  }
  void upload16(int slot, const std::vector<std::uint16_t>& v) {
    if (v.size() != n) throw GpuError("schedule: array of the wrong size");
    MMSIM_CK(cudaMemcpy(idx16[slot], v.data(), n * 2, cudaMemcpyHostToDevice));
  }

  // b[p[i]] must hold source cell i, for every i: compared on the CPU, split over threads.
  template <typename U>
  void compare(const std::vector<std::uint32_t>& p, Measure& m) {
    const U* out = static_cast<const U*>(host);
    const Mismatches bad = compare_cells(n, cfg.host_threads, [&](std::uint64_t i) {
      const U want = sizeof(U) == 4 ? static_cast<U>(source_bits32(i)) : static_cast<U>(source_bits64(i));
      return out[p[i]] == want;
    });
    if (bad.count)
      m.detail = "first mismatch: source cell " + std::to_string(bad.first) + " not at " + std::to_string(p[bad.first]);
    m.mismatches = bad.count;
    m.correct = m.mismatches == 0;
  }

  template <typename Launch>
  Measure measure(Launch launch, const std::vector<std::uint32_t>& p, int kernels) {
    if (p.size() != n) throw GpuError("permutation: wrong size");
    Measure m;
    static_cast<Timing&>(m) = timer->time(
        {cfg.warmup, cfg.runs}, [&] { poison(b, bytes); }, launch);
    m.kernels = kernels;
    MMSIM_CK(cudaMemcpy(host, b, bytes, cudaMemcpyDeviceToHost));
    if (elem == Elem::F32)
      compare<std::uint32_t>(p, m);
    else
      compare<std::uint64_t>(p, m);
    return m;
  }

  // Launch helpers, typed.
  template <typename T>
  void launch_tiled(const TileMap& map, const void* in, void* out) {
    const auto blocks = static_cast<unsigned>(map.blocks());
    const T* x = static_cast<const T*>(in);
    T* y = static_cast<T*>(out);
    switch (map.kind) {
      case TileKind::Transpose:
        k_tiled<T, TileKind::Transpose><<<blocks, kThreads>>>(x, y, map);
        break;
      case TileKind::Shuffle:
        k_tiled<T, TileKind::Shuffle><<<blocks, kThreads>>>(x, y, map);
        break;
      case TileKind::BitReversal:
        k_tiled<T, TileKind::BitReversal><<<blocks, kThreads>>>(x, y, map);
        break;
    }
    MMSIM_LAUNCHED();
  }
  void tiled(const TileMap& map, const void* in, void* out) {
    if (elem == Elem::F32)
      launch_tiled<float>(map, in, out);
    else
      launch_tiled<double>(map, in, out);
  }

  std::uint64_t row_wise_shared(std::uint32_t side) const { return 2ull * side * elem_bytes(elem); }
  void check_row_wise(std::uint32_t side) const {
    if (row_wise_shared(side) > shared_optin)
      throw GpuError("shared memory: the paper's row-wise kernel needs " + std::to_string(row_wise_shared(side)) +
                     " bytes per block, the device allows " + std::to_string(shared_optin));
  }
  template <typename T>
  void launch_row_wise(const void* in, void* out, int slot_s, int slot_d, std::uint32_t side) {
    const std::uint64_t sh = row_wise_shared(side);
    allow_shared(k_row_wise<T>, sh);
    k_row_wise<T><<<side, std::min<std::uint32_t>(side, 1024), sh>>>(static_cast<const T*>(in), static_cast<T*>(out),
                                                                     idx16[slot_s], idx16[slot_d], side);
    MMSIM_LAUNCHED();
  }
  template <typename T, int K>
  void launch_pipelined_k(const void* in, void* out, int slot_s, int slot_d, std::uint32_t side) {
    const std::uint64_t sh = row_wise_shared(side);
    allow_shared(k_row_wise_pipelined<T, K>, sh);
    k_row_wise_pipelined<T, K>
        <<<side, side / K, sh>>>(static_cast<const T*>(in), static_cast<T*>(out), idx16[slot_s], idx16[slot_d], side);
    MMSIM_LAUNCHED();
  }
  template <typename T>
  void launch_pipelined(const void* in, void* out, int slot_s, int slot_d, std::uint32_t side) {
    // K cells per thread, blocks of at most 1024 threads.
    switch (side <= 1024 ? 1u : side / 1024) {
      case 1:
        launch_pipelined_k<T, 1>(in, out, slot_s, slot_d, side);
        break;
      case 2:
        launch_pipelined_k<T, 2>(in, out, slot_s, slot_d, side);
        break;
      case 4:
        launch_pipelined_k<T, 4>(in, out, slot_s, slot_d, side);
        break;
      case 8:
        launch_pipelined_k<T, 8>(in, out, slot_s, slot_d, side);
        break;
      case 16:
        launch_pipelined_k<T, 16>(in, out, slot_s, slot_d, side);
        break;
      default:
        throw GpuError("row-wise: sqrt(n) must be a power of two of at most 16384");
    }
  }
  void row_wise(const void* in, void* out, int slot_s, int slot_d, std::uint32_t side, bool pipelined = false) {
    if (pipelined) {
      if (elem == Elem::F32)
        launch_pipelined<float>(in, out, slot_s, slot_d, side);
      else
        launch_pipelined<double>(in, out, slot_s, slot_d, side);
      return;
    }
    if (elem == Elem::F32)
      launch_row_wise<float>(in, out, slot_s, slot_d, side);
    else
      launch_row_wise<double>(in, out, slot_s, slot_d, side);
  }

  template <typename T, bool Transposed>
  void launch_gather(const void* in, void* out, int slot, std::uint32_t side, std::uint32_t rows) {
    const std::uint64_t sh = std::uint64_t{rows} * side * sizeof(T);
    if (sh > shared_optin) throw GpuError("shared memory: the fused kernel needs " + std::to_string(sh) + " bytes");
    allow_shared(k_row_gather<T, Transposed>, sh);
    const auto log_rows = static_cast<std::uint32_t>(__builtin_ctz(rows));
    k_row_gather<T, Transposed><<<side / rows, std::min<std::uint32_t>(rows * side, 1024), sh>>>(
        static_cast<const T*>(in), static_cast<T*>(out), idx16[slot], side, log_rows);
    MMSIM_LAUNCHED();
  }
  void gather(const void* in, void* out, int slot, std::uint32_t side, std::uint32_t rows, bool transposed) {
    if (elem == Elem::F32) {
      if (transposed)
        launch_gather<float, true>(in, out, slot, side, rows);
      else
        launch_gather<float, false>(in, out, slot, side, rows);
    } else {
      if (transposed)
        launch_gather<double, true>(in, out, slot, side, rows);
      else
        launch_gather<double, false>(in, out, slot, side, rows);
    }
  }

  void square(std::uint32_t side) const {
    if (std::uint64_t{side} * side != n || side < kW || (side & (side - 1)) != 0)
      throw GpuError("n: must be sqrt(n)^2 with sqrt(n) a power of two of at least 32");
  }
  void poison_temporaries() {
    poison(t1, bytes);
    poison(t2, bytes);
  }
};

Bench::Bench(std::uint64_t n, Elem elem, BenchConfig config) : impl_(std::make_unique<Impl>(n, elem, config)) {}
Bench::~Bench() = default;
std::uint64_t Bench::n() const { return impl_->n; }
Elem Bench::elem() const { return impl_->elem; }

Measure Bench::copy() {
  Impl& I = *impl_;
  std::vector<std::uint32_t> identity(I.n);
  for (std::uint64_t i = 0; i < I.n; ++i) identity[i] = static_cast<std::uint32_t>(i);
  return I.measure([&] { launch_copy16(I.a, I.b, I.bytes); }, identity, 1);
}

Measure Bench::d_designated(const std::vector<std::uint32_t>& p) {
  Impl& I = *impl_;
  I.upload32(p);
  const auto n = static_cast<std::uint32_t>(I.n);
  return I.measure(
      [&] {
        if (I.elem == Elem::F32)
          k_d_designated<float><<<blocks_for(n, kThreads), kThreads>>>(static_cast<const float*>(I.a),
                                                                       static_cast<float*>(I.b), I.idx, n);
        else
          k_d_designated<double><<<blocks_for(n, kThreads), kThreads>>>(static_cast<const double*>(I.a),
                                                                        static_cast<double*>(I.b), I.idx, n);
        MMSIM_LAUNCHED();
      },
      p, 1);
}

Measure Bench::s_designated(const std::vector<std::uint32_t>& p) {
  Impl& I = *impl_;
  std::vector<std::uint32_t> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[p[i]] = static_cast<std::uint32_t>(i);
  I.upload32(q);
  const auto n = static_cast<std::uint32_t>(I.n);
  return I.measure(
      [&] {
        if (I.elem == Elem::F32)
          k_s_designated<float><<<blocks_for(n, kThreads), kThreads>>>(static_cast<const float*>(I.a),
                                                                       static_cast<float*>(I.b), I.idx, n);
        else
          k_s_designated<double><<<blocks_for(n, kThreads), kThreads>>>(static_cast<const double*>(I.a),
                                                                        static_cast<double*>(I.b), I.idx, n);
        MMSIM_LAUNCHED();
      },
      p, 1);
}

Measure Bench::tiled(const TileMap& map, const std::vector<std::uint32_t>& p) {
  Impl& I = *impl_;
  if (map.blocks() * kTile != I.n) throw GpuError("tiled: the map does not cover n cells");
  return I.measure([&] { I.tiled(map, I.a, I.b); }, p, 1);
}

Measure Bench::row_wise(const std::vector<std::uint32_t>& step, const BankSchedule& bs, std::uint32_t side,
                        bool pipelined) {
  Impl& I = *impl_;
  I.square(side);
  I.check_row_wise(side);
  I.upload16(0, bs.s);
  I.upload16(1, bs.d);
  return I.measure([&] { I.row_wise(I.a, I.b, 0, 1, side, pipelined); }, step_permutation(step, side, false), 1);
}

Measure Bench::column_wise(const std::vector<std::uint32_t>& step, const BankSchedule& bs, std::uint32_t side) {
  Impl& I = *impl_;
  I.square(side);
  I.check_row_wise(side);
  I.upload16(0, bs.s);
  I.upload16(1, bs.d);
  I.poison_temporaries();
  TileMap t;
  t.kind = TileKind::Transpose;
  t.side = side;
  return I.measure(
      [&] {
        I.tiled(t, I.a, I.t1);
        I.row_wise(I.t1, I.t2, 0, 1, side);
        I.tiled(t, I.t2, I.b);
      },
      step_permutation(step, side, true), 3);
}

Measure Bench::scheduled_paper(const GpuSchedule& s, const std::vector<std::uint32_t>& p, bool pipelined) {
  Impl& I = *impl_;
  I.square(s.side);
  I.check_row_wise(s.side);
  for (int k = 0; k < 3; ++k) {
    I.upload16(2 * k, s.paper[k].s);
    I.upload16(2 * k + 1, s.paper[k].d);
  }
  I.poison_temporaries();
  TileMap t;
  t.kind = TileKind::Transpose;
  t.side = s.side;
  return I.measure(
      [&] {
        I.row_wise(I.a, I.t1, 0, 1, s.side, pipelined);   // step 1: row-wise
        I.tiled(t, I.t1, I.t2);                           // step 2: column-wise = transpose,
        I.row_wise(I.t2, I.t1, 2, 3, s.side, pipelined);  //   row-wise,
        I.tiled(t, I.t1, I.t2);                           //   transpose
        I.row_wise(I.t2, I.b, 4, 5, s.side, pipelined);   // step 3: row-wise
      },
      p, 5);
}

Measure Bench::scheduled_fused(const GpuSchedule& s, const std::vector<std::uint32_t>& p) {
  Impl& I = *impl_;
  I.square(s.side);
  for (int k = 0; k < 3; ++k) I.upload16(k, s.gather[k]);
  I.poison_temporaries();
  Measure m = I.measure(
      [&] {
        I.gather(I.a, I.t1, 0, s.side, s.fused_rows[0], true);   // step 1, written transposed
        I.gather(I.t1, I.t2, 1, s.side, s.fused_rows[1], true);  // step 2 on columns, transposed back
        I.gather(I.t2, I.b, 2, s.side, s.fused_rows[2], false);  // step 3
      },
      p, 3);
  if (m.detail.empty()) m.detail = "rows per block " + std::to_string(s.fused_rows[0]);
  return m;
}

}  // namespace mmsim::gpu
