// `mmsim run --kernel FILE` and `mmsim predict --kernel FILE`: a command that takes either one of its
// algorithms (a subcommand) or a kernel file (docs/kernel-files.md), never both, and nothing else
// beside the file.
#pragma once

#include <optional>
#include <string>

#include "cli/common.h"

namespace mmsim::cli {

/// Dispatches `cmd`: the parsed algorithm of `all` (each with `command` and `entry`) to
/// `on_algorithm`, or --kernel to `on_kernel`; `verb` says what --kernel does ("runs", "predicts").
/// Returns nullopt when neither was given, so the caller names what is missing.
template <typename All, typename OnAlgorithm, typename OnKernel>
std::optional<int> algorithm_or_kernel(const CLI::App& cmd, const All& all, const CLI::Option& kernel,
                                       const std::string& verb, OnAlgorithm on_algorithm, OnKernel on_kernel) {
  const std::string name = cmd.get_name();
  for (const auto& a : all)
    if (a->command->parsed()) {
      if (kernel.count() > 0)
        throw InputError(name + ": --kernel " + verb + " a kernel file, not " + quote(a->entry->name));
      return on_algorithm(*a);
    }
  if (kernel.count() == 0) return std::nullopt;
  if (const auto rest = cmd.remaining(); !rest.empty())
    throw InputError(name + ": --kernel " + verb + " a kernel file alone; " + quote(rest.front()) +
                     " is neither an algorithm nor an option of it");
  return on_kernel();
}

}  // namespace mmsim::cli
