// The CUDA kernels of GL's block-wise transpositions (see gpu_enumeration.h), their launch
// shapes, and the check that compares every cell on the GPU (the largest matrices hold 2^32 cells:
// too many to copy back and compare on the host). The timing and the poison are cuda/harness's;
// every CUDA call goes through MMSIM_CK, every launch is followed by MMSIM_LAUNCHED.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda/enumeration/gpu_enumeration.h"
#include "cuda/enumeration/tiles.h"
#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"

namespace mmsim::gpu::enumeration {
namespace {

// ---------------------------------------------------------------------------------------------
// Kernels. Blocks of kTile x kRows threads; a tile is kTile x kTile cells, staged in shared memory
// with rows padded to kTile + 1 so that reading a tile column hits kTile distinct banks.

// Listing 2: the block swaps tile (tx, ty) with tile (ty, tx), each transposed (tx <= ty), of the
// n x n matrix at M whose rows are `pitch` cells apart (n for a 2D matrix; a 3D involution's
// planes and slices, involutions.h). Both tiles are in shared memory before either is written,
// and no other block touches them.
__device__ __forceinline__ void swap_tiles(float* M, u64 pitch, u64 n, u64 tx, u64 ty) {
  __shared__ float lower[kTile][kTile + 1];
  __shared__ float upper[kTile][kTile + 1];
  const unsigned c = threadIdx.x;
  const bool diag = tx == ty;
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    u64 row = ty * kTile + r, col = tx * kTile + c;
    if (row < n && col < n) lower[r][c] = M[row * pitch + col];
    row = tx * kTile + r, col = ty * kTile + c;
    if (!diag && row < n && col < n) upper[r][c] = M[row * pitch + col];
  }
  __syncthreads();
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    u64 row = ty * kTile + r, col = tx * kTile + c;
    if (row < n && col < n) M[row * pitch + col] = diag ? lower[c][r] : upper[c][r];
    row = tx * kTile + r, col = ty * kTile + c;
    if (!diag && row < n && col < n) M[row * pitch + col] = lower[c][r];
  }
}

// Naive: an nb x nb grid in CUDA's order; the blocks above the diagonal have nothing to do.
__global__ void k_ip_naive(float* M, u64 n) {
  if (blockIdx.x <= blockIdx.y) swap_tiles(M, n, n, blockIdx.x, blockIdx.y);
}

// Super grid: one launch per region of gridDim tiles whose corner tile is (x0, y0).
__global__ void k_ip_region(float* M, u64 n, u64 nb, u64 x0, u64 y0) {
  const u64 x = x0 + blockIdx.x, y = y0 + blockIdx.y;
  if (x < nb && y < nb && x <= y) swap_tiles(M, n, n, x, y);
}

// Triangular grid: nb(nb + 1)/2 blocks in a one-dimensional grid, block k decoded by scheme S.
template <Tri S>
__global__ void k_ip_scheme(float* M, u64 n, u64 nb, u64 band) {
  const u64 k = blockIdx.x;
  if (k >= core::tri_plus(nb)) return;
  const core::XY t = triangle_tile<S>(nb, band, k);
  swap_tiles(M, n, n, t.x, t.y);
}

// TW (the thread-wise algorithm): thread k < n(n - 1)/2 of a one-dimensional grid swaps the cells
// of entry V1(k) = (x, y), x < y, straight through global memory.
__global__ void k_ip_tw(float* M, u64 n, u64 pairs) {
  const u64 k = blockIdx.x * u64{blockDim.x * blockDim.y} + threadIdx.y * u64{blockDim.x} + threadIdx.x;
  if (k >= pairs) return;
  const core::XY e = core::v1_decode(k);
  const float lo = M[e.y * n + e.x], up = M[e.x * n + e.y];
  M[e.y * n + e.x] = up;
  M[e.x * n + e.y] = lo;
}

