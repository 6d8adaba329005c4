// Gather out[i] = in[idx[i]] of 2^22 floats through a random permutation: the index and output
// accesses are coalesced, the data reads scatter over 32 sectors a warp. Traced and timed
// (example.cuh).
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "example.cuh"

namespace {

template <bool Traced>
__global__ void gather(const unsigned* idx_, const float* in_, float* out_, mmsim::TraceSink sink) {
  mmsim::trace_array<const unsigned, Traced> idx(idx_, sink, 0);
  mmsim::trace_array<const float, Traced> in(in_, sink, 1);
  mmsim::trace_array<float, Traced> out(out_, sink, 2);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned from = idx[i];
  out[i] = in[from];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace traced_example;
  const Options o = options(argc, argv, "gather");
  const std::size_t n = std::size_t{1} << 22;
  std::vector<unsigned> p(n);
  std::iota(p.begin(), p.end(), 0u);
  std::shuffle(p.begin(), p.end(), std::mt19937(11));
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>(i % 100003);
  unsigned* idx;
  float *in, *out;
  check(cudaMalloc(&idx, n * 4), "cudaMalloc");
  check(cudaMalloc(&in, n * 4), "cudaMalloc");
  check(cudaMalloc(&out, n * 4), "cudaMalloc");
  check(cudaMemcpy(idx, p.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  mmsim::TraceRecorder rec(std::size_t{256} << 20);
  rec.global_array("idx", n, 4);
  rec.global_array("in", n, 4);
  rec.global_array("out", n, 4);
  const unsigned threads = 256, blocks = static_cast<unsigned>(n / threads);
  const auto verify = [&] {
    std::vector<float> r(n);
    check(cudaMemcpy(r.data(), out, n * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (std::size_t i = 0; i < n; ++i)
      if (r[i] != h[p[i]]) return false;
    return true;
  };
  const bool ok = run(
      "gather", o, rec, [&] { gather<false><<<blocks, threads>>>(idx, in, out, mmsim::TraceSink{}); },
      [&](mmsim::TraceRecorder& r) {
        gather<true><<<blocks, threads>>>(idx, in, out, r.launch("gather", dim3(blocks), dim3(threads)));
      },
      verify);
  cudaFree(idx);
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
