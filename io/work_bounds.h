// Work bounded up front: before a run allocates or simulates anything, its memory is estimated and
// compared with what the machine can give, so that a size that cannot fit is refused at once, with
// the estimate and the option that sets it, instead of swapping for minutes or dying half-way.
#pragma once

#include <cstdint>
#include <string>

namespace mmsim {

/// Bytes a run may use: the environment variable MMSIM_MEMORY_LIMIT (bytes) when set, else the
/// memory the kernel reports available (MemAvailable of /proc/meminfo), else the physical memory.
std::uint64_t memory_available();

/// Throws InputError("WHO: OPTIONS: needs about X of memory (estimated), more than the Y available
/// ...") when `bytes` passes memory_available(). `options` names what sets the size ("-n 268435456").
void check_memory(const std::string& who, const std::string& options, std::uint64_t bytes);

}  // namespace mmsim
