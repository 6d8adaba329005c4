#include "cli/bench.h"

#include <chrono>
#include <stdexcept>

#include "algorithms/offline/entries.h"

namespace mmsim::cli {

std::vector<BenchResult> bench_engine(std::uint64_t n, int repeats, unsigned threads) {
  MachineParams params;
  const Machine machine(params);
  const Permutation p = named_permutation("random", n, 1);
  PermutationInput in;
  in.perm = &p;
  const PermutationAlgorithm* algo = find_permutation_algorithm("d-designated");
  struct Mode {
    Execution execution;
    unsigned threads;
  };
  std::vector<Mode> modes{{Execution::RoundSynchronous, 1}};
  if (threads > 1) modes.push_back({Execution::RoundSynchronous, threads});
  modes.push_back({Execution::Asynchronous, 1});
  std::vector<BenchResult> out(modes.size());
  std::vector<RunStats> first(modes.size());
  // Repeat by repeat over the modes, so that a load that comes and goes touches each alike.
  for (int i = 0; i < repeats; ++i)
    for (std::size_t m = 0; m < modes.size(); ++m) {
      BenchResult& r = out[m];
      r.threads = modes[m].threads;
      r.what = std::string("d-designated random n = ") + std::to_string(n) +
               (modes[m].execution == Execution::RoundSynchronous ? ", round-synchronous" : ", asynchronous") + ", " +
               std::to_string(r.threads) + (r.threads == 1 ? " thread" : " threads");
      EngineOptions o;
      o.execution = modes[m].execution;
      o.threads = modes[m].threads;
      const auto t0 = std::chrono::steady_clock::now();
      RunReport run = algo->run(machine, in, o);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      r.requests = run.stats.requests();
      if (i == 0 || s < r.seconds) r.seconds = s;
      if (i == 0 || run.stats.host_seconds() < r.engine_seconds) r.engine_seconds = run.stats.host_seconds();
      if (i == 0) first[m] = std::move(run.stats);
    }
  // The figures are only worth comparing if the runs are the same run.
  if (threads > 1) {
    const RunStats &a = first[0], &b = first[1];
    bool same = a.time_units == b.time_units && a.rounds.size() == b.rounds.size();
    for (std::size_t i = 0; same && i < a.rounds.size(); ++i)
      same = a.rounds[i].slots == b.rounds[i].slots && a.rounds[i].time_units == b.rounds[i].time_units;
    if (!same)
      throw std::logic_error("bench: the run on " + std::to_string(threads) + " threads differs from one thread");
  }
  return out;
}

}  // namespace mmsim::cli
