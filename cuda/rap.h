// The shared-memory 32 x 32 transposes of NMI Sect. VI on the GPU: host interface of the
// timed, checked kernels (no CUDA header leaks out of it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/gpu.h"
#include "cuda/rap_index.h"

namespace mmsim::gpu {

struct RapOptions {
  /// Transposes per block inside the timed window (even: the kernel transposes a into b and back,
  /// so that after the last one b holds the transpose and a the original, both checked).
  std::uint32_t reps = 1024;
  std::uint32_t warmup_reps = 2;  ///< untimed transposes before the window (even)
  int launches = 5;               ///< timed launches, after one warm-up launch
  /// Blocks per launch: at least this many (0: the GPU's SM count), block b using layout b mod the
  /// number of layouts given. Each block asks for enough shared memory that an SM holds only one.
  std::uint32_t min_blocks = 0;
};

/// One (transpose, layout, type): per-block samples over the timed launches.
struct RapMeasure {
  std::vector<double> ns, cycles;  ///< per block and launch: time of one transpose
  double median_ns = 0, mean_ns = 0, median_cycles = 0, clock_mhz = 0;
  std::uint32_t blocks = 0, layouts = 0;
  int launches = 0;
  bool correct = false;
  std::uint64_t mismatches = 0;
  std::string detail;  ///< first mismatch
};

/// Runs transpose `t` under layout `k` with elements of type `e`. `shifts` holds 32 shifts per
/// layout (r_0 .. r_31 of each drawn layout for ras and rap, one row of zeros for the others).
/// Time per transpose: clock64 cycles and the global timer's nanoseconds of thread 0 around the
/// timed repetitions, divided by their number. Throws GpuError on a CUDA failure.
RapMeasure rap_transpose(SmemTranspose t, SmemLayout k, Elem e, const std::vector<std::uint8_t>& shifts,
                         const RapOptions& o);

/// For Nsight Compute: launches every (transpose, layout) kernel of type `e` once, with one block
/// and one transpose, in the order transposes x layouts (crsw raw, crsw ras, ..., drdw xor), and
/// checks each output. `shifts`: 32 per layout kind in that order (5 rows). Returns the number of
/// launches whose output was wrong.
int rap_profile_launches(Elem e, const std::vector<std::uint8_t>& shifts);

}  // namespace mmsim::gpu
