// The sampling options of the commands that predict a run's GPU time from its simulation (predict,
// predict --kernel, replay --profile, validate): --exact, --sample-budget and --sample-seed, declared once so that
// every command takes the same names, rules and help (predict/sampled.h says what the sample is).
#pragma once

#include <cstdint>
#include <optional>

#include "cli/common.h"
#include "predict/sampled.h"

namespace mmsim::cli {

struct SamplingOption {
  bool exact = false;
  predict::SamplingOptions sampling;

  /// Adds the three options to `cmd`; `what` says what is simulated ("the run", "each run").
  void add_to(CLI::App& cmd, const std::string& what) {
    cmd.add_flag("--exact", exact,
                 "simulate the L2 and DRAM rows of every sector of " + what +
                     " (default: those of a sample of the DRAM rows, scaled, with 95 % intervals; a run within "
                     "--sample-budget is simulated whole)");
    add_integer_option(cmd, sampling.budget, predict::sample_budget_param());
    add_integer_option(cmd, sampling.seed, predict::sample_seed_param());
  }
  /// The sampling, or nullopt with --exact.
  std::optional<predict::SamplingOptions> value() const {
    if (exact) return std::nullopt;
    return sampling;
  }
};

}  // namespace mmsim::cli
