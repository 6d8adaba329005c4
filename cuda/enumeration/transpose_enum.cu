// GPU benchmark of papers/004's block-wise transpositions of float matrices: in place with the
// naive full grid (Listing 2), a super grid of regions (Listings 3-4) or a triangular grid decoded
// by V1, V1R or V1B (Sects. 4-5); out of place in NVIDIA's order (Listing 1) or in V1BF order
// (Sect. 6). Throughput (2 x 4 bytes per cell: one read, one write) against the matrix order, and
// a rows x cols heat map of the out-of-place pair, each run checked on the GPU cell by cell.
//
//   mmsim_gpu_enumeration --out DIR [--budget-s 90] [--runs 10] [--heat-runs 5] [--warmup 2]
//                         [--band 8] [--region 64] [--max-order 0] [--heat-step 4096] [--heat-max 65536]
// writes DIR/enumeration.{csv,md}, DIR/enumeration_heatmap.csv and one rows x cols grid per
// out-of-place algorithm (DIR/enumeration_heatmap_<alg>.csv). Exit status: 0, 1 on any mismatch,
// 2 on bad arguments, 3 on a CUDA error, no device or an output file that cannot be written.
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/enumeration/tiles.h"

namespace mmsim::gpu::enumeration {
namespace {

using u64 = std::uint64_t;

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ArgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t e, const char* call, int line) {
  if (e != cudaSuccess)
    throw CudaError(std::string("CUDA: ") + call + " (transpose_enum.cu:" + std::to_string(line) +
                    "): " + cudaGetErrorString(e));
}
#define ENUM_CK(call) check((call), #call, __LINE__)
#define ENUM_LAUNCHED() check(cudaGetLastError(), "kernel launch", __LINE__)

// ---------------------------------------------------------------------------------------------
// Kernels. Blocks of kTile x kRows threads; a tile is kTile x kTile cells, staged in shared memory
// with rows padded to kTile + 1 so that reading a tile column hits kTile distinct banks.

// Listing 2: the block swaps tile (tx, ty) with tile (ty, tx), each transposed (tx <= ty). Both
// tiles are in shared memory before either is written, and no other block touches them.
__device__ __forceinline__ void swap_tiles(float* M, u64 n, u64 tx, u64 ty) {
  __shared__ float lower[kTile][kTile + 1];
  __shared__ float upper[kTile][kTile + 1];
  const unsigned c = threadIdx.x;
  const bool diag = tx == ty;
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    u64 row = ty * kTile + r, col = tx * kTile + c;
    if (row < n && col < n) lower[r][c] = M[row * n + col];
    row = tx * kTile + r, col = ty * kTile + c;
    if (!diag && row < n && col < n) upper[r][c] = M[row * n + col];
  }
  __syncthreads();
  for (unsigned r = threadIdx.y; r < kTile; r += kRows) {
    u64 row = ty * kTile + r, col = tx * kTile + c;
    if (row < n && col < n) M[row * n + col] = diag ? lower[c][r] : upper[c][r];
    row = tx * kTile + r, col = ty * kTile + c;
    if (!diag && row < n && col < n) M[row * n + col] = lower[c][r];
  }
}

// Naive: an nb x nb grid in CUDA's order; the blocks above the diagonal have nothing to do.
__global__ void k_ip_naive(float* M, u64 n) {
  if (blockIdx.x <= blockIdx.y) swap_tiles(M, n, blockIdx.x, blockIdx.y);
}

// Super grid: one launch per region of gridDim tiles whose corner tile is (x0, y0).
__global__ void k_ip_region(float* M, u64 n, u64 nb, u64 x0, u64 y0) {
  const u64 x = x0 + blockIdx.x, y = y0 + blockIdx.y;
  if (x < nb && y < nb && x <= y) swap_tiles(M, n, x, y);
}

