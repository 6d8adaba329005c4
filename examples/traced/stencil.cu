// Five-point stencil on an n x n float grid: out = 0.5 * centre + 0.125 * (north + south + west +
// east) in the interior, the border left as it is. Each neighbour's read is its own line, so the
// per-line table shows the west and east reads offset by one element (a second sector) and the
// border warps' partial masks. Traced and timed (example.cuh).
#include <vector>

#include "example.cuh"

namespace {

template <bool Traced>
__global__ void stencil(const float* in_, float* out_, int n, mmsim::TraceSink sink) {
  mmsim::trace_array<const float, Traced> in(in_, sink, 0);
  mmsim::trace_array<float, Traced> out(out_, sink, 1);
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < n - 1 && y > 0 && y < n - 1) {
    const float c = in[y * n + x];
    const float north = in[(y - 1) * n + x];
    const float south = in[(y + 1) * n + x];
    const float west = in[y * n + x - 1];
    const float east = in[y * n + x + 1];
    out[y * n + x] = 0.5f * c + 0.125f * (north + south + west + east);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace traced_example;
  const Options o = options(argc, argv, "stencil");
  const int n = 2048;
  std::vector<float> h(static_cast<std::size_t>(n) * n);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>((i * 7) % 1024);
  const InOut d = upload(h);
  float *in = d.in, *out = d.out;
  check(cudaMemcpy(out, h.data(), h.size() * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  mmsim::TraceRecorder rec(std::size_t{512} << 20);
  rec.global_array("in", h.size(), 4);
  rec.global_array("out", h.size(), 4);
  const dim3 block(32, 8), grid(n / 32, n / 8);
  const auto at = [&](int y, int x) { return h[static_cast<std::size_t>(y) * n + x]; };
  const auto verify = [&] {
    std::vector<float> r(h.size());
    check(cudaMemcpy(r.data(), out, r.size() * 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const bool inner = x > 0 && x < n - 1 && y > 0 && y < n - 1;
        const float e =
            inner ? 0.5f * at(y, x) + 0.125f * (at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1)) : at(y, x);
        if (r[static_cast<std::size_t>(y) * n + x] != e) return false;
      }
    return true;
  };
  const bool ok = run(
      "stencil", o, rec, [&] { stencil<false><<<grid, block>>>(in, out, n, mmsim::TraceSink{}); },
      [&](mmsim::TraceRecorder& r) { stencil<true><<<grid, block>>>(in, out, n, r.launch("stencil", grid, block)); },
      verify);
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
