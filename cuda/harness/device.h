// The one description of the GPU the tables ran on: what every GPU table and `mmsim gpu info` print
// about it, queried in one place. Plain C++ (no CUDA header).
#pragma once

#include <cstdint>
#include <string>

#include "cuda/harness/error.h"

namespace mmsim::gpu {

struct DeviceInfo {
  std::string name;
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  std::uint64_t global_bytes = 0, l2_bytes = 0;
  std::uint64_t shared_per_block_optin = 0, shared_per_sm = 0;
  int sm_clock_khz = 0, memory_clock_khz = 0, bus_width_bits = 0;
  int driver_version = 0, runtime_version = 0;  ///< as CUDA gives them: 1000 major + 10 minor
};

/// Device 0. Throws NoDeviceError when there is none (or no driver), GpuError on a failed query.
DeviceInfo device_info();

/// Free global memory of device 0 now, in bytes.
std::uint64_t device_free_bytes();

/// "NAME (compute capability X.Y, N SMs)": how a table's configuration line names the device.
std::string device_summary(const DeviceInfo& d);

}  // namespace mmsim::gpu