// The 3D involutions (involutions.h): blockIdx.z picks the N x N matrix of the batch, the tile
// pair comes from the full grid (Listing 6, blocks above the diagonal idle) or from V1B (Listing 7).
template <Inv3 I>
__global__ void k_3d_naive(float* M, u64 n, u64 depth) {
  if (blockIdx.x > blockIdx.y) return;
  const Batch3 b = batch3<I>(n, depth, blockIdx.z);
  swap_tiles(M + b.base, b.pitch, n, blockIdx.x, blockIdx.y);
}

template <Inv3 I>
__global__ void k_3d_v1b(float* M, u64 n, u64 depth, u64 nb, u64 band) {
  const u64 k = blockIdx.x;
  if (k >= core::tri_plus(nb)) return;
  const core::XY t = triangle_tile<Tri::V1B>(nb, band, k);
  const Batch3 b = batch3<I>(n, depth, blockIdx.z);
  swap_tiles(M + b.base, b.pitch, n, t.x, t.y);
}

// Listing 1: tile (tx, ty) of the rows x cols input to tile (ty, tx) of the cols x rows output.
__device__ __forceinline__ void copy_tile(const float* __restrict__ in, float* __restrict__ out, u64 rows, u64 cols,
                                          u64 tx, u64 ty) {
  __shared__ float tile[kTile][kTile + 1];
  const unsigned c = threadIdx.x;
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    const u64 row = ty * kTile + r, col = tx * kTile + c;
    if (row < rows && col < cols) tile[r][c] = in[row * cols + col];
  }
  __syncthreads();
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    const u64 row = tx * kTile + r, col = ty * kTile + c;
    if (row < cols && col < rows) out[row * rows + col] = tile[c][r];
  }
}

// NVIDIA's order: a cb x rb grid, blockIdx.x fastest.
__global__ void k_oop_nvidia(const float* __restrict__ in, float* __restrict__ out, u64 rows, u64 cols) {
  copy_tile(in, out, rows, cols, blockIdx.x, blockIdx.y);
}

// Banded: cb * rb blocks in a one-dimensional grid, block k decoded by V1BF.
__global__ void k_oop_v1bf(const float* __restrict__ in, float* __restrict__ out, u64 rows, u64 cols, u64 cb, u64 rb,
                           u64 band) {
  const u64 k = blockIdx.x;
  if (k >= cb * rb) return;
  const core::XY t = v1bf_tile(cb, rb, band, k);
  copy_tile(in, out, rows, cols, t.x, t.y);
}

// a (R x C) <- cell i = r C + c.
__global__ void k_fill(float* a, u64 R, u64 C) {
  for (u64 r = blockIdx.y; r < R; r += gridDim.y)
    for (u64 c = blockIdx.x * u64{blockDim.x} + threadIdx.x; c < C; c += u64{gridDim.x} * blockDim.x)
      a[r * C + c] = __uint_as_float(cell_bits(r * C + c));
}

// Counts the cells of a (R x C) that differ, bit for bit, from the expected one: cell r C + c of
// the source, or (transposed) cell c R + r of the C x R source. Keeps the lowest bad offset.
__global__ void k_check(const float* a, u64 R, u64 C, bool transposed, unsigned long long* bad,
                        unsigned long long* first) {
  unsigned long long mine = 0, low = ~0ull;
  for (u64 r = blockIdx.y; r < R; r += gridDim.y)
    for (u64 c = blockIdx.x * u64{blockDim.x} + threadIdx.x; c < C; c += u64{gridDim.x} * blockDim.x) {
      const std::uint32_t want = cell_bits(transposed ? c * R + r : r * C + c);
      if (__float_as_uint(a[r * C + c]) != want) {
        if (mine++ == 0) low = r * C + c;
      }
    }
  if (mine) {
    atomicAdd(bad, mine);
    atomicMin(first, low);
  }
}

