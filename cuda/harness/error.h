// The CUDA backend's one error type. Plain C++ (no CUDA header), so that the CLI and the drivers,
// compiled by the host compiler, can catch what the kernels' host code throws.
#pragma once

#include <stdexcept>

namespace mmsim::gpu {

/// A failed CUDA call, a launch error, or a request the device cannot serve; the message names the
/// call, the file and the line (cuda/harness/check.h).
struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// There is no device to run on (no GPU, or no driver). Its own type so that a test program can
/// report "skipped" where every other GpuError is a failure.
struct NoDeviceError : GpuError {
  using GpuError::GpuError;
};

}  // namespace mmsim::gpu
