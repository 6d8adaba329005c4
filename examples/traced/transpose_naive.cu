// Naive transpose of an n x n float matrix: each warp reads a row segment (coalesced) and writes a
// column segment, 32 rows apart (one 32-byte sector per lane). Traced and timed (example.cuh).
#include <vector>

#include "example.cuh"

namespace {

constexpr int kTile = 32, kRows = 8;

template <bool Traced>
__global__ void transpose_naive(const float* in_, float* out_, int n, mmsim::TraceSink sink) {
  mmsim::trace_array<const float, Traced> in(in_, sink, 0);
  mmsim::trace_array<float, Traced> out(out_, sink, 1);
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[x * n + (y + j)] = in[(y + j) * n + x];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace traced_example;
  const Options o = options(argc, argv, "transpose_naive");
  const int n = 2048;
  const std::vector<float> h = matrix(n);
  const InOut d = upload(h);
  float *in = d.in, *out = d.out;
  mmsim::TraceRecorder rec(std::size_t{256} << 20);
  rec.global_array("in", h.size(), 4);
  rec.global_array("out", h.size(), 4);
  const dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  const auto verify = [&] { return is_transpose(out, h, n); };
  const bool ok = run(
      "transpose_naive", o, rec, [&] { transpose_naive<false><<<grid, block>>>(in, out, n, mmsim::TraceSink{}); },
      [&](mmsim::TraceRecorder& r) {
        transpose_naive<true><<<grid, block>>>(in, out, n, r.launch("transpose_naive", grid, block));
      },
      verify);
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
