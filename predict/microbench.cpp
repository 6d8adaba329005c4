#include "predict/microbench.h"

#include <algorithm>
#include <stdexcept>

#include "predict/fit.h"

namespace mmsim::predict {

std::string Microbench::name() const {
  const std::string s = std::to_string(stride), temperature = cold ? "-cold" : "";
  // The kind's name, and the stride (the congestion for shared) where the kind has one.
  switch (kind) {
    case MicrobenchKind::ReadStride:
    case MicrobenchKind::WriteStride:
    case MicrobenchKind::ReadTranspose:
    case MicrobenchKind::WriteTranspose:
      return std::string(to_string(kind)) + "-" + s + temperature;
    case MicrobenchKind::Shared:
      return "shared-congestion-" + s;
    case MicrobenchKind::Empty:
      if (repeats > 1) return "empty-x" + std::to_string(repeats);
      break;
    case MicrobenchKind::Copy:
    case MicrobenchKind::ReadRandom:
    case MicrobenchKind::WriteRandom:
      break;
  }
  return to_string(kind) + temperature;
}

const char* to_string(MicrobenchKind kind) {
  switch (kind) {
    case MicrobenchKind::Empty:
      return "empty";
    case MicrobenchKind::Copy:
      return "copy";
    case MicrobenchKind::ReadStride:
      return "read-stride";
    case MicrobenchKind::WriteStride:
      return "write-stride";
    case MicrobenchKind::ReadRandom:
      return "read-random";
    case MicrobenchKind::WriteRandom:
      return "write-random";
    case MicrobenchKind::Shared:
      return "shared";
    case MicrobenchKind::ReadTranspose:
      return "read-transpose";
    case MicrobenchKind::WriteTranspose:
      return "write-transpose";
  }
  return "?";
}

std::vector<Microbench> calibration_set() {
  std::vector<Microbench> set;
  set.push_back({MicrobenchKind::Empty, 32, 1, 0, 4});
  for (const std::uint32_t bytes : {4u, 8u}) {
    // Arrays of 16 MiB (a and b together 32 MiB) stay in the 50 MB L2 of an H100 / H200 and take
    // longer than a launch (at 4 MiB the first calibration measured the launch alone); arrays of
    // 128 MiB do not fit.
    for (const std::uint64_t array_bytes : {std::uint64_t{1} << 24, std::uint64_t{1} << 27}) {
      const std::uint64_t n = array_bytes / bytes;
      set.push_back({MicrobenchKind::Copy, n, 1, 0, bytes});
      for (const std::uint32_t s : {2u, 4u, 8u, 16u, 32u}) {
        set.push_back({MicrobenchKind::ReadStride, n, s, 0, bytes});
        set.push_back({MicrobenchKind::WriteStride, n, s, 0, bytes});
      }
      set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, bytes});
      set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, bytes});
    }
  }
  // The L2's effective capacity (fit_cache_capacity, predict/gpu_profile.h): random reads and
  // writes of float arrays between the two sizes above, where the share of a random walk the cache
  // serves falls from nearly all to little.
  for (const std::uint64_t mib : {24u, 32u, 48u, 64u, 96u}) {
    const std::uint64_t n = (mib << 20) / 4;
    set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, 4});
    set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, 4});
  }
  // Writes against reads with nothing of a or b in the L2 (cold): strided and scattered partial
  // writes of 4 and 8 bytes beside the reads of the same pattern, and a copy; 16 MiB arrays, whose
  // warm runs above the cache serves whole.
  for (const std::uint32_t bytes : {4u, 8u}) {
    const std::uint64_t n = (std::uint64_t{1} << 24) / bytes;
    if (bytes == 4) set.push_back({MicrobenchKind::Copy, n, 1, 0, bytes, true});
    for (const std::uint32_t s : {8u, 32u}) {
      set.push_back({MicrobenchKind::ReadStride, n, s, 0, bytes, true});
      set.push_back({MicrobenchKind::WriteStride, n, s, 0, bytes, true});
    }
    set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, bytes, true});
    set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, bytes, true});
  }
  // Every element read or written once with the lanes of a warp 8 or 16 elements apart: each
  // sector is then read or partially written by several warps, as in a scattering permutation,
  // and the kernel takes many times a launch even within the L2 (the strided kinds above touch
  // only n / stride elements, and within the L2 they take little more than their launch).
  for (const std::uint32_t bytes : {4u, 8u}) {
    for (const std::uint64_t array_bytes : {std::uint64_t{1} << 24, std::uint64_t{1} << 27})
      for (const std::uint32_t s : {8u, 16u}) {
        set.push_back({MicrobenchKind::ReadTranspose, array_bytes / bytes, s, 0, bytes});
        set.push_back({MicrobenchKind::WriteTranspose, array_bytes / bytes, s, 0, bytes});
      }
    const std::uint64_t n = (std::uint64_t{1} << 24) / bytes;
    set.push_back({MicrobenchKind::ReadTranspose, n, 8, 0, bytes, true});
    set.push_back({MicrobenchKind::WriteTranspose, n, 8, 0, bytes, true});
  }
  // Launches back to back, as a program of many kernels makes them (a sorting network's hundreds):
  // what a launch costs after another, apart from the lone launch above.
  for (const std::uint32_t launches : {16u, 256u}) set.push_back({MicrobenchKind::Empty, 32, 1, launches, 4});
  // Shared memory: enough threads to fill every SM of an H100 / H200 (132 x 2048 < 2^19).
  for (const std::uint32_t c : {1u, 2u, 4u, 8u, 16u, 32u})
    set.push_back({MicrobenchKind::Shared, std::uint64_t{1} << 19, c, 64, 4});
  return set;
}

std::vector<MicrobenchTiming> pool_passes(const std::vector<std::vector<MicrobenchTiming>>& passes) {
  if (passes.empty()) return {};
  std::vector<MicrobenchTiming> pooled = passes.front();
  for (std::size_t i = 0; i < pooled.size(); ++i) {
    std::vector<double> medians;
    for (const auto& pass : passes) {
      if (pass.size() != pooled.size() || pass[i].bench.name() != pooled[i].bench.name() ||
          pass[i].bench.n != pooled[i].bench.n || pass[i].bench.element_bytes != pooled[i].bench.element_bytes)
        throw std::invalid_argument("pool_passes: the passes do not time the same microbenchmarks");
      medians.push_back(pass[i].median_ms);
      if (&pass == &passes.front()) continue;
      pooled[i].min_ms = std::min(pooled[i].min_ms, pass[i].min_ms);
      pooled[i].max_ms = std::max(pooled[i].max_ms, pass[i].max_ms);
      pooled[i].runs += pass[i].runs;
      pooled[i].correct = pooled[i].correct && pass[i].correct;
    }
    pooled[i].median_ms = median_of(std::move(medians));
  }
  return pooled;
}

}  // namespace mmsim::predict
