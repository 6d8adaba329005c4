// What the GPU test programs share: the status ctest reads as "skipped" (SKIP_RETURN_CODE in
// tests/cuda/CMakeLists.txt), and the device they run on, where there is one.
#pragma once

#include <cstdio>
#include <optional>

#include "cuda/harness/device.h"

namespace mmsim::gpu {

inline constexpr int kSkipped = 77;

// Device 0; or, where this machine cannot run kernels (CI, the development machine), nothing and
// "TEST: SKIPPED: why" printed, which is not a failure of the kernels.
inline std::optional<DeviceInfo> device_or_skip(const char* test) {
  try {
    return device_info();
  } catch (const NoDeviceError& e) {
    std::printf("%s: SKIPPED: %s\n", test, e.what());
    return std::nullopt;
  }
}

}  // namespace mmsim::gpu
