// The explicit registry of what mmsim can run: one table that `mmsim list` prints and `mmsim run`
// looks names up in.
#pragma once

#include <string>
#include <vector>

#include "algorithms/permutations/permutation_algorithm.h"

namespace mmsim {

/// Algorithms that move an array along a permutation P on the HMM (papers/000).
const std::vector<PermutationAlgorithm>& permutation_algorithms();

/// nullptr when no permutation algorithm has that name.
const PermutationAlgorithm* find_permutation_algorithm(const std::string& name);

/// One line of `mmsim list`.
struct CatalogueEntry {
  std::string kind;  ///< algorithm, permutation, layout, pattern, table, figure
  std::string name;
  std::string description;
  std::string paper;
};

/// Every algorithm, permutation and layout with its paper and section.
std::vector<CatalogueEntry> catalogue();

}  // namespace mmsim