// Triangular grid: nb(nb + 1)/2 blocks in a one-dimensional grid, block k decoded by scheme S.
template <Tri S>
__global__ void k_ip_scheme(float* M, u64 n, u64 nb, u64 band) {
  const u64 k = blockIdx.x;
  if (k >= core::tri_plus(nb)) return;
  const core::XY t = triangle_tile<S>(nb, band, k);
  swap_tiles(M, n, t.x, t.y);
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

// ---------------------------------------------------------------------------------------------
// Harness.

const dim3 kBlock(kTile, kRows);

dim3 sweep_grid(u64 R, u64 C) {
  const u64 x = std::min<u64>((C + 255) / 256, 64), y = std::min<u64>(R, 65535);
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y));
}

struct Options {
  std::string out = "results/gpu";
  double budget_s = 90;
  int runs = 10, heat_runs = 5, warmup = 2;
  u64 band = 8, region = 64, max_order = 0, heat_step = 4096, heat_max = 65536;
};

struct Result {
  std::string kind, alg;
  u64 rows = 0, cols = 0, band = 0, region = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
  u64 mismatches = 0, first_bad = 0;
  std::string status = "ok";  // ok | MISMATCH | too-large | time
  double gbps() const {
    return median_ms > 0 && status != "too-large" && status != "time"
               ? 8.0 * double(rows) * double(cols) / (median_ms * 1e6)
               : 0.0;
  }
};

class Gpu {
 public:
  Gpu() {
    ENUM_CK(cudaEventCreate(&a_));
    ENUM_CK(cudaEventCreate(&b_));
    ENUM_CK(cudaMalloc(&counters_, 2 * sizeof(unsigned long long)));
  }
  ~Gpu() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
    cudaFree(counters_);
  }
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  u64 free_bytes() const {
    std::size_t f = 0, t = 0;
    ENUM_CK(cudaMemGetInfo(&f, &t));
    return f;
  }
  // nullptr when the memory is not there (the error is cleared); other errors throw.
  float* try_alloc(u64 cells) const {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, cells * sizeof(float));
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return nullptr;
    }
    check(e, "cudaMalloc", __LINE__);
    return static_cast<float*>(p);
  }

  void fill(float* a, u64 R, u64 C) const {
    k_fill<<<sweep_grid(R, C), 256>>>(a, R, C);
    ENUM_LAUNCHED();
  }
  void count(const float* a, u64 R, u64 C, bool transposed, Result& res) const {
    const unsigned long long init[2] = {0, ~0ull};
    ENUM_CK(cudaMemcpy(counters_, init, sizeof init, cudaMemcpyHostToDevice));
    k_check<<<sweep_grid(R, C), 256>>>(a, R, C, transposed, counters_, counters_ + 1);
    ENUM_LAUNCHED();
    unsigned long long got[2] = {0, 0};
    ENUM_CK(cudaMemcpy(got, counters_, sizeof got, cudaMemcpyDeviceToHost));
    if (got[0] && res.mismatches == 0) res.first_bad = got[1];
    res.mismatches += got[0];
    if (res.mismatches) res.status = "MISMATCH";
  }

  // Timed runs: `before` (untimed, e.g. poisoning) then the launches between two events; median.
  template <class Before, class Launch>
  void time(int warmup, int runs, Before before, Launch launch, Result& res) const {
    for (int i = 0; i < warmup; ++i) {
      before();
      launch();
    }
    ENUM_CK(cudaDeviceSynchronize());
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      before();
      ENUM_CK(cudaEventRecord(a_));
      launch();
      ENUM_CK(cudaEventRecord(b_));
      ENUM_CK(cudaEventSynchronize(b_));
      float t = 0;
      ENUM_CK(cudaEventElapsedTime(&t, a_, b_));
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    res.runs = runs;
    res.min_ms = ms.front();
    res.max_ms = ms.back();
    res.median_ms = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  }

 private:
  cudaEvent_t a_{}, b_{};
  unsigned long long* counters_ = nullptr;
};

// ---- in place ----

struct InPlace {
  const Gpu& gpu;
  const Options& opt;
  float* M;
  u64 n, nb;

