// The source fill and the copy of cuda/harness/reference.h.
#include "cuda/harness/check.h"
#include "cuda/harness/reference.h"
#include "cuda/index.h"

namespace mmsim::gpu {

namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::uint64_t items, unsigned threads) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

__global__ void k_fill32(std::uint32_t* a, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < n) a[i] = source_bits32(i);
}
__global__ void k_fill64(std::uint64_t* a, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < n) a[i] = source_bits64(i);
}

__global__ void k_copy16(const uint4* __restrict__ a, uint4* __restrict__ b, std::uint64_t vectors) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < vectors) b[i] = a[i];
}

}  // namespace

void fill_source(void* device_ptr, std::uint64_t n, unsigned cell_bytes) {
  if (cell_bytes == 4)
    k_fill32<<<blocks_for(n, kThreads), kThreads>>>(static_cast<std::uint32_t*>(device_ptr), n);
  else if (cell_bytes == 8)
    k_fill64<<<blocks_for(n, kThreads), kThreads>>>(static_cast<std::uint64_t*>(device_ptr), n);
  else
    throw GpuError("fill: cells of 4 or 8 bytes");
  MMSIM_LAUNCHED();
  MMSIM_CK(cudaDeviceSynchronize());
}

void launch_copy16(const void* src, void* dst, std::uint64_t bytes) {
  if (bytes % 16 != 0) throw GpuError("copy: a multiple of 16 bytes");
  const std::uint64_t vectors = bytes / 16;
  k_copy16<<<blocks_for(vectors, kThreads), kThreads>>>(static_cast<const uint4*>(src), static_cast<uint4*>(dst),
                                                        vectors);
  MMSIM_LAUNCHED();
}

}  // namespace mmsim::gpu
