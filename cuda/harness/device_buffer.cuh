// A device allocation that frees itself: for the kernels' host entry points (.cu files only).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/harness/check.h"

namespace mmsim::gpu {

struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(std::uint64_t bytes) { MMSIM_CK(cudaMalloc(&p, bytes)); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

}  // namespace mmsim::gpu