  void naive() const {
    k_ip_naive<<<dim3(static_cast<unsigned>(nb), static_cast<unsigned>(nb)), kBlock>>>(M, n);
    ENUM_LAUNCHED();
  }
  void super_grid() const {
    // Listing 3: the host walks the regions on or below the diagonal, one launch each.
    const u64 r = opt.region, nr = (nb + r - 1) / r;
    for (u64 ry = 0; ry < nr; ++ry)
      for (u64 rx = 0; rx <= ry; ++rx) {
        k_ip_region<<<dim3(static_cast<unsigned>(r), static_cast<unsigned>(r)), kBlock>>>(M, n, nb, rx * r, ry * r);
        ENUM_LAUNCHED();
      }
  }
  template <Tri S>
  void scheme() const {
    k_ip_scheme<S><<<static_cast<unsigned>(core::tri_plus(nb)), kBlock>>>(M, n, nb, clamp_band(opt.band, nb));
    ENUM_LAUNCHED();
  }

  // Fresh matrix, one run checked against its transpose; the timed runs keep transposing (an
  // involution) and the final state is checked against the parity of the number of runs.
  template <class Launch>
  Result measure(const char* alg, Launch launch) const {
    Result res{"in-place", alg, n, n, 0, 0};
    gpu.fill(M, n, n);
    launch();
    ENUM_CK(cudaDeviceSynchronize());
    gpu.count(M, n, n, true, res);
    gpu.time(
        opt.warmup, opt.runs, [] {}, launch, res);
    gpu.count(M, n, n, (1 + opt.warmup + opt.runs) % 2 == 1, res);
    return res;
  }
};

// ---- out of place ----

struct OutOfPlace {
  const Gpu& gpu;
  float *in, *out;
  u64 rows, cols, cb, rb, band;

  void nvidia() const {
    k_oop_nvidia<<<dim3(static_cast<unsigned>(cb), static_cast<unsigned>(rb)), kBlock>>>(in, out, rows, cols);
    ENUM_LAUNCHED();
  }
  void v1bf() const {
    k_oop_v1bf<<<static_cast<unsigned>(cb * rb), kBlock>>>(in, out, rows, cols, cb, rb, band);
    ENUM_LAUNCHED();
  }
  // Every run writes over a poisoned output; the last one is checked cell by cell.
  template <class Launch>
  Result measure(const char* alg, int warmup, int runs, Launch launch) const {
    Result res{"out-of-place", alg, rows, cols, band, 0};
    const auto poison = [&] { ENUM_CK(cudaMemsetAsync(out, 0xFF, rows * cols * sizeof(float))); };
    static_assert(kPoison == 0xFFFFFFFFu, "the memset writes 0xFF bytes");
    gpu.time(warmup, runs, poison, launch, res);
    gpu.count(out, cols, rows, true, res);
    return res;
  }
};

constexpr u64 kMargin = u64{512} << 20;  // left free for the context, counters and fragmentation

void progress(const Result& r) {
  std::fprintf(stderr, "%s %s %llux%llu: %.3f ms, %.1f GB/s, %s\n", r.kind.c_str(), r.alg.c_str(),
               (unsigned long long)r.rows, (unsigned long long)r.cols, r.median_ms, r.gbps(), r.status.c_str());
}

Result not_run(const char* kind, const char* alg, u64 rows, u64 cols, u64 band, const char* why) {
  Result r{kind, alg, rows, cols, band, 0};
  r.status = why;
  return r;
}

