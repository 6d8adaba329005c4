// The Afshani-Sitchinava kernels on small shapes (m below, at and above w = 32: every path of as-sort,
// as-partition's Lemma 2 at m = 8 and 16 and Theorem 2 at m = 2, as-permute's finish), a few
// instances per launch each on its own random input, every output cell checked against a CPU
// reference written here (std::sort, each row full of its label, item x at row x / m, column
// x % m). Exits 1 on any mismatch, 2 on a CUDA failure, 77 (skipped) without a GPU.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "algorithms/sorting/inputs.h"
#include "cuda/harness/device.h"
#include "cuda/harness/error.h"
#include "cuda/sorting/gpu_sorting.h"
#include "tests/cuda/gpu_test.h"

using namespace mmsim::gpu;
using namespace mmsim::gpu::sorting;

namespace {

mmsim::sorting::Task task_of(Algo a) {
  if (a == Algo::Sort || a == Algo::SortBitonic) return mmsim::sorting::Task::Sort;
  if (a == Algo::Partition || a == Algo::PartitionDirect) return mmsim::sorting::Task::Partition;
  return mmsim::sorting::Task::Permute;
}

// Row-major value of cell x (row x / m, column x % m) after the algorithm, from the input.
std::vector<std::uint32_t> reference(Algo a, std::uint32_t m, std::vector<std::uint32_t> v) {
  if (task_of(a) == mmsim::sorting::Task::Sort)
    std::sort(v.begin(), v.end());
  else
    for (std::size_t x = 0; x < v.size(); ++x)
      v[x] = static_cast<std::uint32_t>(task_of(a) == mmsim::sorting::Task::Partition ? x / m : x);
  return v;
}

}  // namespace

int main() {
  try {
    if (!device_or_skip("test_cuda_sorting")) return kSkipped;
    int checks = 0, failures = 0;
    constexpr std::uint32_t kInstances = 3;
    for (const Algo a : kAlgos)
      for (const std::uint32_t m : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u}) {
        std::vector<std::uint32_t> in, want;
        for (std::uint32_t b = 0; b < kInstances; ++b) {
          const auto input = mmsim::sorting::random_input(task_of(a), kW, m, 1000 + b);
          const auto ref = reference(a, m, input);
          // Row-major -> the DMM layout of the kernels' slices (cell (i, j) at word j w + i).
          for (std::uint32_t j = 0; j < m; ++j)
            for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(kW); ++i) {
              in.push_back(input[std::size_t{i} * m + j]);
              want.push_back(ref[std::size_t{i} * m + j]);
            }
        }
        const Batch got = run_batch(a, m, kInstances, in, {0, 2}, 1000);
        std::uint64_t bad = 0;
        for (std::size_t x = 0; x < want.size(); ++x) bad += got.out[x] != want[x];
        bool timed = true;
        for (const long long c : got.cycles) timed = timed && c > 0;
        ++checks;
        if (bad || !timed) ++failures;
        std::printf("%-22s m=%-4u %s\n", registry_name(a), m,
                    bad ? ("FAIL " + std::to_string(bad) + " cells").c_str() : (timed ? "ok" : "FAIL no cycles"));
      }
    std::printf("%d of %d checks failed\n", failures, checks);
    return failures ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "test_cuda_sorting: %s\n", e.what());
    return 2;
  }
}
