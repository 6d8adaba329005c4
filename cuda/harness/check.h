// The one CUDA error check of the GPU code: every runtime call goes through MMSIM_CK and every
// launch is followed by MMSIM_LAUNCHED, so that a failure throws a GpuError naming the call, the
// file and the line. Needs the CUDA headers: include it from .cu files only.
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "cuda/harness/error.h"

namespace mmsim::gpu {

/// `file` from its "cuda/" folder on (cuda/bmmc/kernels.cu), as __FILE__ is the absolute path.
inline const char* source_name(const char* file) {
  const char* best = file;
  for (const char* at = std::strstr(file, "cuda/"); at; at = std::strstr(at + 1, "cuda/")) best = at;
  return best;
}

/// Throws unless `e` is cudaSuccess.
inline void cuda_check(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess)
    throw GpuError(std::string("CUDA: ") + call + " (" + source_name(file) + ":" + std::to_string(line) +
                   "): " + cudaGetErrorString(e));
}

}  // namespace mmsim::gpu

#define MMSIM_CK(call) ::mmsim::gpu::cuda_check((call), #call, __FILE__, __LINE__)
#define MMSIM_LAUNCHED() ::mmsim::gpu::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
