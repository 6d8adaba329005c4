// `mmsim run ALGORITHM ...`: one algorithm on the HMM, with its rounds, time and output check.
#include <fstream>

#include "algorithms/registry.h"
#include "cli/common.h"
#include "experiments/run_report.h"

namespace mmsim::cli {

Runner add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run one algorithm on the simulated machine (see `mmsim list`)");
  struct Opts {
    std::string algorithm;
    std::string perm;
    std::string perm_file;
    std::uint64_t n = 0;
    std::uint64_t seed = 1;
    bool async = false;
    bool json = false;
    std::string trace_file;
    MachineOptions machine;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("algorithm", o->algorithm, "algorithm name")->required();
  auto* perm = cmd->add_option("--perm", o->perm, "named permutation: identical, shuffle, bit-reversal, transpose, random");
  auto* file = cmd->add_option("--perm-file", o->perm_file, "permutation file: one destination P(i) per line");
  perm->excludes(file);
  cmd->add_option("-n", o->n, "number of elements");
  cmd->add_option("--seed", o->seed, "seed of the random permutation")->capture_default_str();
  cmd->add_flag("--async", o->async, "asynchronous execution: barriers only where the algorithm needs them");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--trace", o->trace_file, "write every slot's entry and completion to this CSV file");
  o->machine.add_to(*cmd);
  return [o] {
    const PermutationAlgorithm* algo = find_permutation_algorithm(o->algorithm);
    if (!algo) throw InputError("algorithm: unknown '" + o->algorithm + "' (see mmsim list)");
    o->machine.validate();
    if (o->perm.empty() && o->perm_file.empty()) throw InputError("--perm: give --perm NAME or --perm-file F");
    if (o->n == 0) throw InputError("-n: required, >= 1");
    // 2^28 cells keep a run within a few GB of host memory.
    if (o->n > (std::uint64_t{1} << 28)) throw InputError("-n: at most 2^28 = 268435456");
    const Permutation p = o->perm_file.empty() ? named_permutation(o->perm, o->n, o->seed)
                                               : read_permutation_file(o->perm_file, o->n);
    PermutationInput in;
    in.perm = &p;
    in.seed = o->seed;
    algo->check(o->machine.params, in);
    const Machine machine(o->machine.params);
    const EngineOptions eo{o->async ? Execution::Asynchronous : Execution::RoundSynchronous, !o->trace_file.empty()};
    const auto result = experiments::run_permutation(*algo, machine, in, eo);
    if (!o->trace_file.empty()) {
      std::ofstream out(o->trace_file);
      if (!out) throw InputError("--trace: cannot write " + o->trace_file);
      out << experiments::trace_csv(result);
    }
    if (o->json) print_json(experiments::to_json(result));
    else std::cout << experiments::to_text(result);
    return result.run.correct ? kOk : kCheckFailed;
  };
}

}  // namespace mmsim::cli
