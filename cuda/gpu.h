// Folder cuda/ (target mmsim::cuda): the CUDA backend's kernels and the harness they share (harness/:
// error check, event timer, device description, poison and check, reference source). Each family's
// kernels have a host entry point of plain C++ (this header, bmmc/gpu_bmmc.h, ...); the index
// arithmetic the kernels share with the host (index.h, schedule.h, rap_shifts.h) is built and tested
// without CUDA. It may include sim/, models/, io/, report/, algorithms/ and, for the calibration
// kernels, the microbenchmarks' definitions (predict/microbench*.h); the tables that drive it are
// experiments/gpu/.
//
// The CUDA backend's host interface: the device, and timed, checked runs of every permutation
// kernel. No CUDA header leaks out of it, so the CLI and the tables compile with the host compiler.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/harness/device.h"
#include "cuda/harness/error.h"
#include "cuda/harness/timer.h"
#include "cuda/index.h"
#include "cuda/schedule.h"

namespace mmsim::gpu {

enum class Elem : std::uint8_t { F32, F64 };
inline const char* to_string(Elem e) { return e == Elem::F32 ? "float" : "double"; }
inline std::uint32_t elem_bytes(Elem e) { return e == Elem::F32 ? 4 : 8; }

/// One measured kernel (or sequence of kernels): the harness's timed runs (cuda/harness/timer.h),
/// the output poisoned before every run; `correct` compares the last run's output with the CPU
/// reference cell by cell (cuda/harness/poison.h).
struct Measure : Timing {
  int kernels = 0;  ///< launches per run
  bool correct = false;
  std::uint64_t mismatches = 0;
  std::string detail;  ///< first mismatch, or launch configuration
};

struct BenchConfig {
  int warmup = kWarmups;
  int runs = 20;
  unsigned host_threads = 8;  ///< for the CPU check
};

/// The schedule of the scheduled permutation in the forms its kernels read (KNI Sects. 6-7).
struct GpuSchedule {
  std::uint32_t side = 0;
  BankSchedule paper[3];                             ///< conflict-free s and d per step (scheduled-paper)
  std::vector<std::uint16_t> gather[3];              ///< gather indices per step (scheduled-fused)
  std::uint32_t fused_rows[3] = {1, 1, 1};           ///< rows per block of each fused kernel
  double seconds_colouring = 0, seconds_tables = 0;  ///< the offline builder: row colouring, S/D tables
  double seconds_arrays = 0;                         ///< the gather arrays of scheduled-fused
};

/// Rows per block of the fused row-wise kernel: the most rows (up to 8) whose elements fit in
/// `shared_cap` bytes of shared memory.
std::uint32_t fused_rows_per_block(std::uint32_t side, Elem e, std::uint64_t shared_cap);

/// Builds both forms from a permutation of side^2 cells with algorithms/offline's builder (host
/// work, timed, excluded from the GPU times as in KNI Sect. 8). `want_paper`: also keep the
/// S/D tables of the paper's kernels.
GpuSchedule build_schedule(const std::vector<std::uint32_t>& p, std::uint32_t side, Elem e, bool want_paper);
/// The same from an already built schedule (its S/D tables copied when `want_paper`).
GpuSchedule build_schedule(const OfflineSchedule& s, Elem e, bool want_paper);

/// Device buffers for arrays of n elements of one type, and the timed runs on them. The source array
/// holds distinct finite values; the poison (all ones: a NaN) is none of them.
class Bench {
 public:
  Bench(std::uint64_t n, Elem elem, BenchConfig config = {});
  ~Bench();
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  std::uint64_t n() const;
  Elem elem() const;

  /// The 100 % line: a 16-byte-vector copy of the whole array.
  Measure copy();
  /// KNI Sect. 4: b[p[i]] <- a[i].
  Measure d_designated(const std::vector<std::uint32_t>& p);
  /// KNI Sect. 4: b[i] <- a[q[i]], q = p^-1.
  Measure s_designated(const std::vector<std::uint32_t>& p);
  /// KNI Sect. 5 through 32 x 32 tiles; p is the permutation the map performs (for the check).
  Measure tiled(const TileMap& map, const std::vector<std::uint32_t>& p);
  /// One row-wise permutation (KNI Sect. 6), the paper's kernel: `step` as in OfflineSchedule,
  /// `bs` its S/D tables (bank_schedule(step, side)). `pipelined`: the kernel of scheduled-pipelined.
  Measure row_wise(const std::vector<std::uint32_t>& step, const BankSchedule& bs, std::uint32_t side,
                   bool pipelined = false);
  /// One column-wise permutation: transpose, row-wise, transpose (KNI Sect. 6).
  Measure column_wise(const std::vector<std::uint32_t>& step, const BankSchedule& bs, std::uint32_t side);
  /// KNI Sect. 8's five kernels: row-wise, transpose, row-wise, transpose, row-wise.
  /// `pipelined` (scheduled-pipelined): the same five kernels, the row-wise one with all of a
  /// thread's global loads issued before its first store (see gpu.cu).
  Measure scheduled_paper(const GpuSchedule& s, const std::vector<std::uint32_t>& p, bool pipelined = false);
  /// Three kernels: each transpose folded into the row-wise kernel before it (see gpu.cu).
  Measure scheduled_fused(const GpuSchedule& s, const std::vector<std::uint32_t>& p);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmsim::gpu
