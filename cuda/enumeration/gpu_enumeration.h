// The GPU side of GL's block-wise transpositions of float matrices: in place with the naive
// full grid (Listing 2), a super grid of regions (Listings 3-4) or a triangular grid decoded by V1,
// V1R or V1B (Sects. 4-5), or thread-wise (TW, one thread per entry, Sect. 7); out of place in
// NVIDIA's order (Listing 1) or in V1BF order (Sect. 6); the 3D involutions T_yxz and T_zyx with the
// full grid or V1B (Sect. 3.3, Figs. 14-15).
// Timed and checked runs of each kernel, for the driver of `mmsim gpu enumeration`. No CUDA header
// leaks out of it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cuda/harness/timer.h"

namespace mmsim::gpu::enumeration {

using u64 = std::uint64_t;

/// One measured (or skipped) transposition: a row of enumeration.csv.
struct Result {
  std::string kind, alg;  ///< "in-place" or "out-of-place"; the algorithm's name
  u64 rows = 0, cols = 0, band = 0, region = 0;
  u64 depth = 1;  ///< the third side of a 3D involution (1 for the 2D transpositions)
  Timing t;
  u64 mismatches = 0, first_bad = 0;
  std::string status = "ok";  ///< ok | MISMATCH | too-large | time
  /// 8 bytes per cell (one read, one write) over the median time; 0 when not measured.
  double gbps() const {
    return t.median_ms > 0 && status != "too-large" && status != "time"
               ? 8.0 * double(rows) * double(cols) * double(depth) / (t.median_ms * 1e6)
               : 0.0;
  }
};

enum class InPlaceAlg { Naive, SuperGrid, V1, V1R, V1B, TW };
enum class InvolutionAlg { YxzNaive, YxzV1B, ZyxNaive, ZyxV1B };
enum class OutOfPlaceAlg { Nvidia, V1BF };

/// `cells` floats of device memory, freed when dropped.
class DeviceMatrix {
 public:
  DeviceMatrix() = default;
  /// An empty matrix when the device has not the memory; any other failure throws GpuError.
  static DeviceMatrix try_alloc(u64 cells);
  ~DeviceMatrix();
  DeviceMatrix(DeviceMatrix&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  DeviceMatrix& operator=(DeviceMatrix&& o) noexcept;
  DeviceMatrix(const DeviceMatrix&) = delete;
  DeviceMatrix& operator=(const DeviceMatrix&) = delete;

  explicit operator bool() const { return p_ != nullptr; }
  float* get() const { return p_; }
  /// Frees it now, checked (the destructor cannot report an error).
  void release();

 private:
  float* p_ = nullptr;
};

/// The kernels with their launch shapes (blocks of kTile x kRows threads), the harness's timer, and
/// the check on the GPU: every cell compared, bit for bit, with what it should hold. Throws GpuError.
class Transposer {
 public:
  Transposer();
  ~Transposer();
  Transposer(const Transposer&) = delete;
  Transposer& operator=(const Transposer&) = delete;

  /// a (R x C) <- cell i = r C + c holds cell_bits(i) (tiles.h).
  void fill(float* a, u64 R, u64 C);
  /// The n x n matrix M is filled, transposed once and checked against the transpose; the timed
  /// runs keep transposing it (an involution) and the final state is checked against the parity of
  /// the number of runs. `band` (V1B) and `region` (super grid) are in tiles, as given.
  Result in_place(InPlaceAlg alg, float* M, u64 n, u64 band, u64 region, const TimingPlan& plan);
  /// The n x n x depth (T_yxz) or n x depth x n (T_zyx) matrix M is filled, transformed once and
  /// checked against the involution's image, then timed and checked as in_place. `band`: V1B's.
  Result involution(InvolutionAlg alg, float* M, u64 n, u64 depth, u64 band, const TimingPlan& plan);
  /// `in` (rows x cols, filled) into `out` (cols x rows), `out` poisoned before every run and the
  /// last run's output checked. `band` (V1BF), as given.
  Result out_of_place(OutOfPlaceAlg alg, const float* in, float* out, u64 rows, u64 cols, u64 band,
                      const TimingPlan& plan);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmsim::gpu::enumeration
