// The calibration microbenchmarks: small kernels that are none of mmsim's algorithms, each run on
// the GPU (cuda/calibrate/, timed) and on the simulator (predict/microbench_programs.cpp, costed),
// so that the GPU profile's constants are fitted on them alone (`mmsim gpu calibrate`).
//
// One thread per output element, 256 threads per block, elements of `element_bytes` (4: float,
// 8: double). Exact semantics, which both sides follow:
//   Empty        an empty kernel of one block of 32 threads: the cost of a launch; with `repeats`
//                of 2 or more, that many launched back to back and timed together ("empty-x16"),
//                where each launch after the first overlaps the one before.
//   Copy         b[i] = a[i], i < n.
//   ReadStride   b[i] = a[i * stride], i < n / stride (a has n elements).
//   WriteStride  b[i * stride] = a[i], i < n / stride (b has n elements).
//   ReadRandom   b[i] = a[scatter_hash(i) % n], i < n.
//   WriteRandom  b[scatter_hash(i) % n] = a[i], i < n (colliding writes: any one lands).
//   ReadTranspose   b[i] = a[transposed(i)], i < n: every element read once, the lanes of a warp
//                   `stride` elements apart (transposed below: an S x n/S matrix read as its
//                   transpose).
//   WriteTranspose  b[transposed(i)] = a[i], i < n: every element written once, the lanes'
//                   writes `stride` elements apart, each sector written by several warps.
//   Shared       blocks of 256 threads, `n` / 256 blocks; each thread makes `repeats` reads of a
//                shared array of 32 * 33 words at word (lane * stride + r) % (32 * stride), r the
//                repeat index, for `stride` = the congestion 1..32 of every warp access, and writes
//                the sum of what it read to b[i]. (For stride 32 the word index is lane * 32 + r
//                mod 1024: all 32 lanes in one bank.) Before the reads each block fills word j of
//                its shared array with j + block, then a barrier (the sums are then checkable, and
//                differ from block to block: predict/microbench_reference.h).
// A global kind may be `cold`: before each timed run the GPU reads a buffer twice the L2's size, so
// the run finds neither a nor b in the cache, and the simulator counts its first run (warm kinds:
// the second of two). Cold and warm kinds of one access pattern tell what the cache saved, and
// what write-backs left over from a run before cost the next.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim::predict {

// New kinds go last: a profile stores a bench's kind as its number.
enum class MicrobenchKind : std::uint8_t {
  Empty,
  Copy,
  ReadStride,
  WriteStride,
  ReadRandom,
  WriteRandom,
  Shared,
  ReadTranspose,
  WriteTranspose
};
inline constexpr MicrobenchKind kLastMicrobenchKind = MicrobenchKind::WriteTranspose;

struct Microbench {
  MicrobenchKind kind = MicrobenchKind::Copy;
  std::uint64_t n = 0;        ///< elements (for Shared: threads)
  std::uint32_t stride = 1;   ///< the strided and transposed kinds' stride; Shared: the congestion
  std::uint32_t repeats = 0;  ///< Shared: accesses per thread; Empty: launches (0 and 1: one)
  std::uint32_t element_bytes = 4;
  bool cold = false;  ///< the L2 flushed before each timed run (global kinds only)

  std::string name() const;  ///< e.g. "read-stride-8", "write-transpose-8", "shared-congestion-4", "write-random-cold"
};

/// The 32-bit hash of the random microbenchmarks (a multiply-xorshift mix; any fixed bijection of
/// 32-bit words would do): both sides compute it on the fly, so there is no index array to read.
constexpr std::uint32_t scatter_hash(std::uint32_t i) {
  std::uint32_t x = i * 0x9E3779B1u;
  x ^= x >> 15;
  x *= 0x85EBCA77u;
  x ^= x >> 13;
  return x;
}

/// Where thread i of a transposed kind reads (ReadTranspose) or writes (WriteTranspose): element
/// i of an S x (n / S) row-major matrix (S = stride) goes to the same element of its transpose,
/// (i mod (n / S)) * S + i div (n / S). Consecutive threads land `stride` elements apart, and each
/// group of S elements is reached by S threads n / S apart: for a power-of-two n, a bit rotation.
constexpr std::uint64_t transposed(std::uint64_t i, std::uint64_t n, std::uint64_t stride) {
  const std::uint64_t cols = n / stride;
  return i % cols * stride + i / cols;
}

/// transposed(i, n, 2^stride_log2) for n = 2^(stride_log2 + cols_log2), by shifts and a mask: what
/// the GPU's kernels compute, so that no division costs them time.
constexpr std::uint64_t transposed_by_shifts(std::uint64_t i, unsigned stride_log2, unsigned cols_log2) {
  return (i & ((std::uint64_t{1} << cols_log2) - 1)) << stride_log2 | i >> cols_log2;
}

/// The thread whose transposed(i) is j: transposed's inverse.
constexpr std::uint64_t transposed_from(std::uint64_t j, std::uint64_t n, std::uint64_t stride) {
  return j % stride * (n / stride) + j / stride;
}

/// The set `mmsim gpu calibrate` runs: every kind with arrays that fit the L2 cache (16 MiB each)
/// and arrays that do not (128 MiB), strides and congestions 1, 2, 4, 8, 16, 32, float and double;
/// then random reads and writes of float arrays of 24, 32, 48, 64 and 96 MiB, between the two;
/// then, on arrays of 16 MiB, the reads and writes that separate a partial write from a read with
/// the L2 flushed before each run (cold); then every element read or written once at strides 8
/// and 16 (transposed), in and beyond the L2, float and double, and cold at stride 8; then 16 and
/// 256 empty launches back to back.
std::vector<Microbench> calibration_set();

/// One timed microbenchmark.
struct MicrobenchTiming {
  Microbench bench;
  double median_ms = 0;
  double min_ms = 0, max_ms = 0;  ///< the spread of the timed runs
  int runs = 0;                   ///< timed runs behind the median
  bool correct = false;           ///< every output cell checked right after the runs
};

/// One microbenchmark timed in several passes over the whole set, pooled: the median of the passes'
/// medians, the extremes of every run, the runs added up, correct when every pass was. Throws
/// std::invalid_argument when the passes do not list the same benches in the same order.
std::vector<MicrobenchTiming> pool_passes(const std::vector<std::vector<MicrobenchTiming>>& passes);

/// "empty", "copy", "read-stride", "write-stride", "read-random", "write-random", "shared",
/// "read-transpose" or "write-transpose".
const char* to_string(MicrobenchKind kind);

}  // namespace mmsim::predict
