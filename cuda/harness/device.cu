// The device query of cuda/harness/device.h.
#include "cuda/harness/check.h"
#include "cuda/harness/device.h"

namespace mmsim::gpu {

DeviceInfo device_info() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0)
    throw NoDeviceError(std::string("no CUDA device: ") + (e != cudaSuccess ? cudaGetErrorString(e) : "none found"));
  cudaDeviceProp prop{};
  MMSIM_CK(cudaGetDeviceProperties(&prop, 0));
  DeviceInfo d;
  d.name = prop.name;
  d.sm_count = prop.multiProcessorCount;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.global_bytes = prop.totalGlobalMem;
  d.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
  d.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  d.shared_per_sm = prop.sharedMemPerMultiprocessor;
  d.bus_width_bits = prop.memoryBusWidth;
  MMSIM_CK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, 0));
  MMSIM_CK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
  MMSIM_CK(cudaDriverGetVersion(&d.driver_version));
  MMSIM_CK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

std::uint64_t device_free_bytes() {
  std::size_t free = 0, total = 0;
  MMSIM_CK(cudaMemGetInfo(&free, &total));
  return free;
}

std::string device_summary(const DeviceInfo& d) {
  return d.name + " (compute capability " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ", " +
         std::to_string(d.sm_count) + " SMs)";
}

}  // namespace mmsim::gpu
