// The offline permutation algorithms of [KNI] (conventional, in-place regular, row-wise and
// column-wise, scheduled) as registry entries, and the runs the tables and the GPU side share.
#pragma once

#include <string>
#include <vector>

#include "algorithms/permutations/permutation_algorithm.h"
#include "algorithms/registry.h"

namespace mmsim {

/// The permutation algorithms in [KNI] Table 1's order.
const std::vector<PermutationAlgorithm>& permutation_algorithms();
/// nullptr when no permutation algorithm has that name.
const PermutationAlgorithm* find_permutation_algorithm(const std::string& name);

namespace offline {

/// One run of a permutation algorithm as a report: time, rounds, the closed form, D_w(P) and
/// D_w(P^-1) of what moved (the derived per-row or per-column permutation where there is one).
RunReport run_permutation(const PermutationAlgorithm& algo, const Machine& machine, const PermutationInput& in,
                          const EngineOptions& options);

std::vector<AlgorithmEntry> algorithm_entries();
/// The named permutations and the permutation file format.
void append_catalogue(std::vector<CatalogueEntry>& out);

}  // namespace offline
}  // namespace mmsim
