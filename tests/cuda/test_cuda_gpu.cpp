// The GPU test binary: every kernel on small and medium sizes, float and double, each output
// compared with the CPU reference cell by cell. Exits 1 on any mismatch, 2 on a CUDA failure, and
// kSkipped where there is no GPU (ctest's label `gpu`: tests/cuda/CMakeLists.txt maps it to a skip).
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "algorithms/permutations/permutation.h"
#include "cuda/gpu.h"
#include "cuda/rap.h"
#include "cuda/rap_shifts.h"
#include "sim/random.h"
#include "tests/cuda/gpu_test.h"

using namespace mmsim;
using namespace mmsim::gpu;

int main() {
  int failures = 0, checks = 0;
  const auto report = [&](const std::string& what, const Measure& m) {
    ++checks;
    if (!m.correct) ++failures;
    std::printf("%-60s %s %.4f ms%s\n", what.c_str(), m.correct ? "ok  " : "FAIL", m.median_ms,
                m.correct ? "" : (" " + m.detail).c_str());
  };
  try {
    const std::optional<DeviceInfo> d = device_or_skip("test_cuda_gpu");
    if (!d) return kSkipped;
    std::printf("device: %s, %d SMs\n", d->name.c_str(), d->sm_count);
    std::map<std::pair<std::uint32_t, std::string>, OfflineSchedule> schedules;
    // The shared-memory 32 x 32 transposes (NMI Sect. VI), 8 drawn layouts for ras and rap.
    for (Elem e : {Elem::F32, Elem::F64})
      for (int t = 0; t < kSmemTransposes; ++t)
        for (int k = 0; k < kSmemLayouts; ++k) {
          RapOptions o;
          o.reps = 4;
          o.launches = 1;
          const auto tt = static_cast<SmemTranspose>(t);
          const auto kk = static_cast<SmemLayout>(k);
          const RapMeasure m = rap_transpose(tt, kk, e, rap_shifts(kk, 1, 8), o);
          ++checks;
          if (!m.correct) ++failures;
          const std::string what = std::string(to_string(e)) + " transpose " + layouts::to_string(transpose_of(tt)) +
                                   " " + layouts::to_string(kind_of(kk));
          std::printf("%-60s %s %.1f ns%s\n", what.c_str(), m.correct ? "ok  " : "FAIL", m.median_ns,
                      m.correct ? "" : (" " + m.detail).c_str());
        }
    for (Elem e : {Elem::F32, Elem::F64})
      for (std::uint32_t side : {32u, 64u, 256u, 1024u, 2048u}) {
        const std::uint64_t n = std::uint64_t{side} * side;
        Bench bench(n, e);
        const std::string at = std::string(to_string(e)) + " sqrt(n)=" + std::to_string(side) + " ";
        report(at + "copy", bench.copy());
        for (const char* name : {"identical", "random", "transpose", "shuffle", "bit-reversal"}) {
          const Permutation P = named_permutation(name, n, side);
          report(at + "d-designated " + name, bench.d_designated(P.p));
          report(at + "s-designated " + name, bench.s_designated(P.p));
          const std::string nm = name;
          if (nm == "transpose" || nm == "shuffle" || nm == "bit-reversal") {
            TileMap m;
            m.kind = nm == "transpose" ? TileKind::Transpose
                     : nm == "shuffle" ? TileKind::Shuffle
                                       : TileKind::BitReversal;
            m.side = side;
            m.log_n = 2 * static_cast<unsigned>(__builtin_ctz(side));
            report(at + "in-place " + nm, bench.tiled(m, P.p));
          }
          // One offline build per permutation and size, shared by float and double.
          auto it = schedules.find({side, nm});
          if (it == schedules.end())
            it = schedules.emplace(std::make_pair(side, nm), make_offline_schedule(P.p, side)).first;
          const GpuSchedule g = build_schedule(it->second, e, true);
          report(at + "scheduled-paper " + nm, bench.scheduled_paper(g, P.p));
          report(at + "scheduled-pipelined " + nm, bench.scheduled_paper(g, P.p, true));
          report(at + "scheduled-fused " + nm, bench.scheduled_fused(g, P.p));
        }
        std::vector<std::uint32_t> step(n);
        Rng rng(side);
        for (std::uint64_t i = 0; i < side; ++i) {
          for (std::uint32_t j = 0; j < side; ++j) step[i * side + j] = j;
          rng.shuffle(std::span<std::uint32_t>(step.data() + i * side, side));
        }
        const BankSchedule bs = bank_schedule(step, side);
        report(at + "row-wise random rows", bench.row_wise(step, bs, side));
        report(at + "row-wise-pipelined random rows", bench.row_wise(step, bs, side, true));
        report(at + "column-wise random columns", bench.column_wise(step, bs, side));
      }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "test_cuda_gpu: %s\n", ex.what());
    return 2;
  }
  std::printf("%d of %d GPU checks failed\n", failures, checks);
  return failures ? 1 : 0;
}
