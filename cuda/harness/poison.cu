// The poison of cuda/harness/poison.h.
#include "cuda/harness/check.h"
#include "cuda/harness/poison.h"

namespace mmsim::gpu {

void poison(void* device_ptr, std::uint64_t bytes) { MMSIM_CK(cudaMemsetAsync(device_ptr, kPoisonByte, bytes)); }

}  // namespace mmsim::gpu
