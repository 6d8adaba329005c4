#include "predict/microbench.h"

namespace mmsim::predict {

std::string Microbench::name() const {
  const std::string s = std::to_string(stride);
  switch (kind) {
    case MicrobenchKind::Empty:
      return "empty";
    case MicrobenchKind::Copy:
      return "copy";
    case MicrobenchKind::ReadStride:
      return "read-stride-" + s;
    case MicrobenchKind::WriteStride:
      return "write-stride-" + s;
    case MicrobenchKind::ReadRandom:
      return "read-random";
    case MicrobenchKind::WriteRandom:
      return "write-random";
    case MicrobenchKind::Shared:
      return "shared-congestion-" + s;
  }
  return "?";
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
  }
  return "?";
}

std::vector<Microbench> calibration_set() {
  std::vector<Microbench> set;
  set.push_back({MicrobenchKind::Empty, 32, 1, 0, 4});
  for (const std::uint32_t bytes : {4u, 8u}) {
    // 2^20 elements: a and b together (8 or 16 MiB) stay in the L2 of every GPU mmsim targets;
    // 2^25 (256 or 512 MiB together) do not.
    for (const std::uint64_t n : {std::uint64_t{1} << 20, std::uint64_t{1} << 25}) {
      set.push_back({MicrobenchKind::Copy, n, 1, 0, bytes});
      for (const std::uint32_t s : {2u, 4u, 8u, 16u, 32u}) {
        set.push_back({MicrobenchKind::ReadStride, n, s, 0, bytes});
        set.push_back({MicrobenchKind::WriteStride, n, s, 0, bytes});
      }
      set.push_back({MicrobenchKind::ReadRandom, n, 1, 0, bytes});
      set.push_back({MicrobenchKind::WriteRandom, n, 1, 0, bytes});
    }
  }
  // Shared memory: enough threads to fill every SM of an H100 / H200 (132 x 2048 < 2^19).
  for (const std::uint32_t c : {1u, 2u, 4u, 8u, 16u, 32u})
    set.push_back({MicrobenchKind::Shared, std::uint64_t{1} << 19, c, 64, 4});
  return set;
}

}  // namespace mmsim::predict
