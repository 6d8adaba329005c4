#include "experiments/bench.h"

#include <chrono>

#include "algorithms/offline/entries.h"

namespace mmsim::experiments {

std::vector<BenchResult> bench_engine(std::uint64_t n, int repeats) {
  MachineParams params;
  const Machine machine(params);
  const Permutation p = named_permutation("random", n, 1);
  PermutationInput in;
  in.perm = &p;
  const PermutationAlgorithm* algo = find_permutation_algorithm("d-designated");
  std::vector<BenchResult> out;
  for (const Execution e : {Execution::RoundSynchronous, Execution::Asynchronous}) {
    BenchResult r;
    r.what = std::string("d-designated random n = ") + std::to_string(n) +
             (e == Execution::RoundSynchronous ? ", round-synchronous" : ", asynchronous");
    for (int i = 0; i < repeats; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const PermutationRun run = algo->run(machine, in, {e, false});
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      r.requests = run.stats.requests();
      if (i == 0 || s < r.seconds) r.seconds = s;
      if (i == 0 || run.stats.host_seconds() < r.engine_seconds) r.engine_seconds = run.stats.host_seconds();
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace mmsim::experiments