// Orders: every 1K to 16K, every 2K to 32K, every 4K to 64K, then every 8K.
std::vector<u64> square_orders(u64 cap) {
  std::vector<u64> v;
  for (u64 k = 1; k <= 4096; k += k < 16 ? 1 : k < 32 ? 2 : k < 64 ? 4 : 8)
    if (cap == 0 || k * 1024 <= cap) v.push_back(k * 1024);
  return v;
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Sweep {
  std::vector<Result> square, heat;
  u64 largest_ip = 0, largest_oop = 0;
  std::string ip_stop, oop_stop;
};

void run_square(const Gpu& gpu, const Options& opt, Clock::time_point t0, double deadline, Sweep& sw) {
  const auto orders = square_orders(opt.max_order);
  double last_s = 0;
  u64 last_n = 0;
  bool oop_on = true;
  for (u64 n : orders) {
    const u64 cells = n * n, bytes = cells * sizeof(float), nb = (n + kTile - 1) / kTile;
    if (last_n) {
      const double predicted = last_s * double(n) * double(n) / (double(last_n) * double(last_n));
      if (since(t0) + predicted > deadline) {
        sw.ip_stop = "time budget: order " + std::to_string(n) + " was predicted to take " +
                     std::to_string(int(predicted)) + " s, past the square sweep's share of the budget";
        if (oop_on) sw.oop_stop = sw.ip_stop;
        break;
      }
    }
    if (bytes + kMargin > gpu.free_bytes()) {
      sw.ip_stop = "memory: order " + std::to_string(n) + " needs " + std::to_string(bytes >> 20) + " MiB, " +
                   std::to_string(gpu.free_bytes() >> 20) + " MiB free";
      if (oop_on) sw.oop_stop = sw.ip_stop;
      break;
    }
    const auto t1 = Clock::now();
    float* M = gpu.try_alloc(cells);
    if (!M) {
      sw.ip_stop = "memory: cudaMalloc of order " + std::to_string(n) + " failed";
      if (oop_on) sw.oop_stop = sw.ip_stop;
      break;
    }
    const InPlace ip{gpu, opt, M, n, nb};
    sw.square.push_back(ip.measure("naive", [&] { ip.naive(); }));
    sw.square.push_back(ip.measure("supergrid", [&] { ip.super_grid(); }));
    sw.square.back().region = opt.region;
    sw.square.push_back(ip.measure("v1", [&] { ip.scheme<Tri::V1>(); }));
    sw.square.push_back(ip.measure("v1r", [&] { ip.scheme<Tri::V1R>(); }));
    sw.square.push_back(ip.measure("v1b", [&] { ip.scheme<Tri::V1B>(); }));
    sw.square.back().band = clamp_band(opt.band, nb);
    for (auto it = sw.square.end() - 5; it != sw.square.end(); ++it) progress(*it);
    ENUM_CK(cudaFree(M));
    sw.largest_ip = n;
    if (oop_on) {
      float* in = 2 * bytes + kMargin <= gpu.free_bytes() ? gpu.try_alloc(cells) : nullptr;
      float* out = in ? gpu.try_alloc(cells) : nullptr;
      if (!out) {
        if (in) ENUM_CK(cudaFree(in));
        oop_on = false;
        sw.oop_stop =
            "memory: order " + std::to_string(n) + " needs two matrices of " + std::to_string(bytes >> 20) + " MiB";
      } else {
        gpu.fill(in, n, n);
        const OutOfPlace oop{gpu, in, out, n, n, nb, nb, clamp_band(opt.band, nb)};
        sw.square.push_back(oop.measure("nvidia", opt.warmup, opt.runs, [&] { oop.nvidia(); }));
        sw.square.back().band = 0;
        sw.square.push_back(oop.measure("v1bf", opt.warmup, opt.runs, [&] { oop.v1bf(); }));
        progress(sw.square.end()[-2]);
        progress(sw.square.back());
        ENUM_CK(cudaFree(in));
        ENUM_CK(cudaFree(out));
        sw.largest_oop = n;
      }
    }
    if (!oop_on) {
      sw.square.push_back(not_run("out-of-place", "nvidia", n, n, 0, "too-large"));
      sw.square.push_back(not_run("out-of-place", "v1bf", n, n, clamp_band(opt.band, nb), "too-large"));
    }
    last_s = since(t1);
    last_n = n;
  }
  if (sw.ip_stop.empty()) sw.ip_stop = "the order grid ends here (--max-order or the grid's last order)";
  if (sw.oop_stop.empty()) sw.oop_stop = sw.ip_stop;
}

void run_heat(const Gpu& gpu, const Options& opt, Clock::time_point t0, double deadline, Sweep& sw) {
  std::vector<std::pair<u64, u64>> cells;
  for (u64 r = opt.heat_step; r <= opt.heat_max; r += opt.heat_step)
    for (u64 c = opt.heat_step; c <= opt.heat_max; c += opt.heat_step) cells.emplace_back(r, c);
  // Smallest first, so that a time-limited map is complete up to some size.
  std::stable_sort(cells.begin(), cells.end(),
                   [](const auto& a, const auto& b) { return a.first * a.second < b.first * b.second; });
  double s_per_cell = 0;  // wall seconds per matrix cell of the last measured shape
  for (auto [rows, cols] : cells) {
    const u64 n = rows * cols, cb = (cols + kTile - 1) / kTile, rb = (rows + kTile - 1) / kTile;
    const u64 band = clamp_band(opt.band, cb);
    const char* skip = nullptr;
    if (2 * n * sizeof(float) + kMargin > gpu.free_bytes())
      skip = "too-large";
    else if (s_per_cell > 0 && since(t0) + s_per_cell * double(n) > deadline)
      skip = "time";
    float *in = nullptr, *out = nullptr;
    if (!skip) {
      in = gpu.try_alloc(n);
      out = in ? gpu.try_alloc(n) : nullptr;
      if (!out) {
        if (in) ENUM_CK(cudaFree(in));
        skip = "too-large";
      }
    }
    if (skip) {
      sw.heat.push_back(not_run("out-of-place", "nvidia", rows, cols, 0, skip));
      sw.heat.push_back(not_run("out-of-place", "v1bf", rows, cols, band, skip));
      continue;
    }
    const auto t1 = Clock::now();
    gpu.fill(in, rows, cols);
    const OutOfPlace oop{gpu, in, out, rows, cols, cb, rb, band};
    sw.heat.push_back(oop.measure("nvidia", 1, opt.heat_runs, [&] { oop.nvidia(); }));
    sw.heat.back().band = 0;
    sw.heat.push_back(oop.measure("v1bf", 1, opt.heat_runs, [&] { oop.v1bf(); }));
    progress(sw.heat.end()[-2]);
    progress(sw.heat.back());
    ENUM_CK(cudaFree(in));
    ENUM_CK(cudaFree(out));
    s_per_cell = since(t1) / double(n);
  }
}

// ---------------------------------------------------------------------------------------------
// Output.

std::string fmt(double v, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  if (!f || !(f << text)) throw std::runtime_error("cannot write " + path);
}

std::string csv(const std::vector<Result>& rs) {
  std::ostringstream o;
  o << "kind,algorithm,rows,cols,band,region,median_ms,min_ms,max_ms,GBps,runs,mismatches,status\n";
  for (const auto& r : rs)
    o << r.kind << ',' << r.alg << ',' << r.rows << ',' << r.cols << ',' << r.band << ',' << r.region << ','
      << fmt(r.median_ms, 4) << ',' << fmt(r.min_ms, 4) << ',' << fmt(r.max_ms, 4) << ',' << fmt(r.gbps(), 2) << ','
      << r.runs << ',' << r.mismatches << ',' << r.status << '\n';
  return o.str();
}

// One algorithm's heat map as a grid: first row the column counts, first column the row counts;
// GB/s in the cells, 0 where the shape was not measured (too large, or out of time).
std::string heat_grid(const std::vector<Result>& rs, const std::string& alg, const Options& opt) {
  std::map<std::pair<u64, u64>, double> v;
  for (const auto& r : rs)
    if (r.alg == alg) v[{r.rows, r.cols}] = r.gbps();
  std::ostringstream o;
  o << "rows\\cols";
  for (u64 c = opt.heat_step; c <= opt.heat_max; c += opt.heat_step) o << ',' << c;
  o << '\n';
  for (u64 r = opt.heat_step; r <= opt.heat_max; r += opt.heat_step) {
    o << r;
    for (u64 c = opt.heat_step; c <= opt.heat_max; c += opt.heat_step) o << ',' << fmt(v[{r, c}], 2);
    o << '\n';
  }
  return o.str();
}

std::string device_line() {
  cudaDeviceProp p{};
  ENUM_CK(cudaGetDeviceProperties(&p, 0));
  int driver = 0, runtime = 0;
  ENUM_CK(cudaDriverGetVersion(&driver));
  ENUM_CK(cudaRuntimeGetVersion(&runtime));
  return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
         fmt(double(p.totalGlobalMem) / double(1u << 30), 1) + " GiB, compute capability " + std::to_string(p.major) +
         "." + std::to_string(p.minor) + ", driver " + std::to_string(driver) + ", runtime " + std::to_string(runtime);
}

std::string markdown(const Sweep& sw, const Options& opt, const std::string& device, double seconds) {
  const std::vector<std::pair<std::string, std::string>> algs{
      {"in-place", "naive"}, {"in-place", "supergrid"},  {"in-place", "v1"},      {"in-place", "v1r"},
      {"in-place", "v1b"},   {"out-of-place", "nvidia"}, {"out-of-place", "v1bf"}};
  const auto label = [](const std::pair<std::string, std::string>& a) {
    return std::string(a.first == "in-place" ? "IP " : "OOP ") + a.second;
  };
  std::ostringstream o;
  o << "# Enumeration-scheme transposition on the GPU (papers/004 Sect. 7, Figs. 9-13)\n\n";
  o << "Device: " << device << ".\n\n";
  o << "float matrices; tiles of " << kTile << " x " << kTile << " cells, blocks of " << kTile << " x " << kRows
    << " threads; V1B and V1BF bands of " << opt.band << " tiles; super-grid regions of " << opt.region << " x "
    << opt.region << " tiles (one launch each). Throughput = 8 bytes per cell (one read, one write) / median time of "
    << opt.runs << " timed runs after " << opt.warmup << " warm-up runs (CUDA events around the launches only).\n\n";
  o << "## Throughput (GB/s) against the matrix order\n\n| order |";
  for (const auto& a : algs) o << ' ' << label(a) << " |";
  o << "\n|---:|";
  for (std::size_t i = 0; i < algs.size(); ++i) o << "---:|";
  o << '\n';
  std::map<u64, std::map<std::string, const Result*>> by;
  for (const auto& r : sw.square) by[r.rows][r.kind + "/" + r.alg] = &r;
  for (const auto& [n, m] : by) {
    o << "| " << n << " |";
    for (const auto& a : algs) {
      const auto it = m.find(a.first + "/" + a.second);
      if (it == m.end() || it->second->status == "too-large" || it->second->status == "time")
        o << " - |";
      else
        o << ' ' << fmt(it->second->gbps()) << (it->second->mismatches ? " (WRONG)" : "") << " |";
    }
    o << '\n';
  }
  o << "\n## Stability per algorithm\n\n"
       "best/worst: the best order's throughput over the worst order's. largest/peak: the throughput at the "
       "largest order measured over the peak. Small orders are also slow for reasons other than address "
       "translation (too few blocks to fill the GPU, launch overhead), hence the third ratio over orders of "
       "16384 and more only.\n\n"
       "| algorithm | orders | peak GB/s (order) | worst GB/s (order) | best/worst | largest/peak | best/worst, order "
       ">= 16384 |\n"
       "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& a : algs) {
    const Result *best = nullptr, *worst = nullptr, *last = nullptr, *best16 = nullptr, *worst16 = nullptr;
    int count = 0;
    for (const auto& r : sw.square) {
      if (r.kind != a.first || r.alg != a.second || r.status != "ok") continue;
      ++count;
      if (!best || r.gbps() > best->gbps()) best = &r;
      if (!worst || r.gbps() < worst->gbps()) worst = &r;
      if (!last || r.rows > last->rows) last = &r;
      if (r.rows >= 16384) {
        if (!best16 || r.gbps() > best16->gbps()) best16 = &r;
        if (!worst16 || r.gbps() < worst16->gbps()) worst16 = &r;
      }
    }
    o << "| " << label(a) << " | " << count << " | ";
    if (!best) {
      o << "- | - | - | - | - |\n";
      continue;
    }
    o << fmt(best->gbps()) << " (" << best->rows << ") | " << fmt(worst->gbps()) << " (" << worst->rows << ") | "
      << fmt(best->gbps() / worst->gbps(), 2) << " | " << fmt(last->gbps() / best->gbps(), 2) << " | "
      << (best16 ? fmt(best16->gbps() / worst16->gbps(), 2) : std::string("-")) << " |\n";
  }
  u64 bad = 0;
  for (const auto* v : {&sw.square, &sw.heat})
    for (const auto& r : *v) bad += r.mismatches;
  o << "\n## Heat map: out of place, rows x cols (GB/s)\n\n"
       "Shapes from "
    << opt.heat_step << " to " << opt.heat_max << " in steps of " << opt.heat_step << ", " << opt.heat_runs
    << " timed runs each; grids in enumeration_heatmap_nvidia.csv and enumeration_heatmap_v1bf.csv (0 = not "
       "measured).\n\n"
       "| algorithm | shapes measured | too large | out of time | min GB/s (shape) | max GB/s (shape) | max/min |\n"
       "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const char* alg : {"nvidia", "v1bf"}) {
    const Result *lo = nullptr, *hi = nullptr;
    int ok = 0, big = 0, late = 0;
    for (const auto& r : sw.heat) {
      if (r.alg != alg) continue;
      if (r.status == "too-large")
        ++big;
      else if (r.status == "time")
        ++late;
      else {
        ++ok;
        if (!lo || r.gbps() < lo->gbps()) lo = &r;
        if (!hi || r.gbps() > hi->gbps()) hi = &r;
      }
    }
    o << "| OOP " << alg << " | " << ok << " | " << big << " | " << late << " | ";
    if (!lo)
      o << "- | - | - |\n";
    else
      o << fmt(lo->gbps()) << " (" << lo->rows << " x " << lo->cols << ") | " << fmt(hi->gbps()) << " (" << hi->rows
        << " x " << hi->cols << ") | " << fmt(hi->gbps() / lo->gbps(), 2) << " |\n";
  }
  o << "\n## Notes\n\n";
  o << "- Largest order measured in place: " << sw.largest_ip << " (stopped by " << sw.ip_stop << ").\n";
  o << "- Largest order measured out of place: " << sw.largest_oop << " (stopped by " << sw.oop_stop << ").\n";
  o << "- Checks: in place, the matrix is filled with distinct cell values, checked on the GPU against its transpose "
       "after one run and again after the timed runs (against the parity of the number of runs); out of place, the "
       "output is poisoned (all-ones NaN, no cell's value) before every run and the last run's output is checked "
       "cell by cell on the GPU. Mismatched cells over all runs: "
    << bad << (bad ? " -- SOME RESULTS ARE WRONG." : ".") << '\n';
  o << "- Whether the \"seashore\" degradation of papers/004 (throughput falling with the order, Figs. 9-11, and "
       "the cold shore of the heat maps, Figs. 12-13) shows on this device is read from the ratios above; this "
       "file does not judge it.\n";
  o << "- Whole run: " << fmt(seconds, 1) << " s (budget " << fmt(opt.budget_s, 0) << " s).\n";
  return o.str();
}