// Counts the cells of the n x n x depth matrix a (seen as R = n depth rows of C = n cells) that
// differ from cell_bits of the cell they came from: itself, or (image) its involution image.
template <Inv3 I>
__global__ void k_check3(const float* a, u64 n, u64 depth, bool image, unsigned long long* bad,
                         unsigned long long* first) {
  const u64 R = n * depth, C = n;
  unsigned long long mine = 0, low = ~0ull;
  for (u64 r = blockIdx.y; r < R; r += gridDim.y)
    for (u64 c = blockIdx.x * u64{blockDim.x} + threadIdx.x; c < C; c += u64{gridDim.x} * blockDim.x) {
      const u64 i = r * C + c;
      const std::uint32_t want = cell_bits(image ? core::involution_image<I>(n, depth, i) : i);
      if (__float_as_uint(a[i]) != want) {
        if (mine++ == 0) low = i;
      }
    }
  if (mine) {
    atomicAdd(bad, mine);
    atomicMin(first, low);
  }
}

// ---------------------------------------------------------------------------------------------
// Launch shapes.

const dim3 kBlock(kTile, kRows);

dim3 sweep_grid(u64 R, u64 C) {
  const u64 x = std::min<u64>((C + 255) / 256, 64), y = std::min<u64>(R, 65535);
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
}

const char* name(InPlaceAlg a) {
  switch (a) {
    case InPlaceAlg::Naive:
      return "naive";
    case InPlaceAlg::SuperGrid:
      return "supergrid";
    case InPlaceAlg::V1:
      return "v1";
    case InPlaceAlg::V1R:
      return "v1r";
    case InPlaceAlg::V1B:
      return "v1b";
    case InPlaceAlg::TW:
      return "tw";
  }
  return "?";
}

// The in-place launches over an n x n matrix of nb x nb tiles.
struct InPlace {
  float* M;
  u64 n, nb, band, region;

  void naive() const {
    k_ip_naive<<<dim3(static_cast<unsigned>(nb), static_cast<unsigned>(nb)), kBlock>>>(M, n);
    MMSIM_LAUNCHED();
  }
  void super_grid() const {
    // Listing 3: the host walks the regions on or below the diagonal, one launch each.
    const u64 r = region, nr = (nb + r - 1) / r;
    for (u64 ry = 0; ry < nr; ++ry)
      for (u64 rx = 0; rx <= ry; ++rx) {
        k_ip_region<<<dim3(static_cast<unsigned>(r), static_cast<unsigned>(r)), kBlock>>>(M, n, nb, rx * r, ry * r);
        MMSIM_LAUNCHED();
      }
  }
  void thread_wise() const {
    // Blocks of kTile x kRows threads as the tile kernels', one thread per entry below the diagonal.
    const u64 pairs = core::tri_minus(n), per = u64{kTile} * kRows;
    if (pairs == 0) return;
    k_ip_tw<<<static_cast<unsigned>((pairs + per - 1) / per), kBlock>>>(M, n, pairs);
    MMSIM_LAUNCHED();
  }
  template <Tri S>
  void scheme() const {
    k_ip_scheme<S><<<static_cast<unsigned>(core::tri_plus(nb)), kBlock>>>(M, n, nb, clamp_band(band, nb));
    MMSIM_LAUNCHED();
  }
  void launch(InPlaceAlg a) const {
    switch (a) {
      case InPlaceAlg::Naive:
        naive();
        break;
      case InPlaceAlg::SuperGrid:
        super_grid();
        break;
      case InPlaceAlg::V1:
        scheme<Tri::V1>();
        break;
      case InPlaceAlg::V1R:
        scheme<Tri::V1R>();
        break;
      case InPlaceAlg::V1B:
        scheme<Tri::V1B>();
        break;
      case InPlaceAlg::TW:
        thread_wise();
        break;
    }
  }
};

