// `mmsim run ALGORITHM ...`: the options every family shares; the families answer for their names.
#include "cli/run_family.h"

namespace mmsim::cli {

Runner add_run_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "run one algorithm on the simulated machine (see `mmsim list`)");
  auto common = std::make_shared<CommonRunOptions>();
  cmd->add_option("algorithm", common->algorithm, "algorithm name (see mmsim list)")->required();
  cmd->add_option("-n", common->n, "number of elements");
  cmd->add_option("--seed", common->seed, "seed of every random choice")->capture_default_str();
  cmd->add_flag("--async", common->async, "asynchronous execution: barriers only where the algorithm needs them");
  cmd->add_flag("--json", common->json, "print one JSON object");
  cmd->add_option("--trace", common->trace_file, "write every slot's entry and completion to this CSV file");
  common->machine.add_to(*cmd);

  // Each family's options and handler; a new family adds one line here.
  const std::vector<RunFamilyAdder> families{
      add_permutation_run,
      add_bmmc_run,
      add_layout_run,
      add_sorting_run,
      add_enumeration_run,
  };
  auto handlers = std::make_shared<std::vector<RunHandler>>();
  for (auto adder : families) handlers->push_back(adder(*cmd, common));

  return [common, handlers] {
    for (const auto& h : *handlers)
      if (auto status = h(*common)) return *status;
    throw InputError("algorithm: unknown '" + common->algorithm + "' (see mmsim list)");
  };
}

}  // namespace mmsim::cli
