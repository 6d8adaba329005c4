// One run of a permutation algorithm and its text, JSON and trace renderings.
#pragma once

#include <string>

#include "algorithms/permutations/permutation_algorithm.h"
#include "report/json.h"

namespace mmsim::experiments {

struct PermutationReport {
  std::string algorithm;
  std::string permutation;
  std::uint64_t n = 0;
  MachineParams machine;
  bool async = false;
  std::uint64_t distribution = 0;          ///< D_w(P)
  std::uint64_t distribution_inverse = 0;  ///< D_w(P^-1)
  PermutationRun run;
};

PermutationReport run_permutation(const PermutationAlgorithm& algo, const Machine& machine,
                                  const PermutationInput& in, const EngineOptions& options);

/// The JSON object of `mmsim run --json` (keys listed in the README).
report::Json to_json(const PermutationReport& r);
std::string to_text(const PermutationReport& r);
/// CSV: round, kernel, memory, warp, slot, enter, complete, requests (space separated).
std::string trace_csv(const PermutationReport& r);

}  // namespace mmsim::experiments