// The 3D launches over an n x n x depth matrix (T_yxz) or n x depth x n (T_zyx), on the original
// grid or in V1B bands (banded).
struct Involutions {
  float* M;
  u64 n, depth, nb, band;
  bool yxz, banded;

  template <Inv3 I>
  void launch_one() const {
    const auto z = static_cast<unsigned>(depth);
    if (banded) {
      k_3d_v1b<I><<<dim3(static_cast<unsigned>(core::tri_plus(nb)), 1, z), kBlock>>>(M, n, depth, nb, band);
    } else {
      k_3d_naive<I><<<dim3(static_cast<unsigned>(nb), static_cast<unsigned>(nb), z), kBlock>>>(M, n, depth);
    }
    MMSIM_LAUNCHED();
  }
  void launch() const {
    if (yxz)
      launch_one<Inv3::Yxz>();
    else
      launch_one<Inv3::Zyx>();
  }
};

// The out-of-place launches: in (rows x cols, cb x rb tiles) into out.
struct OutOfPlace {
  const float* in;
  float* out;
  u64 rows, cols, cb, rb, band;

  void launch(OutOfPlaceAlg a) const {
    if (a == OutOfPlaceAlg::Nvidia) {
      k_oop_nvidia<<<dim3(static_cast<unsigned>(cb), static_cast<unsigned>(rb)), kBlock>>>(in, out, rows, cols);
    } else {
      k_oop_v1bf<<<static_cast<unsigned>(cb * rb), kBlock>>>(in, out, rows, cols, cb, rb, band);
    }
    MMSIM_LAUNCHED();
  }
};

}  // namespace

// ---------------------------------------------------------------------------------------------

DeviceMatrix DeviceMatrix::try_alloc(u64 cells) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, cells * sizeof(float));
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clears the error, so that the next launch's check does not see it
    return {};
  }
  cuda_check(e, "cudaMalloc", __FILE__, __LINE__);
  DeviceMatrix m;
  m.p_ = static_cast<float*>(p);
  return m;
}

DeviceMatrix::~DeviceMatrix() {
  // Errors on release cannot be reported from a destructor; release() checks them.
  if (p_) cudaFree(p_);
}