// ---------------------------------------------------------------------------------------------

u64 parse_u64(const std::string& name, const char* v, u64 lo, u64 hi) {
  if (!v) throw ArgError(name + ": needs a value");
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(v, &end, 10);
  if (errno || end == v || *end || v[0] == '-' || x < lo || x > hi)
    throw ArgError(name + ": must be an integer between " + std::to_string(lo) + " and " + std::to_string(hi) +
                   " (got '" + v + "')");
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--help" || a == "-h") throw ArgError("help");
    ++i;
    if (a == "--out") {
      if (!v || !*v) throw ArgError("--out: needs a folder");
      o.out = v;
    } else if (a == "--budget-s")
      o.budget_s = double(parse_u64(a, v, 1, 86400));
    else if (a == "--runs")
      o.runs = int(parse_u64(a, v, 1, 1000));
    else if (a == "--heat-runs")
      o.heat_runs = int(parse_u64(a, v, 1, 1000));
    else if (a == "--warmup")
      o.warmup = int(parse_u64(a, v, 0, 100));
    else if (a == "--band")
      o.band = parse_u64(a, v, 1, u64{1} << 20);
    else if (a == "--region")
      o.region = parse_u64(a, v, 1, 1024);
    else if (a == "--max-order")
      o.max_order = parse_u64(a, v, 0, u64{1} << 22);
    else if (a == "--heat-step")
      o.heat_step = parse_u64(a, v, kTile, u64{1} << 20);
    else if (a == "--heat-max")
      o.heat_max = parse_u64(a, v, kTile, u64{1} << 20);
    else
      throw ArgError(a + ": unknown option");
  }
  if (o.heat_max < o.heat_step) throw ArgError("--heat-max: must be at least --heat-step");
  if (o.heat_max / o.heat_step > 64) throw ArgError("--heat-max: at most 64 steps of --heat-step per side");
  return o;
}

