// The GPU's enumeration-scheme transpositions at small orders off the tile grid (the benchmark's
// orders are all multiples of the tile): every 2D in-place kernel, TW included, and the four 3D
// involution kernels, each output checked cell by cell on the GPU after one run and after two more
// (the input back). Exits 1 on any mismatch, 2 on a CUDA failure, 77 (skipped) without a GPU.
#include <cstdio>
#include <string>

#include "cuda/enumeration/gpu_enumeration.h"
#include "cuda/harness/device.h"
#include "cuda/harness/error.h"
#include "tests/cuda/gpu_test.h"

using namespace mmsim::gpu;
using namespace mmsim::gpu::enumeration;

int main() {
  try {
    if (!device_or_skip("test_cuda_enumeration")) return kSkipped;
    Transposer gpu;
    // One checked run, then two timed runs: the second check expects the first image again (odd).
    const TimingPlan plan{0, 2};
    int checks = 0, failures = 0;
    const auto report = [&](const std::string& what, const Result& r) {
      ++checks;
      if (r.mismatches) ++failures;
      std::printf("%-44s %s\n", what.c_str(), r.mismatches ? ("FAIL " + std::to_string(r.mismatches)).c_str() : "ok");
    };
    for (u64 n : {1, 2, 31, 33, 100, 257}) {
      DeviceMatrix M = DeviceMatrix::try_alloc(n * n * 3);
      if (!M) throw GpuError("cudaMalloc failed for a small matrix");
      for (InPlaceAlg a : {InPlaceAlg::Naive, InPlaceAlg::SuperGrid, InPlaceAlg::V1, InPlaceAlg::V1R, InPlaceAlg::V1B,
                           InPlaceAlg::TW}) {
        const Result r = gpu.in_place(a, M.get(), n, 2, 3, plan);
        report("in-place " + r.alg + " n=" + std::to_string(n), r);
      }
      for (u64 depth : {1, 2, 3})
        for (InvolutionAlg a :
             {InvolutionAlg::YxzNaive, InvolutionAlg::YxzV1B, InvolutionAlg::ZyxNaive, InvolutionAlg::ZyxV1B}) {
          const Result r = gpu.involution(a, M.get(), n, depth, 2, plan);
          report("3d " + r.kind + " " + r.alg + " n=" + std::to_string(n) + " depth=" + std::to_string(depth), r);
        }
      M.release();
    }
    std::printf("%d of %d checks failed\n", failures, checks);
    return failures ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "test_cuda_enumeration: %s\n", e.what());
    return 2;
  }
}
