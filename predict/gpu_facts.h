// What `mmsim gpu calibrate` reads off the GPU for the profile (cudaDeviceProp), as plain values so
// that the profile code needs no CUDA header; and the short name of a device in file names.
#pragma once

#include <cstdint>
#include <string>

namespace mmsim::predict {

struct GpuFacts {
  std::string name;  ///< as the driver gives it, e.g. "NVIDIA H100 80GB HBM3"
  int sm_count = 0;
  std::uint64_t l2_bytes = 0;
  int sm_clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_width_bits = 0;
};

/// The device in file names (calibration-<slug>.csv, profile-<slug>.json): "h100" or "h200" when
/// the name holds that model, else the name in lower case with every run of other characters than
/// letters and digits made one '-' ("Tesla V100-SXM2-16GB" -> "tesla-v100-sxm2-16gb"); "gpu" when
/// nothing is left.
std::string device_slug(const std::string& gpu_name);

}  // namespace mmsim::predict