DeviceMatrix& DeviceMatrix::operator=(DeviceMatrix&& o) noexcept {
  if (this != &o) {
    if (p_) cudaFree(p_);
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}

void DeviceMatrix::release() {
  float* p = p_;
  p_ = nullptr;
  if (p) MMSIM_CK(cudaFree(p));
}

struct Transposer::Impl {
  EventTimer timer;
  unsigned long long* counters = nullptr;  // mismatches, lowest bad offset

  Impl() { MMSIM_CK(cudaMalloc(&counters, 2 * sizeof(unsigned long long))); }
  ~Impl() { cudaFree(counters); }

  // Adds the cells of a (R x C) that are not what they should be to res (transposed: a holds the
  // transpose of the C x R source).
  void count(const float* a, u64 R, u64 C, bool transposed, Result& res) const {
    tally([&] { k_check<<<sweep_grid(R, C), 256>>>(a, R, C, transposed, counters, counters + 1); }, res);
  }

  // As count, for the 3D matrix a against the input (image false) or its involution image.
  template <Inv3 I>
  void count3(const float* a, u64 n, u64 depth, bool image, Result& res) const {
    tally([&] { k_check3<I><<<sweep_grid(n * depth, n), 256>>>(a, n, depth, image, counters, counters + 1); }, res);
  }

 private:
  // Runs `check`, a launch that counts the wrong cells into counters[0] and keeps the lowest bad
  // offset in counters[1], and adds what it found to res.
  template <typename Check>
  void tally(Check check, Result& res) const {
    const unsigned long long init[2] = {0, ~0ull};
    MMSIM_CK(cudaMemcpy(counters, init, sizeof init, cudaMemcpyHostToDevice));
    check();
    MMSIM_LAUNCHED();
    unsigned long long got[2] = {0, 0};
    MMSIM_CK(cudaMemcpy(got, counters, sizeof got, cudaMemcpyDeviceToHost));
    if (got[0] && res.mismatches == 0) res.first_bad = got[1];
    res.mismatches += got[0];
    if (res.mismatches) res.status = "MISMATCH";
  }
};

Transposer::Transposer() : impl_(std::make_unique<Impl>()) {}
Transposer::~Transposer() = default;

void Transposer::fill(float* a, u64 R, u64 C) {
  k_fill<<<sweep_grid(R, C), 256>>>(a, R, C);
  MMSIM_LAUNCHED();
}

Result Transposer::in_place(InPlaceAlg alg, float* M, u64 n, u64 band, u64 region, const TimingPlan& plan) {
  const u64 nb = (n + kTile - 1) / kTile;
  const InPlace ip{M, n, nb, band, region};
  const auto launch = [&] { ip.launch(alg); };
  Result res;
  res.kind = "in-place";
  res.alg = name(alg);
  res.rows = res.cols = n;
  if (alg == InPlaceAlg::SuperGrid) res.region = region;
  if (alg == InPlaceAlg::V1B) res.band = clamp_band(band, nb);
  fill(M, n, n);
  launch();
  MMSIM_CK(cudaDeviceSynchronize());
  impl_->count(M, n, n, true, res);
  res.t = impl_->timer.time(plan, launch);
  impl_->count(M, n, n, (1 + plan.warmups + plan.runs) % 2 == 1, res);
  return res;
}

Result Transposer::involution(InvolutionAlg alg, float* M, u64 n, u64 depth, u64 band, const TimingPlan& plan) {
  const u64 nb = (n + kTile - 1) / kTile;
  const bool banded = alg == InvolutionAlg::YxzV1B || alg == InvolutionAlg::ZyxV1B;
  const bool yxz = alg == InvolutionAlg::YxzNaive || alg == InvolutionAlg::YxzV1B;
  const Involutions inv{M, n, depth, nb, clamp_band(band, nb), yxz, banded};
  const auto launch = [&] { inv.launch(); };
  Result res;
  res.kind = yxz ? "yxz" : "zyx";
  res.alg = banded ? "v1b" : "naive";
  res.rows = res.cols = n;
  res.depth = depth;
  if (banded) res.band = inv.band;
  const auto check = [&](bool image) {
    if (yxz)
      impl_->count3<Inv3::Yxz>(M, n, depth, image, res);
    else
      impl_->count3<Inv3::Zyx>(M, n, depth, image, res);
  };
  fill(M, n * depth, n);
  launch();
  MMSIM_CK(cudaDeviceSynchronize());
  check(true);
  res.t = impl_->timer.time(plan, launch);
  check((1 + plan.warmups + plan.runs) % 2 == 1);
  return res;
}

Result Transposer::out_of_place(OutOfPlaceAlg alg, const float* in, float* out, u64 rows, u64 cols, u64 band,
                                const TimingPlan& plan) {
  const u64 cb = (cols + kTile - 1) / kTile, rb = (rows + kTile - 1) / kTile;
  const OutOfPlace oop{in, out, rows, cols, cb, rb, clamp_band(band, cb)};
  Result res;
  res.kind = "out-of-place";
  res.alg = alg == OutOfPlaceAlg::Nvidia ? "nvidia" : "v1bf";
  res.rows = rows;
  res.cols = cols;
  if (alg == OutOfPlaceAlg::V1BF) res.band = oop.band;
  static_assert(kPoison == 0x01010101u * kPoisonByte, "the poison of tiles.h is the harness's, byte for byte");
  res.t = impl_->timer.time(
      plan, [&] { poison(out, rows * cols * sizeof(float)); }, [&] { oop.launch(alg); });
  impl_->count(out, cols, rows, true, res);
  return res;
}

}  // namespace mmsim::gpu::enumeration