int run(const Options& opt) {
  const auto t0 = Clock::now();
  std::error_code ec;
  std::filesystem::create_directories(opt.out, ec);
  if (ec) throw ArgError("--out: cannot create " + opt.out + ": " + ec.message());
  const std::string device = device_line();
  std::fprintf(stderr, "%s\n", device.c_str());
  Gpu gpu;
  Sweep sw;
  // The order sweep gets about two thirds of the budget, the heat map the rest.
  run_square(gpu, opt, t0, opt.budget_s * 0.65, sw);
  run_heat(gpu, opt, t0, opt.budget_s, sw);
  const double seconds = since(t0);
  write(opt.out + "/enumeration.csv", csv(sw.square));
  write(opt.out + "/enumeration_heatmap.csv", csv(sw.heat));
  write(opt.out + "/enumeration_heatmap_nvidia.csv", heat_grid(sw.heat, "nvidia", opt));
  write(opt.out + "/enumeration_heatmap_v1bf.csv", heat_grid(sw.heat, "v1bf", opt));
  write(opt.out + "/enumeration.md", markdown(sw, opt, device, seconds));
  u64 bad = 0;
  for (const auto* v : {&sw.square, &sw.heat})
    for (const auto& r : *v) bad += r.mismatches;
  std::fprintf(stderr, "enumeration: %zu square and %zu heat-map measurements in %.1f s, %llu mismatched cells\n",
               sw.square.size(), sw.heat.size(), seconds, (unsigned long long)bad);
  return bad ? 1 : 0;
}

}  // namespace
}  // namespace mmsim::gpu::enumeration

int main(int argc, char** argv) {
  using namespace mmsim::gpu::enumeration;
  try {
    return run(parse(argc, argv));
  } catch (const ArgError& e) {
    if (std::string(e.what()) == "help") {
      std::printf(
          "usage: mmsim_gpu_enumeration [--out DIR] [--budget-s S] [--runs N] [--heat-runs N] [--warmup N]\n"
          "         [--band TILES] [--region TILES] [--max-order N] [--heat-step N] [--heat-max N]\n");
      return 0;
    }
    std::fprintf(stderr, "mmsim_gpu_enumeration: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mmsim_gpu_enumeration: %s\n", e.what());
    return 3;
  }
}
