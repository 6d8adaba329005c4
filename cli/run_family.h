// `mmsim run` serves several families of algorithms. The options every family shares are declared
// once here; each family declares its own extra options on the same subcommand and answers for the
// algorithm names it knows.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cli/common.h"

namespace mmsim::cli {

struct CommonRunOptions {
  std::string algorithm;
  std::uint64_t n = 0;
  std::uint64_t seed = 1;
  bool async = false;
  bool json = false;
  std::string trace_file;
  MachineOptions machine;
};

/// Runs `algorithm` and returns the exit status, or nullopt when the algorithm is not this family's.
using RunHandler = std::function<std::optional<int>(const CommonRunOptions&)>;

/// Names of this family's algorithms, for the "unknown algorithm" message.
using RunFamilyAdder = RunHandler (*)(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common);

// One adder per family (cli/run_<family>.cpp).
RunHandler add_permutation_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common);
RunHandler add_bmmc_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common);
RunHandler add_layout_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common);
RunHandler add_sorting_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common);
RunHandler add_enumeration_run(CLI::App& run, const std::shared_ptr<CommonRunOptions>& common);

}  // namespace mmsim::cli
