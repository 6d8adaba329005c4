// The GPU parm sort (BDS Sect. 7) at small sizes, direct and through each BMMC kernel: fresh random
// keys per run, every output cell against std::sort of the same keys, and the launch count against
// the simulator's kernel count for the same network. Exits 1 on any failure, 2 on a CUDA failure,
// 77 (skipped) without a GPU.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "algorithms/bmmc/parm.h"
#include "cuda/bmmc/parm_plan.h"
#include "cuda/harness/device.h"
#include "cuda/harness/error.h"
#include "models/machines.h"
#include "sim/random.h"
#include "tests/cuda/gpu_test.h"

using namespace mmsim::gpu;
using namespace mmsim::gpu::bmmc;

int main() {
  try {
    if (!device_or_skip("test_cuda_parm")) return kSkipped;
    int checks = 0, failures = 0;
    mmsim::Rng rng(2024);
    ParmRunner runner(14);
    const mmsim::Machine machine({.model = mmsim::ModelKind::Hmm, .w = 32, .l = 1, .L = 100, .k = 8});
    for (int bits = 12; bits <= 14; ++bits)
      for (const ParmVariant& v : parm_variants()) {
        std::vector<std::uint32_t> keys(std::size_t{1} << bits);
        // Few distinct values at 2^13: ties must sort too.
        for (auto& k : keys) k = static_cast<std::uint32_t>(rng.next() % (bits == 13 ? 97 : 0xFFFFFFFFull));
        ParmBuffer result = ParmBuffer::A;
        const std::vector<ParmLaunch> launches = parm_launches(bits, v, result);
        runner.set_keys(static_cast<std::uint32_t>(bits), keys);
        runner.run_once(launches);
        const std::uint32_t* got = runner.fetch(result);
        std::sort(keys.begin(), keys.end());
        std::size_t bad = 0;
        for (std::size_t i = 0; i < keys.size(); ++i) bad += got[i] != keys[i];
        std::string why = bad ? "FAIL " + std::to_string(bad) + " cells" : "ok";
        if (bits == 12) {
          const auto s = mmsim::bmmc::run_parm_sort(
              machine, bits, {v.kernel.value_or(mmsim::bmmc::KernelKind::Naive), {}}, !v.kernel, 7, {});
          if (s.passes + s.compare_stages != static_cast<int>(launches.size()))
            why = "FAIL " + std::to_string(launches.size()) + " launches, simulated " +
                  std::to_string(s.passes + s.compare_stages);
        }
        ++checks;
        failures += why != "ok";
        std::printf("2^%d %-16s %4zu launches %s\n", bits, v.name().c_str(), launches.size(), why.c_str());
      }
    std::printf("%d of %d checks failed\n", failures, checks);
    return failures ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "test_cuda_parm: %s\n", e.what());
    return 2;
  }
}
