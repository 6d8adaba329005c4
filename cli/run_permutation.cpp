// `mmsim run` for the permutation algorithms of papers/000: --perm NAME or --perm-file F.
#include <fstream>

#include "algorithms/registry.h"
#include "cli/run_family.h"
#include "experiments/run_report.h"

namespace mmsim::cli {

RunHandler add_permutation_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common) {
  struct Opts {
    std::string perm;
    std::string perm_file;
    std::string schedule_file;
  };
  auto o = std::make_shared<Opts>();
  auto* perm = run.add_option("--perm", o->perm, "named permutation: identical, shuffle, bit-reversal, transpose, random");
  auto* file = run.add_option("--perm-file", o->perm_file, "permutation file: one destination P(i) per line");
  perm->excludes(file);
  run.add_option("--schedule", o->schedule_file, "precomputed schedule file (mmsim schedule) for the scheduled permutation");
  return [o, common](const CommonRunOptions& c) -> std::optional<int> {
    const PermutationAlgorithm* algo = find_permutation_algorithm(c.algorithm);
    if (!algo) return std::nullopt;
    c.machine.validate();
    if (o->perm.empty() && o->perm_file.empty()) throw InputError("--perm: give --perm NAME or --perm-file F");
    if (c.n == 0) throw InputError("-n: required, >= 1");
    // 2^28 cells keep a run within a few GB of host memory.
    if (c.n > (std::uint64_t{1} << 28)) throw InputError("-n: at most 2^28 = 268435456");
    const Permutation p = o->perm_file.empty() ? named_permutation(o->perm, c.n, c.seed)
                                               : read_permutation_file(o->perm_file, c.n);
    PermutationInput in;
    in.perm = &p;
    in.seed = c.seed;
    if (!o->schedule_file.empty()) in.schedule_file = o->schedule_file;
    algo->check(c.machine.params, in);
    const Machine machine(c.machine.params);
    const EngineOptions eo{c.async ? Execution::Asynchronous : Execution::RoundSynchronous, !c.trace_file.empty()};
    const auto result = experiments::run_permutation(*algo, machine, in, eo);
    if (!c.trace_file.empty()) {
      std::ofstream out(c.trace_file);
      if (!out) throw InputError("--trace: cannot write " + c.trace_file);
      out << experiments::trace_csv(result);
    }
    if (c.json) print_json(experiments::to_json(result));
    else std::cout << experiments::to_text(result);
    return result.run.correct ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
