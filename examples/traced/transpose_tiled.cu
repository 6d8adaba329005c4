// Tiled transpose of an n x n float matrix through a 32 x (32 + PAD) shared tile: reads and writes
// of global memory are coalesced; the tile's column reads hit one bank 32 times without padding
// (PAD = 0) and 32 banks with it (PAD = 1). Traced and timed (example.cuh); built twice, as
// transpose_tiled32 and transpose_tiled33.
#include <vector>

#include "example.cuh"

#ifndef PAD
#define PAD 0
#endif
#define NAME_OF(p) ((p) ? "transpose_tiled33" : "transpose_tiled32")

namespace {

constexpr int kTile = 32, kRows = 8, kWidth = kTile + PAD;

template <bool Traced>
__global__ void transpose_tiled(const float* in_, float* out_, int n, mmsim::TraceSink sink) {
  __shared__ float tile_[kTile * kWidth];
  mmsim::trace_array<const float, Traced> in(in_, sink, 0);
  mmsim::trace_array<float, Traced> out(out_, sink, 1);
  mmsim::trace_array<float, Traced> tile(tile_, sink, 2);
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[(threadIdx.y + j) * kWidth + threadIdx.x] = in[(y + j) * n + x];
  if (Traced) {
    mmsim::sync(sink);
  } else {
    __syncthreads();
  }
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x * kWidth + threadIdx.y + j];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace traced_example;
  const Options o = options(argc, argv, NAME_OF(PAD));
  const int n = 2048;
  const std::vector<float> h = matrix(n);
  const InOut d = upload(h);
  float *in = d.in, *out = d.out;
  mmsim::TraceRecorder rec(std::size_t{256} << 20);
  rec.global_array("in", h.size(), 4);
  rec.global_array("out", h.size(), 4);
  rec.shared_array("tile", kTile * kWidth, 4);
  const dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  const auto verify = [&] { return is_transpose(out, h, n); };
  const bool ok = run(
      NAME_OF(PAD), o, rec, [&] { transpose_tiled<false><<<grid, block>>>(in, out, n, mmsim::TraceSink{}); },
      [&](mmsim::TraceRecorder& r) {
        transpose_tiled<true><<<grid, block>>>(in, out, n, r.launch(NAME_OF(PAD), grid, block));
      },
      verify);
  cudaFree(in);
  cudaFree(out);
  return ok ? 0 : 1;
}
